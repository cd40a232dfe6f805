import type { FastifyRequest } from "fastify";
import { LIMITS } from "../../sdk/schemas/limits";
import { HttpError, unprocessableField } from "../errors/http-errors";
import { CursorCodec } from "./list-cursor";
import { type RawQuery, single } from "./query-params";

/*
 * Paging of management API v2's lists, as the platform documents it: `limit` (1 to 1000, default
 * 1000) and an opaque `cursor`, answered with the list under its usual key and
 * `pagination: { hasNextPage, nextCursor }`. A cursor is valid only for the list, the parameters
 * and the account that got it (list-cursor.ts); a malformed or foreign one, one sent with other
 * parameters, and a `limit` out of range are 422s naming the parameter.
 *
 * Pages are cut by position (creation order, `Collection.position`), not by offset: the next page
 * starts after the last item of this one, so an item created between two pages comes at the end
 * (never twice, never pushing another past the page it was on) and one deleted meanwhile shifts
 * nothing.
 */

/** The largest `limit` the platform takes, and its default page size. */
export const MAX_PAGE_SIZE = LIMITS.listPageSize.max;

/** The `pagination` object of a paged answer; `nextCursor` only while there is a next page. */
export interface Pagination {
  hasNextPage: boolean;
  nextCursor?: string;
}

/** One page of a list: its items and the `pagination` object to answer with them. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** What a list request asks for: how many, and after which position (0: from the start). */
export interface PageRequest {
  limit: number;
  after: number;
  /** What a cursor of this list binds: the operation and its other parameters. */
  list: string;
  params: string;
}

/** The parameters a cursor binds: every query parameter but `cursor` and `limit`, sorted, lists joined. */
export function listParams(query: RawQuery): string {
  return Object.keys(query)
    .filter((name) => name !== "cursor" && name !== "limit" && query[name] !== undefined)
    .sort()
    .map((name) => {
      const value = query[name]!;
      return `${encodeURIComponent(name)}=${encodeURIComponent(Array.isArray(value) ? value.join(",") : value)}`;
    })
    .join("&");
}

const describeParams = (params: string) => (params === "" ? "no parameters" : params);

/**
 * Reads `limit` and `cursor` of a request to list `list` (`GET /v2/pods`) as `account`: the page it
 * asks for, or a 422 naming the parameter. `defaultLimit` is the page size without `limit`.
 */
export function readPageRequest(
  query: RawQuery,
  list: string,
  account: string,
  codec: CursorCodec,
  defaultLimit: number,
): PageRequest {
  const params = listParams(query);
  const rawLimit = single(query, "limit");
  let limit = defaultLimit;
  if (rawLimit !== undefined) {
    limit = /^\d{1,7}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= LIMITS.listPageSize.min && limit <= MAX_PAGE_SIZE)) {
      throw unprocessableField(
        "limit",
        rawLimit,
        `must be a whole number from ${LIMITS.listPageSize.min} to ${MAX_PAGE_SIZE}`,
      );
    }
  }
  const cursor = single(query, "cursor");
  if (cursor === undefined) return { limit, after: 0, list, params };
  const refuse = (rule: string): HttpError => unprocessableField("cursor", cursor, rule);
  if (cursor === "") throw refuse("must not be empty: omit it for the first page");
  const reading = codec.decode(account, cursor);
  if (!reading.ok && reading.why === "malformed") {
    throw refuse("is malformed: pass back the previous answer's pagination.nextCursor unchanged");
  }
  if (!reading.ok)
    throw refuse(
      "was not issued to this account by this server (altered, another account's, or from before the emulator restarted)",
    );
  const { claims } = reading;
  if (claims.list !== list) throw refuse(`belongs to another list (${claims.list}), not ${list}`);
  if (claims.params !== params) {
    throw refuse(
      `was issued for other parameters (${describeParams(claims.params)}; this request has ${describeParams(params)}): send the same parameters with it`,
    );
  }
  return { limit, after: claims.after, list, params };
}

/**
 * The page `request` asks for of `items`, in increasing position (the order the list answers in),
 * with the cursor of the next page when there is one. `positionOf` gives each item's position (at
 * least 1, one per item); `issue` makes the cursor that resumes after a position.
 */
export function cutPage<T>(
  items: Iterable<T>,
  positionOf: (item: T, index: number) => number,
  request: PageRequest,
  issue: (after: number) => string,
): Page<T> {
  const rest: { position: number; item: T }[] = [];
  let index = 0;
  for (const item of items) {
    const position = positionOf(item, index++);
    if (position > request.after) rest.push({ position, item });
  }
  // Already in order for a collection's values; a list sorted otherwise is put in position order.
  rest.sort((a, b) => a.position - b.position);
  const page = rest.slice(0, request.limit);
  if (rest.length <= request.limit) return { items: page.map((e) => e.item), pagination: { hasNextPage: false } };
  const nextCursor = issue(page[page.length - 1]!.position);
  return { items: page.map((e) => e.item), pagination: { hasNextPage: true, nextCursor } };
}

/** Pages the v2 lists of one emulator: its cursor key and its default page size (`--page-size`). */
export class ListPager {
  private readonly codec = new CursorCodec();

  constructor(readonly defaultLimit: number = MAX_PAGE_SIZE) {
    if (!Number.isInteger(defaultLimit) || defaultLimit < 1 || defaultLimit > MAX_PAGE_SIZE) {
      throw new Error(`pageSize ${String(defaultLimit)}: must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
    }
  }

  /**
   * The page a list request asks for: `items` in increasing position, each one's position from
   * `positionOf` (a record's `Collection.position`, or its index + 1 in a fixed table).
   */
  page<T>(req: FastifyRequest, items: Iterable<T>, positionOf: (item: T, index: number) => number): Page<T> {
    const account = req.account.userId;
    const request = readPageRequest(
      req.query as RawQuery,
      `GET ${req.url.split("?", 1)[0]!}`,
      account,
      this.codec,
      this.defaultLimit,
    );
    return cutPage(items, positionOf, request, (after) =>
      this.codec.encode(account, { list: request.list, params: request.params, after }),
    );
  }

  /**
   * The answer of a paged list: the page's items rendered under `key` (`pods`, `templates`, ...)
   * and the `pagination` object. Only the page's items are rendered.
   */
  answer<T, R>(
    req: FastifyRequest,
    key: string,
    items: Iterable<T>,
    positionOf: (item: T, index: number) => number,
    render: (item: T) => R,
  ): Record<string, R[] | Pagination> {
    const { items: page, pagination } = this.page(req, items, positionOf);
    return { [key]: page.map(render), pagination };
  }
}

/** The position of a record of `collection` (`Collection.position`). */
export function positionIn<T extends { id: string }>(collection: {
  position(id: string): number | undefined;
}): (item: T) => number {
  return (item) => collection.position(item.id) ?? 0;
}

/** The position of an item of a fixed table (the catalog): its index + 1. */
export const tablePosition = (_item: unknown, index: number): number => index + 1;

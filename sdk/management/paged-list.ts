import type { z } from "zod";
import { ResponseValidationError } from "../errors";
import { validateRequest } from "../request-validation";
import { PageLimitSchema } from "../schemas/v2/common";
import type { CallOptions } from "../transport";

/*
 * Reading management API v2's paged lists to their end. A list answers one page (`limit` items,
 * 1,000 by default) and `pagination: { hasNextPage, nextCursor }`; the next page is the same
 * request, with the same parameters, plus `cursor`. The walk ends on `hasNextPage: false`,
 * whatever `nextCursor` then holds. An answer that says there is a next page without a cursor, or
 * hands back a cursor the walk already followed, would never end: it is a `ResponseValidationError`.
 */

/** One page of a paged list. */
export interface ListPage<T> {
  /** The page's items, in the list's order. */
  items: T[];
  /** Whether another page follows. */
  hasNextPage: boolean;
  /** The cursor of the next page, while there is one: pass it to `pages({ cursor })` to resume there. */
  nextCursor?: string | undefined;
}

/** Options of a paged list read: how many items each page holds. */
export interface PageOptions extends CallOptions {
  /**
   * Items per page, 1 to 1000 (the platform's default, and the largest, is 1000). A smaller page
   * answers sooner and costs more requests for the same list.
   */
  limit?: number | undefined;
}

/** Options of `pages()`: the page size, and the cursor to start from. */
export interface PagesOptions extends PageOptions {
  /**
   * Start at this page: the `nextCursor` of a page read earlier with the same list and the same
   * parameters (the platform refuses a cursor sent with others). Default: the first page.
   */
  cursor?: string | undefined;
}

/** Reads one page: the list's request plus `cursor` (undefined for the first page) and `limit`. */
export type PageReader<T> = (cursor: string | undefined, limit: number | undefined) => Promise<ListPage<T>>;

/**
 * The `limit` of `options`, refused before anything is sent when it is not a whole number from 1
 * to 1000 (a `RequestValidationError` naming `limit`, its value and the rule).
 */
export function pageLimit(options: PageOptions | undefined, context: string): number | undefined {
  const limit = options?.limit;
  return limit === undefined ? undefined : validateRequest(PageLimitSchema, limit, context, "limit");
}

/**
 * Every page of a list, read one after the other as the caller takes them: `read` is called with
 * the previous page's `nextCursor` until a page says `hasNextPage: false`. `path` names the list
 * in errors (`/pods`).
 */
export async function* walkPages<T>(
  read: PageReader<T>,
  path: string,
  options?: PagesOptions,
): AsyncGenerator<ListPage<T>, void, undefined> {
  const limit = pageLimit(options, `list ${path}`);
  const followed = new Set<string>();
  let cursor = options?.cursor;
  for (;;) {
    const page = await read(cursor, limit);
    if (!page.hasNextPage) {
      yield { items: page.items, hasNextPage: false };
      return;
    }
    const next = page.nextCursor;
    if (next === undefined || next === cursor || followed.has(next)) {
      const rule =
        next === undefined
          ? "must be given while hasNextPage is true"
          : "repeats a cursor this list already followed, so the list would never end";
      throw new ResponseValidationError({ method: "GET", path }, 200, [
        { field: "pagination.nextCursor", value: next === undefined ? "undefined" : JSON.stringify(next), rule },
      ]);
    }
    if (cursor !== undefined) followed.add(cursor);
    yield page;
    cursor = next;
  }
}

/** Every item of a list, page after page, as the caller takes them. */
export async function* walkItems<T>(read: PageReader<T>, path: string, options?: PageOptions): AsyncGenerator<T> {
  for await (const page of walkPages(read, path, options)) yield* page.items;
}

/** Every item of a list, read to its end. */
export async function readAllPages<T>(read: PageReader<T>, path: string, options?: PageOptions): Promise<T[]> {
  const all: T[] = [];
  for await (const page of walkPages(read, path, options)) all.push(...page.items);
  return all;
}

/** The schema of one page of a list whose answer holds its items under `key` (see `V2.pagedList`). */
export type PageSchema<T> = z.ZodType<ListPage<T>>;

import { invalidArgument } from "./s3-fault";
import type { ObjectInfo } from "./volume-dir";

/** What a listing asks for, in either version of ListObjects. */
export interface ListingQuery {
  prefix: string;
  delimiter: string;
  maxKeys: number;
  /** Start after this key (a marker, `start-after`, or where a continuation token points). */
  after: string;
}

/** One page of a listing. */
export interface ListingPage {
  contents: ObjectInfo[];
  commonPrefixes: string[];
  truncated: boolean;
  /** The last key or common prefix of the page: where the next page starts after. */
  last: string | undefined;
}

/** `max-keys` (default and largest 1000, as S3). */
export function maxKeysOf(raw: string | undefined): number {
  if (raw === undefined) return 1000;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) throw invalidArgument("max-keys", raw, "must be a whole number");
  return Math.min(n, 1000);
}

/**
 * One page of `objects` (sorted in S3's order): the keys under the prefix after `after`, those
 * holding the delimiter beyond the prefix rolled up into common prefixes, each counting once
 * towards `maxKeys`. A page that ends on a common prefix continues after every key under it.
 */
export function listingPage(objects: readonly ObjectInfo[], q: ListingQuery): ListingPage {
  const page: ListingPage = { contents: [], commonPrefixes: [], truncated: false, last: undefined };
  const rolledUp = q.delimiter !== "" && q.after.endsWith(q.delimiter) ? q.after : undefined;
  for (const object of objects) {
    if (!object.key.startsWith(q.prefix) || compareKeys(object.key, q.after) <= 0) continue;
    if (rolledUp !== undefined && object.key.startsWith(rolledUp)) continue;
    const cut = q.delimiter === "" ? -1 : object.key.indexOf(q.delimiter, q.prefix.length);
    const common = cut < 0 ? undefined : object.key.slice(0, cut + q.delimiter.length);
    if (common !== undefined && common === page.commonPrefixes[page.commonPrefixes.length - 1]) continue;
    if (page.contents.length + page.commonPrefixes.length >= q.maxKeys) {
      page.truncated = true;
      break;
    }
    if (common !== undefined) page.commonPrefixes.push(common);
    else page.contents.push(object);
    page.last = common ?? object.key;
  }
  return page;
}

/** S3's order of keys: by their UTF-8 bytes. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** A continuation token: where the next page starts, opaque to the client. */
export function continuationToken(after: string): string {
  return Buffer.from(after, "utf8").toString("base64url");
}

/** The key a continuation token points after; `InvalidArgument` for one this emulator did not give. */
export function afterToken(token: string): string {
  const after = Buffer.from(token, "base64url").toString("utf8");
  if (continuationToken(after) !== token)
    throw invalidArgument("continuation-token", token, "is not a token this API gave");
  return after;
}

/** A key as an answer with `encoding-type=url` carries it (`/` kept, everything else percent-encoded). */
export function urlEncodeKey(key: string): string {
  return encodeURIComponent(key).replace(/%2F/g, "/");
}

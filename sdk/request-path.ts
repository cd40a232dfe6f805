import type { RequestInfo } from "./errors";

/*
 * Where a request goes, as the transport writes it for undici and for its errors: the origin and
 * path prefix of a base URL, the path and query on that origin, and what an error says of it.
 */

/** A base URL split once into the origin undici dials and the path prefix of every request on it. */
interface SplitBase {
  origin: string;
  /** e.g. `/v2`, or "" for a base without a path. */
  prefix: string;
}
const splitBases = new Map<string, SplitBase>();
/** The origin and path prefix of a base URL (`apiUrl` or `queueUrl`), computed once per base. */
export function splitBase(base: string): SplitBase {
  let split = splitBases.get(base);
  if (split === undefined) {
    const { origin, pathname } = new URL(base);
    // config.ts strips trailing slashes, so the pathname is "/" only for a base without a path.
    split = { origin, prefix: pathname === "/" ? "" : pathname };
    splitBases.set(base, split);
  }
  return split;
}

/**
 * A request's path and query on its origin (`route` after the base's prefix, then `query`'s
 * defined entries, encoded): plain string building, since `new URL` and `searchParams` cost more
 * per call than the rest of the client's own work (bench/RESULTS.md, "Where our client's per-call
 * time goes").
 */
export function requestPath(
  prefix: string,
  route: string,
  query: Readonly<Record<string, unknown>> | undefined,
): string {
  let path = prefix + route;
  if (query) {
    let sep = "?";
    for (const k in query) {
      const v = query[k];
      if (v === undefined) continue;
      path += `${sep}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
      sep = "&";
    }
  }
  return path;
}

/** What errors say about the request: method, and path with query (never the origin, never headers). */
export function requestInfo(req: Pick<RequestInfo, "method">, path: string): RequestInfo {
  return { method: req.method, path };
}

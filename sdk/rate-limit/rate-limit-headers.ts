import { type BareItem, type InnerList, type Item, parseList, Token } from "structured-headers";
import { type HeaderValue, headerValue } from "../headers";

/**
 * Management API v2's rate-limit headers (its OpenAPI's `RateLimitHeader` and
 * `RateLimitPolicyHeader`, after the IETF ratelimit-headers draft): structured-field lists (RFC
 * 9651) with one member per window, e.g.
 * `RateLimit: "minute";r=0;t=12, "hour";r=2800;t=1812` and
 * `RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600`.
 *
 * Parsing never throws: pacing is advice, and a header it cannot read must not fail the call. A
 * field that is not a valid structured list is ignored whole (RFC 9651 §4.2); a member that is
 * not a named item with whole numbers >= 0 for its parameters is skipped; a window named twice
 * keeps its first member.
 */

/** One window's state in a `RateLimit` member. */
export interface QuotaReading {
  /** The window's name, e.g. `minute`. */
  window: string;
  /** Requests left in the window (`r`). */
  remaining: number;
  /** Seconds until the window resets (`t`). */
  resetSeconds: number;
}

/** One window of a `RateLimit-Policy` member. */
export interface QuotaPolicyWindow {
  /** The window's name, e.g. `minute`. */
  window: string;
  /** Requests allowed per window (`q`). */
  quota: number;
  /** The window's length in seconds (`w`). */
  windowSeconds: number;
}

/** Parses `RateLimit`; an empty list when absent or unreadable. */
export function parseRateLimit(value: HeaderValue): QuotaReading[] {
  return namedMembers(value, "r", "t").map(([window, remaining, resetSeconds]) => ({
    window,
    remaining,
    resetSeconds,
  }));
}

/** Parses `RateLimit-Policy`; an empty list when absent or unreadable. */
export function parseRateLimitPolicy(value: HeaderValue): QuotaPolicyWindow[] {
  return namedMembers(value, "q", "w").map(([window, quota, windowSeconds]) => ({ window, quota, windowSeconds }));
}

/** Each member named by a string or token, with both parameters whole numbers >= 0. */
function namedMembers(value: HeaderValue, first: string, second: string): [string, number, number][] {
  const text = headerValue(value, "list") ?? "";
  if (text.trim() === "") return [];
  let list: (Item | InnerList)[];
  try {
    list = parseList(text);
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const members: [string, number, number][] = [];
  for (const [bare, params] of list) {
    const name = memberName(bare);
    const a = params.get(first);
    const b = params.get(second);
    if (name === undefined || seen.has(name) || !isCount(a) || !isCount(b)) continue;
    seen.add(name);
    members.push([name, a, b]);
  }
  return members;
}

function memberName(bare: BareItem | Item[]): string | undefined {
  if (typeof bare === "string") return bare;
  if (bare instanceof Token) return bare.toString();
  // An inner list, a number, bytes, ...: not a window.
  return undefined;
}

function isCount(v: BareItem | undefined): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

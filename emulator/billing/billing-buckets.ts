import type { BillingBucketSize } from "../../sdk/schemas";

/*
 * Time buckets of billing (both OpenAPIs: `bucketSize` hour, day, week, month or year), in UTC,
 * weeks starting on Monday. Windows follow v2's documented rules, which the emulator applies to
 * v1's reads too: `startTime` defaults to 30 days ago and snaps down to its bucket's start;
 * `endTime` defaults to now and snaps up to its bucket's end unless on a boundary; `lastN` is the
 * last N buckets ending with the current one. Pure functions of epoch milliseconds.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Most buckets one answer may span (a guard against `bucketSize=hour` over years). */
export const MAX_BUCKETS = 10_000;

/** The start of the bucket holding `ms`. */
export function bucketStart(ms: number, size: BillingBucketSize): number {
  const d = new Date(ms);
  switch (size) {
    case "hour":
      return Math.floor(ms / HOUR) * HOUR;
    case "day":
      return Math.floor(ms / DAY) * DAY;
    case "week": {
      const day = Math.floor(ms / DAY) * DAY;
      const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
      return day - weekday * DAY;
    }
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case "year":
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, size: BillingBucketSize): number {
  const d = new Date(start);
  switch (size) {
    case "hour":
      return start + HOUR;
    case "day":
      return start + DAY;
    case "week":
      return start + 7 * DAY;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case "year":
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

/** The start of the bucket `n` buckets before the one starting at `start`. */
function bucketsBack(start: number, size: BillingBucketSize, n: number): number {
  const d = new Date(start);
  switch (size) {
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1);
    case "year":
      return Date.UTC(d.getUTCFullYear() - n, 0, 1);
    default:
      return start - n * (nextBucket(start, size) - start);
  }
}

/** A resolved half-open window `[start, end)` on bucket boundaries. */
export interface BillingWindow {
  start: number;
  end: number;
  bucketSize: BillingBucketSize;
}

/** What a query asks of the window (epoch ms). */
export interface WindowQuery {
  bucketSize: BillingBucketSize;
  startTime?: number | undefined;
  endTime?: number | undefined;
  lastN?: number | undefined;
}

/** The window a query names, on bucket boundaries, at platform time `now`. */
export function resolveWindow(q: WindowQuery, now: number): BillingWindow {
  const size = q.bucketSize;
  if (q.lastN !== undefined) {
    const end = nextBucket(bucketStart(now, size), size);
    return { start: bucketsBack(bucketStart(now, size), size, q.lastN - 1), end, bucketSize: size };
  }
  const start = bucketStart(q.startTime ?? now - 30 * DAY, size);
  const rawEnd = q.endTime ?? now;
  const endBucket = bucketStart(rawEnd, size);
  const end = endBucket === rawEnd ? rawEnd : nextBucket(endBucket, size);
  return { start, end: Math.max(end, start), bucketSize: size };
}

/** How many buckets a window spans. */
export function bucketCount(window: BillingWindow): number {
  let n = 0;
  for (let t = window.start; t < window.end && n <= MAX_BUCKETS; t = nextBucket(t, window.bucketSize)) n++;
  return n;
}

/** The buckets of a window, in order: `[start, end)` each. */
export function bucketsOf(window: BillingWindow): [number, number][] {
  const out: [number, number][] = [];
  for (let t = window.start; t < window.end;) {
    const next = nextBucket(t, window.bucketSize);
    out.push([t, next]);
    t = next;
  }
  return out;
}

/** Milliseconds of `[from, to)` inside a segment `[start, end ?? now)`. */
export function overlapMs(
  segment: { start: number; end?: number | undefined },
  from: number,
  to: number,
  now: number,
): number {
  const end = segment.end ?? now;
  return Math.max(0, Math.min(end, to) - Math.max(segment.start, from));
}

/** An RFC 3339 time without milliseconds (`2026-06-01T00:00:00Z`), as both OpenAPIs' examples write it. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

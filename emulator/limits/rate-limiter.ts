import { effectiveRateLimit } from "../../sdk/schemas/rate-limits";
import type { EmulatorClock } from "../clock/clock";
import {
  DEFAULT_REQUESTS_PER_WORKER,
  RATE_LIMITS,
  RATE_WINDOW_MS,
  type RateLimitedOperation,
} from "./rate-limit-table";

/** Rate limiting settings (`rateLimits` option of `startEmulator`). */
export interface RateLimitSettings {
  /** Default true; `--no-rate-limits` turns it off. */
  enabled: boolean;
  /** Scales every base limit of the table (e.g. 0.01 to hit limits quickly in tests); default 1. */
  multiplier: number;
  /** `requests_per_worker` of the dynamic rule; default 10. */
  requestsPerWorker: number;
}

/** Default settings: the platform's table as is. */
export const DEFAULT_RATE_LIMIT_SETTINGS: RateLimitSettings = {
  enabled: true,
  multiplier: 1,
  requestsPerWorker: DEFAULT_REQUESTS_PER_WORKER,
};

/** Counters of one (account, endpoint, operation). */
export interface RateBucket {
  windowStart: number;
  count: number;
  inFlight: number;
}

/** The outcome of a check: a bucket to release when the request ends, or a refusal. */
export type RateDecision =
  { ok: true; bucket: RateBucket | undefined } | { ok: false; retryAfterSeconds: number; message: string };

const ALLOWED_UNTRACKED: RateDecision = { ok: true, bucket: undefined };

/**
 * The platform's rate limits, per endpoint and per user: a fixed 10 s window on the emulator clock
 * for the rate, a counter of requests in flight for the concurrency column, and the dynamic rule
 * raising the rate with the number of running workers.
 */
export class RateLimiter {
  constructor(
    private readonly clock: EmulatorClock,
    readonly settings: RateLimitSettings,
  ) {}

  /** Counts a request; refuses it when the window's limit or the concurrency limit is reached. */
  acquire(
    buckets: Map<string, RateBucket>,
    endpointId: string,
    op: RateLimitedOperation,
    runningWorkers: number,
  ): RateDecision {
    if (!this.settings.enabled) return ALLOWED_UNTRACKED;
    const key = `${endpointId}\u0000${op}`;
    let bucket = buckets.get(key);
    const now = this.clock.now();
    const windowStart = now - (now % RATE_WINDOW_MS);
    if (!bucket) {
      bucket = { windowStart, count: 0, inFlight: 0 };
      buckets.set(key, bucket);
    } else if (bucket.windowStart !== windowStart) {
      bucket.windowStart = windowStart;
      bucket.count = 0;
    }
    const row = RATE_LIMITS[op];
    const { multiplier, requestsPerWorker } = this.settings;
    const base = Math.max(1, Math.floor(row.perWindow * multiplier));
    const limit = effectiveRateLimit(base, runningWorkers, requestsPerWorker);
    if (bucket.count >= limit) {
      return {
        ok: false,
        retryAfterSeconds: this.secondsUntil(windowStart + RATE_WINDOW_MS),
        message: `rate limit exceeded: /${op} allows ${limit} requests per 10 s on endpoint ${endpointId}`,
      };
    }
    if (row.concurrent !== undefined) {
      const concurrent = Math.max(1, Math.floor(row.concurrent * multiplier));
      if (bucket.inFlight >= concurrent) {
        return {
          ok: false,
          retryAfterSeconds: 1,
          message: `concurrency limit exceeded: /${op} allows ${concurrent} requests in flight on endpoint ${endpointId}`,
        };
      }
      bucket.inFlight++;
    }
    bucket.count++;
    return row.concurrent === undefined ? ALLOWED_UNTRACKED : { ok: true, bucket };
  }

  /**
   * `Retry-After` for a refusal until platform time `at`: in real seconds, since that is the
   * clock the client waits on (with `--time-scale 10` the 10 s window passes in 1 real second),
   * rounded up to a whole second as the header's delta-seconds form requires, at least 1. On a
   * manual clock, which moves only when told, the platform seconds themselves.
   */
  private secondsUntil(at: number): number {
    const realMs = this.clock.realDelayUntil(at) ?? at - this.clock.now();
    return Math.max(1, Math.ceil(realMs / 1000));
  }

  /** Ends a request counted by `acquire`. */
  release(bucket: RateBucket): void {
    bucket.inFlight--;
  }
}

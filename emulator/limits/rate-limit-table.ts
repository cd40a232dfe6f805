/** Operations the spec's rate-limit table names (`/openai/*` and `/requests` are not served by the emulator). */
export type RateLimitedOperation = "runsync" | "run" | "status" | "stream" | "cancel" | "purge-queue";

/** One row of the table: requests per window, and requests in flight at once (`undefined`: not applicable). */
export interface RateLimit {
  perWindow: number;
  concurrent: number | undefined;
}

/** The window of every rate in the table: 10 seconds, on the emulator clock. */
export const RATE_WINDOW_MS = 10_000;

/** Spec "Rate limits (per endpoint, per user)". `status-sync` (used by the official JS SDK) counts as `/status`. */
export const RATE_LIMITS: Readonly<Record<RateLimitedOperation, RateLimit>> = {
  runsync: { perWindow: 2000, concurrent: 400 },
  run: { perWindow: 1000, concurrent: 200 },
  status: { perWindow: 2000, concurrent: 400 },
  stream: { perWindow: 2000, concurrent: 400 },
  cancel: { perWindow: 100, concurrent: 20 },
  "purge-queue": { perWindow: 2, concurrent: undefined },
};

/**
 * `requests_per_worker` of the spec's dynamic rule, which the spec leaves open: each running
 * worker allows this many requests per window and operation (effective limit =
 * max(base limit, running workers x requests per worker)).
 */
export const DEFAULT_REQUESTS_PER_WORKER = 10;

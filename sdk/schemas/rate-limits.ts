/**
 * The platform's rate limits (docs/platform.md "Rate limits"), in one place: the client's
 * pacing (sdk/jobs/) starts from them and the emulator's limiter (emulator/limits/) enforces them.
 */

/** Job operations the platform's rate-limit table names (`openai` is every call under `/openai/`). */
export type RateLimitedOperation =
  "runsync" | "run" | "status" | "stream" | "cancel" | "purge-queue" | "openai" | "requests";

/** One row of the table: requests per window, and requests in flight at once (`undefined`: not applicable). */
export interface RateLimit {
  perWindow: number;
  concurrent: number | undefined;
}

/** The window of every rate in the table: 10 seconds. */
export const RATE_WINDOW_MS = 10_000;

/**
 * The table itself. `status-sync` (used by the official JS SDK) counts as `/status`. The table
 * names `/openai/*` with POST; its `GET /openai/v1/models` is counted in the same row.
 */
export const RATE_LIMITS: Readonly<Record<RateLimitedOperation, RateLimit>> = {
  runsync: { perWindow: 2000, concurrent: 400 },
  run: { perWindow: 1000, concurrent: 200 },
  status: { perWindow: 2000, concurrent: 400 },
  stream: { perWindow: 2000, concurrent: 400 },
  cancel: { perWindow: 100, concurrent: 20 },
  "purge-queue": { perWindow: 2, concurrent: undefined },
  openai: { perWindow: 2000, concurrent: 400 },
  requests: { perWindow: 10, concurrent: 2 },
};

/**
 * The platform's dynamic rule: the effective limit per window is the higher of the table's base
 * limit and running workers x `requests_per_worker` (a value the platform's documentation does not
 * give).
 */
export function effectiveRateLimit(base: number, runningWorkers: number, requestsPerWorker: number): number {
  return Math.max(base, runningWorkers * requestsPerWorker);
}

export { RATE_LIMITS, RATE_WINDOW_MS, type RateLimit, type RateLimitedOperation } from "../../sdk/schemas/rate-limits";

/**
 * `requests_per_worker` of the platform's dynamic rule, which the platform's documentation leaves
 * open: each running worker allows this many requests per window and operation (effective limit =
 * max(base limit, running workers x requests per worker)).
 */
export const DEFAULT_REQUESTS_PER_WORKER = 10;

import { type HeaderValue, headerValue } from "./headers";

/**
 * When to retry a request, and how long to wait. Pure functions: the transport feeds them what
 * happened; tests feed them tables.
 *
 * Which operations are safe to repeat (`idempotent`):
 * - GET, DELETE, PATCH and `POST .../update`: repeating them leaves the same state (an update
 *   sets absolute values; a second delete answers 404, which callers treat as gone).
 * - `POST /cancel/<id>`: cancelling a cancelled job changes nothing.
 * - NOT idempotent: `POST /networkvolumes`, `POST /endpoints` (a repeat creates a second paid
 *   resource), `POST /templates` and `POST /containerregistryauth` (a repeat creates a second
 *   one, or is refused for its taken name, hiding that the first took effect), `POST /run` and
 *   `/runsync` (a repeat submits a second job), `POST /retry/<id>` and `POST /purge-queue` (a
 *   repeat acts on jobs queued since).
 *
 * A refusal that certainly did not take effect (429, 502, 503, 504, or a connection that never
 * opened) is retried for every operation. A failure after the request may have reached the
 * server (500 and other 5xx, a dropped connection, a timeout) is retried only for idempotent
 * operations; for the others the error reaches the caller, who can look the result up (the
 * provider finds a lost create by its unique name) instead of blindly creating twice.
 */

/** What one attempt ended with. */
export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfterMs?: number | undefined }
  | { kind: "connection"; maybeDelivered: boolean }
  | { kind: "timeout" };

/** Limits of the retry loop. */
export interface RetryLimits {
  maxAttempts: number;
  budgetMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Where the loop stands after an attempt. */
export interface RetryState {
  /** Attempts made so far, the failed one included (1 after the first). */
  attempt: number;
  /** Time spent since the first attempt started, in ms. */
  elapsedMs: number;
  /** Whether repeating the operation is harmless. */
  idempotent: boolean;
}

/** The decision: stop (with the reason, for logs and tests) or wait `delayMs` and try again. */
export type RetryDecision = { retry: false; reason: string } | { retry: true; delayMs: number };

/**
 * Statuses that refuse the request without acting on it, so every operation may repeat it:
 * 429 (rate limited) and the gateway statuses 502, 503 and 504 (the request did not reach, or
 * was turned away before, the application).
 */
const REFUSED_STATUSES = new Set([429, 502, 503, 504]);

/** Whether the outcome is worth another attempt, ignoring limits. */
export function isRetryable(outcome: AttemptOutcome, idempotent: boolean): boolean {
  switch (outcome.kind) {
    case "response":
      if (REFUSED_STATUSES.has(outcome.status)) return true;
      // Any other 5xx may come after the operation took effect.
      return outcome.status >= 500 && idempotent;
    case "connection":
      return !outcome.maybeDelivered || idempotent;
    case "timeout":
      return idempotent;
  }
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(attempt-1))]. */
export function backoffDelay(
  attempt: number,
  limits: Pick<RetryLimits, "baseDelayMs" | "maxDelayMs">,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Decides whether to retry after a failed attempt. */
export function retryDecision(
  outcome: AttemptOutcome,
  state: RetryState,
  limits: RetryLimits,
  random: () => number = Math.random,
): RetryDecision {
  if (!isRetryable(outcome, state.idempotent)) return { retry: false, reason: "not retryable" };
  if (state.attempt >= limits.maxAttempts) return { retry: false, reason: `gave up after ${state.attempt} attempts` };
  const hinted = outcome.kind === "response" ? outcome.retryAfterMs : undefined;
  // The server's hint wins over our own schedule, but never beyond the largest step we accept.
  const delayMs =
    hinted !== undefined ? Math.min(hinted, limits.maxDelayMs) : backoffDelay(state.attempt, limits, random);
  if (state.elapsedMs + delayMs > limits.budgetMs)
    return { retry: false, reason: `retry budget of ${limits.budgetMs} ms spent` };
  return { retry: true, delayMs };
}

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into ms; undefined when absent or invalid.
 */
export function parseRetryAfter(value: HeaderValue, now: number = Date.now()): number | undefined {
  const raw = headerValue(value, "single");
  if (raw === undefined || raw.trim() === "") return undefined;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

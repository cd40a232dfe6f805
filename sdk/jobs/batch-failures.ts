import {
  APIError,
  AuthenticationError,
  ConnectionError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
} from "../errors";

/**
 * What a failed request of a batch means for its input: pure functions with a test per case.
 *
 * - `rate-limited`: a 429; the platform did nothing; send again after `retryAfterMs`, and tell
 *   the pacer.
 * - `not-delivered`: refused before it acted (502, 503, 504) or never sent (the connection did
 *   not open): send again, it cannot run twice.
 * - `maybe-delivered`: it may have acted and its answer is lost (a connection dropped after
 *   sending, a timeout, another 5xx, a 2xx whose body we cannot read). For `/run` that is the
 *   "outcome unknown" of at-most-once delivery; for an idempotent read, a reason to read again.
 * - `fatal`: no request of the batch can succeed (401: the key; 403: a scope the key lacks; 404
 *   on `/run`: no such endpoint).
 * - `rejected`: this request is wrong and will stay wrong (400, 413, any other 4xx).
 */
export type FailureKind = "rate-limited" | "not-delivered" | "maybe-delivered" | "fatal" | "rejected";

/** Statuses that refuse a request before it acts (see retry-policy.ts). */
const GATEWAY_REFUSALS = new Set([502, 503, 504]);

/** Classifies a failed `/run`. */
export function classifySubmitFailure(error: unknown): FailureKind {
  if (error instanceof RateLimitError) return "rate-limited";
  if (error instanceof AuthenticationError || error instanceof ForbiddenError || error instanceof NotFoundError)
    return "fatal";
  if (error instanceof APIError) {
    if (GATEWAY_REFUSALS.has(error.status)) return "not-delivered";
    return error.status >= 500 ? "maybe-delivered" : "rejected";
  }
  if (error instanceof ConnectionError) return error.maybeDelivered ? "maybe-delivered" : "not-delivered";
  if (error instanceof TimeoutError || error instanceof ResponseValidationError) return "maybe-delivered";
  return "rejected";
}

/**
 * Classifies a failed read of a job (`/status`, `/stream`): reads are idempotent, so anything
 * transient is `maybe-delivered` (read again); a 404 is `rejected` (the job is gone: expired,
 * purged, or never ours) and a 401 or 403 `fatal`.
 */
export function classifyReadFailure(error: unknown): FailureKind {
  if (error instanceof RateLimitError) return "rate-limited";
  if (error instanceof AuthenticationError || error instanceof ForbiddenError) return "fatal";
  if (error instanceof NotFoundError) return "rejected";
  if (error instanceof APIError) {
    if (GATEWAY_REFUSALS.has(error.status)) return "not-delivered";
    return error.status >= 500 ? "maybe-delivered" : "rejected";
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) return "maybe-delivered";
  return "rejected";
}

/** The server's `Retry-After` hint of a 429, in ms, when it sent one. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof APIError ? error.retryAfterMs : undefined;
}

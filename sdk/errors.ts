import type { FieldProblem } from "./schemas/validation";
import { describeProblems } from "./schemas/validation";

/** Stable, machine-readable error codes. Match on these, not on classes or messages. */
export type RunpodErrorCode =
  | "bad_request"
  | "unauthorized"
  | "not_found"
  | "payload_too_large"
  | "rate_limited"
  | "server_error"
  | "api_error"
  | "connection_error"
  | "timeout"
  | "aborted"
  | "invalid_response"
  | "invalid_request"
  | "configuration_error";

/** What is known of the request an error belongs to. Never holds headers, so never the API key. */
export interface RequestInfo {
  method: string;
  /** Path and query of the request, e.g. `/v1/networkvolumes/abc`. */
  path: string;
}

/** Root of every error this package throws. */
export class RunpodError extends Error {
  override name = "RunpodError";
  constructor(
    readonly code: RunpodErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The platform answered with a non-success status. */
export class APIError extends RunpodError {
  override name = "APIError";
  /** HTTP status code. */
  readonly status: number;
  readonly method: string;
  readonly path: string;
  /** The platform's own message, when it sent one. */
  readonly platformMessage: string | undefined;
  /** The platform's request id (`x-request-id` header or body `requestId`), when present. */
  readonly requestId: string | undefined;

  constructor(
    code: RunpodErrorCode,
    status: number,
    request: RequestInfo,
    platformMessage: string | undefined,
    requestId: string | undefined,
  ) {
    const detail = platformMessage ? `: ${platformMessage}` : "";
    const rid = requestId ? ` (request id ${requestId})` : "";
    super(code, `${request.method} ${request.path} failed with ${status}${detail}${rid}`);
    this.status = status;
    this.method = request.method;
    this.path = request.path;
    this.platformMessage = platformMessage;
    this.requestId = requestId;
  }

  /** Picks the subclass for a status (400, 401, 404, 413, 429, 5xx). */
  static fromResponse(
    status: number,
    request: RequestInfo,
    platformMessage: string | undefined,
    requestId: string | undefined,
    retryAfterMs?: number,
  ): APIError {
    switch (status) {
      case 400:
        return new BadRequestError(status, request, platformMessage, requestId);
      case 401:
        return new AuthenticationError(status, request, platformMessage, requestId);
      case 404:
        return new NotFoundError(status, request, platformMessage, requestId);
      case 413:
        return new PayloadTooLargeError(status, request, platformMessage, requestId);
      case 429:
        return new RateLimitError(status, request, platformMessage, requestId, retryAfterMs);
      default:
        if (status >= 500) return new InternalServerError(status, request, platformMessage, requestId);
        return new APIError("api_error", status, request, platformMessage, requestId);
    }
  }
}

type ApiCtorArgs = [
  status: number,
  request: RequestInfo,
  platformMessage: string | undefined,
  requestId: string | undefined,
];

/** 400: the request's format or parameters are wrong. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
  constructor(...a: ApiCtorArgs) {
    super("bad_request", ...a);
  }
}
/** 401: the API key is missing, wrong, or lacks permission. */
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
  constructor(...a: ApiCtorArgs) {
    super("unauthorized", ...a);
  }
}
/** 404: unknown id, or a job whose TTL or retention expired. */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
  constructor(...a: ApiCtorArgs) {
    super("not_found", ...a);
  }
}
/** 413: the payload is over the documented limit. */
export class PayloadTooLargeError extends APIError {
  override name = "PayloadTooLargeError";
  constructor(...a: ApiCtorArgs) {
    super("payload_too_large", ...a);
  }
}
/** 429: rate limited; `retryAfterMs` carries the server's `Retry-After` hint. */
export class RateLimitError extends APIError {
  override name = "RateLimitError";
  constructor(
    status: number,
    request: RequestInfo,
    platformMessage: string | undefined,
    requestId: string | undefined,
    readonly retryAfterMs?: number,
  ) {
    super("rate_limited", status, request, platformMessage, requestId);
  }
}
/** 5xx: the platform or a worker failed. */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
  constructor(...a: ApiCtorArgs) {
    super("server_error", ...a);
  }
}

/** The connection failed or was dropped before a complete answer arrived. */
export class ConnectionError extends RunpodError {
  override name = "ConnectionError";
  constructor(
    readonly request: RequestInfo,
    /** True when the request may have reached the server (so a non-idempotent call may have taken effect). */
    readonly maybeDelivered: boolean,
    cause?: unknown,
  ) {
    const why = cause instanceof Error ? `: ${cause.message}` : "";
    super("connection_error", `${request.method} ${request.path}: connection failed${why}`, { cause });
  }
}

/** No answer arrived within the per-request timeout. */
export class TimeoutError extends RunpodError {
  override name = "TimeoutError";
  constructor(
    readonly request: RequestInfo,
    readonly timeoutMs: number,
  ) {
    super("timeout", `${request.method} ${request.path}: no answer within ${timeoutMs} ms`);
  }
}

/** The caller's AbortSignal fired. */
export class AbortError extends RunpodError {
  override name = "AbortError";
  constructor(readonly request: RequestInfo) {
    super("aborted", `${request.method} ${request.path}: aborted by the caller`);
  }
}

/** The platform answered 2xx with a body that does not match the documented shape. */
export class ResponseValidationError extends RunpodError {
  override name = "ResponseValidationError";
  constructor(
    readonly request: RequestInfo,
    readonly status: number,
    readonly problems: readonly FieldProblem[],
  ) {
    super(
      "invalid_response",
      `${request.method} ${request.path}: unexpected response body (${describeProblems(problems)})`,
    );
  }
}

/** A request was refused before sending: a field is out of bounds or the payload too large. */
export class RequestValidationError extends RunpodError {
  override name = "RequestValidationError";
  constructor(
    readonly problems: readonly FieldProblem[],
    context?: string,
  ) {
    super("invalid_request", `${context ? `${context}: ` : ""}${describeProblems(problems)}`);
  }
}

/** The client is not configured well enough to send anything (e.g. no API key). */
export class ConfigurationError extends RunpodError {
  override name = "ConfigurationError";
  constructor(message: string) {
    super("configuration_error", message);
  }
}

import type { FieldProblem } from "./schemas/validation";
import { describeProblems } from "./schemas/validation";

/** Stable, machine-readable error codes. Match on these, not on classes or messages. */
export type RunpodErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
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
  | "configuration_error"
  | "unsupported_operation";

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

/** The code of an answer's HTTP status: the one place a status becomes a code. */
export function apiErrorCode(status: number): RunpodErrorCode {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 413:
      return "payload_too_large";
    case 429:
      return "rate_limited";
    default:
      return status >= 500 ? "server_error" : "api_error";
  }
}

/**
 * An RFC 9457 problem answer (`application/problem+json`), as management API v2 sends its errors:
 * a short `title`, the `detail` of this occurrence, and `errors`, one message per invalid field.
 */
export interface ProblemDetails {
  /** Short summary of the kind of problem, e.g. `Not Found`. */
  title?: string | undefined;
  /** What went wrong with this request. */
  detail?: string | undefined;
  /** Individual request-validation failures, e.g. `$.size: must be >= 10`. */
  errors?: readonly string[] | undefined;
}

/**
 * The platform answered with a non-success status. Its `code` follows from the status: 400
 * `bad_request`, 401 `unauthorized`, 403 `forbidden`, 404 `not_found`, 413 `payload_too_large`,
 * 429 `rate_limited`, 5xx `server_error`, any other `api_error`.
 */
export class APIError extends RunpodError {
  override name = "APIError";
  /** HTTP method of the request. */
  readonly method: string;
  /** Path and query of the request. */
  readonly path: string;

  constructor(
    /** HTTP status code. */
    readonly status: number,
    request: RequestInfo,
    /** The platform's own message, when it sent one (a v2 problem's `detail`, else its `title`). */
    readonly platformMessage: string | undefined,
    /** The platform's request id (`x-request-id` header or body `requestId`), when present. */
    readonly requestId: string | undefined,
    /** The server's `Retry-After` hint in ms, when it sent one (429s, some 503s). */
    readonly retryAfterMs?: number,
    /** The problem answer's fields, when the platform sent one (management API v2). */
    readonly problem?: ProblemDetails,
  ) {
    const detail = platformMessage ? `: ${platformMessage}` : "";
    const errors = problem?.errors?.length ? ` (${problem.errors.join("; ")})` : "";
    const rid = requestId ? ` (request id ${requestId})` : "";
    super(apiErrorCode(status), `${request.method} ${request.path} failed with ${status}${detail}${errors}${rid}`);
    this.method = request.method;
    this.path = request.path;
  }

  /** The problem's `title`, when the answer was a problem object. */
  get title(): string | undefined {
    return this.problem?.title;
  }

  /** The problem's `errors` list (one message per invalid field), empty when there was none. */
  get errors(): readonly string[] {
    return this.problem?.errors ?? [];
  }

  /** The error for an answer's status: the subclass of its code (400, 401, 403, 404, 413, 429, 5xx), else an `APIError`. */
  static fromResponse(
    status: number,
    request: RequestInfo,
    platformMessage: string | undefined,
    requestId: string | undefined,
    retryAfterMs?: number,
    problem?: ProblemDetails,
  ): APIError {
    const ErrorClass = API_ERROR_CLASSES[apiErrorCode(status)] ?? APIError;
    return new ErrorClass(status, request, platformMessage, requestId, retryAfterMs, problem);
  }
}

/** 400: the request's format or parameters are wrong. */
export class BadRequestError extends APIError {
  override name = "BadRequestError";
}
/** 401: the API key is missing or wrong. */
export class AuthenticationError extends APIError {
  override name = "AuthenticationError";
}
/** 403: the key is valid but may lack the operation's scope (`<resource>:read` or `:write`); the message names the operation. */
export class ForbiddenError extends APIError {
  override name = "ForbiddenError";
  constructor(...args: ConstructorParameters<typeof APIError>) {
    super(...args);
    this.message +=
      `: the API key may lack the scope ${this.method} ${this.path} needs ` +
      "(scopes are <resource>:read or <resource>:write, e.g. pods:write, chosen when the key is created)";
  }
}
/** 404: unknown id, or a job whose TTL or retention expired. */
export class NotFoundError extends APIError {
  override name = "NotFoundError";
}
/** 413: the payload is over the documented limit. */
export class PayloadTooLargeError extends APIError {
  override name = "PayloadTooLargeError";
}
/** 429: rate limited; `retryAfterMs` carries the server's `Retry-After` hint. */
export class RateLimitError extends APIError {
  override name = "RateLimitError";
}
/** 5xx: the platform or a worker failed. */
export class InternalServerError extends APIError {
  override name = "InternalServerError";
}

/** The subclass of each status code's error. */
const API_ERROR_CLASSES: Partial<Record<RunpodErrorCode, typeof APIError>> = {
  bad_request: BadRequestError,
  unauthorized: AuthenticationError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  payload_too_large: PayloadTooLargeError,
  rate_limited: RateLimitError,
  server_error: InternalServerError,
};

/**
 * A management request on API v2 was not sent: a window of the account's rate limit (per the
 * platform's `RateLimit` headers) is spent, or a 429's `Retry-After` holds every request, until
 * after the request's retry budget (`retryBudgetMs`) runs out. Same code as a 429
 * (`rate_limited`); nothing reached the platform.
 */
export class QuotaExhaustedError extends RunpodError {
  override name = "QuotaExhaustedError";
  constructor(
    readonly request: RequestInfo,
    /** The spent window's name, e.g. `minute`; undefined when a 429's `Retry-After` holds requests. */
    readonly window: string | undefined,
    /** The window's quota, when the platform said it (`RateLimit-Policy`). */
    readonly quota: number | undefined,
    /** How long until requests may go again, in ms. */
    readonly retryAfterMs: number,
    /** What was left of the retry budget, in ms. */
    readonly budgetLeftMs: number,
  ) {
    const of = quota === undefined ? "" : ` of ${quota} requests`;
    const why =
      window === undefined
        ? "the platform's Retry-After holds requests"
        : `the account's ${window} quota${of} is spent`;
    super(
      "rate_limited",
      `${request.method} ${request.path}: not sent: ${why} for ${Math.ceil(retryAfterMs / 1000)} s more, beyond this ` +
        `request's retry budget (${Math.max(0, Math.round(budgetLeftMs))} ms left; raise retryBudgetMs to wait longer)`,
    );
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

/**
 * An operation, or a field of its input, that the management API version this client talks does
 * not have (a pod reset on v2, a storage tier on v1). Nothing was sent; the message names the
 * operation (or field), the version that has it, and how to select that version.
 */
export class UnsupportedOperationError extends RunpodError {
  override name = "UnsupportedOperationError";
  constructor(
    /** What is not available, e.g. `pods.reset` or `networkVolumes.create: type`. */
    readonly operation: string,
    /** The version the client talks. */
    readonly version: "v1" | "v2",
    /** Why, or what to do instead. */
    readonly hint?: string,
  ) {
    const other = version === "v1" ? "v2" : "v1";
    super(
      "unsupported_operation",
      `${operation} is not available on management API ${version} (only on ${other}); this client talks ${version} because its apiUrl ends in /${version}${hint ? `: ${hint}` : ""}`,
    );
  }
}

/** The client is not configured well enough to send anything (e.g. no API key). */
export class ConfigurationError extends RunpodError {
  override name = "ConfigurationError";
  constructor(message: string) {
    super("configuration_error", message);
  }
}

import type { RunpodErrorCode } from "../errors";
import { S3Error, type S3RequestInfo } from "./s3-errors";
import type { ResolvedS3Settings } from "./s3-settings";

/** What the AWS SDK's errors carry that matters here. */
interface SdkError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

const TRANSIENT_CODES = new Set([
  "InternalError",
  "ServiceUnavailable",
  "SlowDown",
  "RequestTimeout",
  "RequestTimeoutException",
  "TimeoutError",
]);
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
]);
const KEY_REFUSED = new Set([
  "SignatureDoesNotMatch",
  "InvalidAccessKeyId",
  "AccessDenied",
  "Forbidden",
  "InvalidToken",
]);

const statusOf = (error: SdkError) => error.$metadata?.httpStatusCode;

/**
 * Whether a failure is worth another attempt: the platform's documented 502s during transfer and
 * other 5xx answers (500, 502, 503, 504; not 501, a refused operation), S3's transient codes, and
 * connections that broke or timed out.
 */
export function isTransient(error: unknown): boolean {
  const e = error as SdkError;
  const status = statusOf(e);
  if (status !== undefined && [500, 502, 503, 504].includes(status)) return true;
  if (e.name !== undefined && TRANSIENT_CODES.has(e.name)) return true;
  return e.code !== undefined && NETWORK_CODES.has(e.code);
}

function codeOf(s3Code: string | undefined, status: number | undefined): RunpodErrorCode {
  if (s3Code && KEY_REFUSED.has(s3Code)) return "unauthorized";
  // A 403 too, but the machine's clock is at fault, not the key.
  if (s3Code === "RequestTimeTooSkewed") return "api_error";
  if (status === 404 || s3Code === "NoSuchBucket" || s3Code === "NoSuchKey" || s3Code === "NoSuchUpload")
    return "not_found";
  if (status === 501 || s3Code === "NotImplemented") return "unsupported_operation";
  if (s3Code === "EntityTooLarge" || s3Code === "QuotaExceeded") return "payload_too_large";
  if (status === 400) return "bad_request";
  if (status !== undefined && status >= 500) return "server_error";
  if (status === 403) return "unauthorized";
  return "api_error";
}

/**
 * The client's error for a failed S3 request: what it means in the platform's terms. A refused
 * signature or key reads "the S3 key was refused", never the service's XML; no secret is ever in it.
 */
export function toS3Error(error: unknown, request: S3RequestInfo, attempts = 1): S3Error {
  if (error instanceof S3Error) return error;
  const e = error as SdkError;
  const where = `${request.operation} on ${request.dataCenterId}${request.volumeId ? ` volume ${request.volumeId}` : ""}${request.key !== undefined ? ` key ${JSON.stringify(request.key)}` : ""}`;
  const tries = attempts > 1 ? ` (after ${attempts} attempts)` : "";
  if (e.name === "AbortError")
    return new S3Error("aborted", `${where}: aborted by the caller`, request, undefined, undefined, { cause: error });
  const status = statusOf(e);
  if (status === undefined) {
    const timeout = e.name === "TimeoutError" || e.code === "ETIMEDOUT";
    const why = e.message ? `: ${e.message}` : "";
    return new S3Error(
      timeout ? "timeout" : "connection_error",
      `${where}: ${timeout ? "no answer in time" : "connection failed"}${why}${tries}`,
      request,
      undefined,
      undefined,
      { cause: error },
    );
  }
  // HEAD answers carry no body: the SDK names their errors after the status (NotFound, Forbidden).
  const named = e.name && e.name !== "Error" && e.name !== "UnknownError" ? e.name : undefined;
  const s3Code = status === 404 && request.operation === "HeadBucket" ? "NoSuchBucket" : named;
  const code = codeOf(s3Code, status);
  const said = s3Code
    ? ` (${s3Code}${e.message && e.message !== s3Code && !e.message.startsWith("<") ? `: ${e.message}` : ""})`
    : ` (HTTP ${status})`;
  let meaning: string;
  if (code === "unauthorized") {
    meaning = `the S3 key was refused${request.accessKeyId ? ` (access key id ${JSON.stringify(request.accessKeyId)})` : ""}: check the S3 access key id and secret (an S3 API key from the console, not the RunPod API key)`;
  } else if (s3Code === "RequestTimeTooSkewed") {
    meaning = "the S3 API refused the request's time: this machine's clock is more than an hour off";
  } else if (s3Code === "NoSuchBucket") {
    meaning = `network volume ${request.volumeId ?? "(none)"} is not a volume of this account in data center ${request.dataCenterId}`;
  } else if (s3Code === "AuthorizationHeaderMalformed") {
    meaning = `the S3 API of ${request.dataCenterId} refused how the request was signed (its region must be the data center id)`;
  } else {
    meaning = `failed with ${status}`;
  }
  return new S3Error(code, `${where}: ${meaning}${said}${tries}`, request, s3Code, status, { cause: error });
}

/** Waits `ms`, or rejects as aborted when `signal` fires first. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, a failure is not transient, or `maxAttempts` is spent, with
 * full-jitter exponential backoff between attempts. Each attempt builds its own request (a body
 * is a fresh stream from disk), so every S3 call, bodies included, is retried here rather than by
 * the AWS SDK, which cannot rewind a stream.
 */
export async function withRetries<T>(
  settings: ResolvedS3Settings,
  request: S3RequestInfo,
  attempt: (n: number) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (signal?.aborted || n >= settings.maxAttempts || !isTransient(error)) throw toS3Error(error, request, n);
      const step = Math.min(settings.retryMaxDelayMs, settings.retryBaseDelayMs * 2 ** (n - 1));
      await pause(settings.random() * step, signal).catch((abort: unknown) => {
        throw toS3Error(abort, request, n);
      });
    }
  }
}

import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import type { z } from "zod";
import type { ResolvedClientConfig } from "./config";
import { requireApiKey } from "./config";
import {
  AbortError,
  APIError,
  ConnectionError,
  type RequestInfo,
  ResponseValidationError,
  type RunpodError,
  TimeoutError,
} from "./errors";
import { sleepUnlessAborted } from "./polling";
import { type AttemptOutcome, parseRetryAfter, retryDecision } from "./retry-policy";
import { ErrorBodySchema } from "./schemas/job";
import { fieldProblems } from "./schemas/validation";

/** Per-call options every operation accepts. */
export interface CallOptions {
  /** Cancels the request (and any backoff wait). */
  signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number | undefined;
}

/** One request as the operations describe it. */
export interface TransportRequest<T> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Absolute base (`apiUrl` or `queueUrl`) plus path. */
  base: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  /** Already-serialized JSON body. */
  body?: string | undefined;
  /** Whether repeating the request is harmless (see retry-policy.ts). */
  idempotent: boolean;
  /** Schema of a 2xx body; `undefined` when the body is ignored (e.g. 204). */
  schema?: z.ZodType<T> | undefined;
  /** Statuses that count as success besides 2xx parsing, e.g. 204 for delete. */
  options?: CallOptions | undefined;
}

/** undici's codes for "no answer within the timeout". */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Length of the origin (`http://host:port`) of a base URL, so error paths hold path and query only. */
const originLengths = new Map<string, number>();
function originLength(base: string): number {
  let n = originLengths.get(base);
  if (n === undefined) {
    n = new URL(base).origin.length;
    originLengths.set(base, n);
  }
  return n;
}

/** Connection errors that prove the request never left this machine. */
const NOT_DELIVERED_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * HTTP transport: one keep-alive connection pool per origin (undici `Agent`), bearer auth and JSON
 * on every request, per-attempt timeout, caller cancellation, retries by the pure policy in
 * retry-policy.ts, and error mapping into the hierarchy of errors.ts. The API key is only ever
 * placed in the `authorization` header; it never reaches a URL, an error or a log.
 */
export class Transport {
  readonly dispatcher: Dispatcher;
  /** Requests sent, attempts included (for tests and benchmarks). */
  attempts = 0;
  private headers: { key: string; value: Readonly<Record<string, string>> } | undefined;

  constructor(readonly config: ResolvedClientConfig) {
    this.dispatcher = new Agent({
      connections: config.connections,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      pipelining: 1,
    });
  }

  /** Sends a request with retries; resolves to the validated body. */
  async send<T>(req: TransportRequest<T>): Promise<T> {
    const apiKey = requireApiKey(this.config);
    // Plain string building: `new URL` and `searchParams` cost more per call than the rest of the
    // client's own work (bench/RESULTS.md, "Where our client's per-call time goes").
    let url = req.base + req.path;
    if (req.query) {
      let sep = "?";
      for (const k in req.query) {
        const v = req.query[k];
        if (v === undefined) continue;
        url += `${sep}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
        sep = "&";
      }
    }
    const info: RequestInfo = { method: req.method, path: url.slice(originLength(req.base)) };
    // Built once per key: the same object serves every request (undici only reads it).
    if (this.headers?.key !== apiKey) {
      this.headers = {
        key: apiKey,
        value: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
      };
    }
    const headers = this.headers.value;
    const started = Date.now();
    const signal = req.options?.signal;
    const timeoutMs = req.options?.timeoutMs ?? this.config.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new AbortError(info);
      let outcome: AttemptOutcome;
      let failure: RunpodError;
      try {
        return await this.attempt(req, url, headers, info, timeoutMs, signal);
      } catch (err) {
        if (!(err instanceof AttemptFailure)) throw err;
        outcome = err.outcome;
        failure = err.error;
      }
      const decision = retryDecision(
        outcome,
        { attempt, elapsedMs: Date.now() - started, idempotent: req.idempotent },
        {
          maxAttempts: this.config.maxAttempts,
          budgetMs: this.config.retryBudgetMs,
          baseDelayMs: this.config.retryBaseDelayMs,
          maxDelayMs: this.config.retryMaxDelayMs,
        },
      );
      if (!decision.retry) throw failure;
      if (!(await sleepUnlessAborted(decision.delayMs, signal))) throw new AbortError(info);
    }
  }

  private async attempt<T>(
    req: TransportRequest<T>,
    url: string,
    headers: Readonly<Record<string, string>>,
    info: RequestInfo,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): Promise<T> {
    // The timeout is undici's own (no answer headers, or no body data, within timeoutMs): an
    // AbortSignal.timeout per attempt costs a timer and GC work on every call.
    this.attempts++;
    let status: number;
    let text: string;
    let responseHeaders: Record<string, string | string[] | undefined>;
    try {
      const res = await undiciRequest(url, {
        method: req.method,
        headers,
        body: req.body,
        signal: callerSignal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        dispatcher: this.dispatcher,
      });
      status = res.statusCode;
      responseHeaders = res.headers;
      text = await res.body.text();
    } catch (err) {
      if (callerSignal?.aborted) throw new AbortError(info);
      const code = (err as { code?: string }).code ?? "";
      if (TIMEOUT_CODES.has(code)) throw new AttemptFailure({ kind: "timeout" }, new TimeoutError(info, timeoutMs));
      const maybeDelivered = !NOT_DELIVERED_CODES.has(code);
      throw new AttemptFailure({ kind: "connection", maybeDelivered }, new ConnectionError(info, maybeDelivered, err));
    }
    if (status >= 200 && status < 300) return parseSuccess(req, info, status, text);
    const body = parseErrorBody(text);
    const requestId = headerValue(responseHeaders["x-request-id"]) ?? body.requestId;
    const retryAfterMs = parseRetryAfter(responseHeaders["retry-after"]);
    const error = APIError.fromResponse(status, info, body.message ?? body.error, requestId, retryAfterMs);
    throw new AttemptFailure({ kind: "response", status, retryAfterMs }, error);
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** Internal: a failed attempt with what the retry policy needs to know. */
class AttemptFailure extends Error {
  constructor(
    readonly outcome: AttemptOutcome,
    readonly error: RunpodError,
  ) {
    super(error.message);
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function parseErrorBody(text: string): {
  message?: string | undefined;
  error?: string | undefined;
  requestId?: string | undefined;
} {
  if (!text) return {};
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: fall through and keep a short plain-text message.
  }
  return { message: text.length > 200 ? `${text.slice(0, 197)}...` : text };
}

function parseSuccess<T>(req: TransportRequest<T>, info: RequestInfo, status: number, text: string): T {
  if (!req.schema) return undefined as T;
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    throw new ResponseValidationError(info, status, [
      { field: "", value: `${text.slice(0, 40)}...`, rule: "is not JSON" },
    ]);
  }
  const parsed = req.schema.safeParse(json);
  if (!parsed.success) throw new ResponseValidationError(info, status, fieldProblems(parsed.error, json));
  return parsed.data;
}

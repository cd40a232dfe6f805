import type { Dispatcher } from "undici";
import type { z } from "zod";
import { bodyOfAnswer, errorOfAnswer } from "./answers";
import type { ResolvedClientConfig } from "./config";
import { requireApiKey } from "./config";
import { AbortError, ConnectionError, type RequestInfo, type RunpodError, TimeoutError } from "./errors";
import { EventStreamStatusError, type ServerSentEvent, streamEvents } from "./event-stream";
import { type Exchange, exchange } from "./http-exchange";
import { sleepUnlessAborted } from "./polling";
import { type ManagementPacer, sharedPacer } from "./rate-limit/management-pacer";
import { requestInfo, requestPath, splitBase } from "./request-path";
import { type AttemptOutcome, retryDecision } from "./retry-policy";
import { Agent } from "./undici-agent";

/** Per-call options every operation accepts. */
export interface CallOptions {
  /** Cancels the request (and any backoff wait). */
  signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number | undefined;
}

/** One request as the operations describe it. */
export interface TransportRequest<T> {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
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
  /** Resolve to the 2xx body as text, unparsed (a server-sent event stream such as pod logs). */
  text?: boolean | undefined;
  /** The caller's per-call options: abort signal and timeout. */
  options?: CallOptions | undefined;
  /**
   * A management request (sent to `apiUrl`, which may equal `queueUrl`): on API v2 it is paced by
   * the account's rate limit (sdk/rate-limit/). Job requests leave it unset.
   */
  management?: boolean | undefined;
}

/** One request on its way, as `attempt` takes it: the same for every attempt but `attempt`. */
interface AttemptOptions<T> {
  req: TransportRequest<T>;
  /** The origin undici dials. */
  origin: string;
  /** The path and query on `origin` (with the base URL's prefix). */
  path: string;
  headers: Readonly<Record<string, string>>;
  /** Which attempt this is, from 1. */
  attempt: number;
  /** When the first attempt started (`Date.now()`): the retry budget counts from it. */
  started: number;
  /** The account's management pacer when the request is paced. */
  pacer: ManagementPacer | undefined;
}

/** A failed attempt, as `retry` takes it: how it ended, and the error to throw when it is not retried. */
interface RetryOptions<T> extends AttemptOptions<T> {
  outcome: AttemptOutcome;
  failure: RunpodError;
}

/** undici's codes for "no answer within the timeout". */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

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
  /** The connection pool (undici-agent.ts: undici's `Agent` without the rest of undici). */
  private readonly dispatcher: Dispatcher;
  /** Requests sent, attempts included (for tests and benchmarks). */
  attempts = 0;
  private headers: { key: string; value: Readonly<Record<string, string>> } | undefined;
  /** The pacer of the account of the key last used (shared by every client of it in this process). */
  private pacing: { key: string; pacer: ManagementPacer } | undefined;

  constructor(readonly config: ResolvedClientConfig) {
    this.dispatcher = new Agent({
      connections: config.connections,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      pipelining: 1,
    });
  }

  /**
   * Sends a request with retries; resolves to the validated body. Not an async function, and the
   * retry state (the error's request info, the retry decision) is built only after a failure: the
   * common first-attempt success runs through one async frame, `attempt` (a large `pulumi up` sends
   * thousands).
   */
  send<T>(req: TransportRequest<T>): Promise<T> {
    let apiKey: string;
    try {
      apiKey = requireApiKey(this.config);
    } catch (err) {
      return Promise.reject(err);
    }
    const headers = this.headersFor(apiKey);
    const { origin, prefix } = splitBase(req.base);
    const paced = req.management === true && this.config.pacing && this.config.apiVersion === "v2";
    const pacer = paced ? this.pacerFor(apiKey) : undefined;
    return this.attempt({
      req,
      origin,
      path: requestPath(prefix, req.path, req.query),
      headers,
      attempt: 1,
      started: Date.now(),
      pacer,
    });
  }

  /**
   * The average gap (ms) between management requests the account's shortest v2 quota window
   * sustains (the pacer's `sustainedGapMs`); undefined when calls are not paced (v1, no
   * limits, no answer yet).
   */
  managementGapMs(): number | undefined {
    if (!(this.config.pacing && this.config.apiVersion === "v2")) return undefined;
    try {
      return this.pacerFor(requireApiKey(this.config)).sustainedGapMs;
    } catch {
      return undefined;
    }
  }

  /** The account's management pacer, looked up once per key. */
  private pacerFor(apiKey: string): ManagementPacer {
    if (this.pacing?.key !== apiKey) this.pacing = { key: apiKey, pacer: sharedPacer(this.config.apiUrl, apiKey) };
    return this.pacing.pacer;
  }

  /** The headers of every request with this key, built once per key (undici only reads them). */
  private headersFor(apiKey: string): Readonly<Record<string, string>> {
    if (this.headers?.key !== apiKey) {
      this.headers = {
        key: apiKey,
        value: {
          authorization: `Bearer ${apiKey}`,
          "content-type": "application/json",
          // v2 answers errors as RFC 9457 problem objects.
          accept: "application/json, application/problem+json",
        },
      };
    }
    return this.headers.value;
  }

  /**
   * One attempt; on failure, hands over to `retry`, which decides and may call `attempt` again.
   * One await for the whole answer (status, headers and body: see http-exchange.ts).
   */
  private async attempt<T>(call: AttemptOptions<T>): Promise<T> {
    const { req, origin, path, headers, started, pacer } = call;
    const signal = req.options?.signal;
    if (signal?.aborted) throw new AbortError(requestInfo(req, path));
    const timeoutMs = req.options?.timeoutMs ?? this.config.timeoutMs;
    // A paced request waits its turn within what is left of its retry budget (or fails without sending).
    const budgetLeftMs = this.config.retryBudgetMs - (Date.now() - started);
    const ticket = pacer && (await pacer.acquire(requestInfo(req, path), budgetLeftMs, signal));
    this.attempts++;
    let answer: Exchange;
    try {
      // The timeout is undici's own (no answer headers, or no body data, within timeoutMs): an
      // AbortSignal.timeout per attempt costs a timer and GC work on every call.
      answer = await exchange(this.dispatcher, {
        origin,
        path,
        method: req.method,
        headers,
        body: req.body,
        signal,
        timeoutMs,
      });
    } catch (err) {
      if (ticket) pacer!.failed(ticket);
      const info = requestInfo(req, path);
      if (signal?.aborted) throw new AbortError(info);
      const code = (err as { code?: string }).code ?? "";
      if (TIMEOUT_CODES.has(code)) {
        const timeout = new TimeoutError(info, timeoutMs);
        return this.retry({ ...call, outcome: { kind: "timeout" }, failure: timeout });
      }
      const maybeDelivered = !NOT_DELIVERED_CODES.has(code);
      const error = new ConnectionError(info, maybeDelivered, err);
      return this.retry({ ...call, outcome: { kind: "connection", maybeDelivered }, failure: error });
    }
    const { status, headers: responseHeaders, text } = answer;
    if (ticket) pacer!.answered(ticket, status, responseHeaders);
    if (status >= 200 && status < 300) return bodyOfAnswer(req, path, status, text);
    const error = errorOfAnswer(requestInfo(req, path), answer);
    return this.retry({
      ...call,
      outcome: { kind: "response", status, retryAfterMs: error.retryAfterMs },
      failure: error,
    });
  }

  /**
   * Opens a Server-Sent Events stream (`GET`, `accept: text/event-stream`) and yields each event
   * as it arrives, until the server ends the stream, the caller stops iterating or its signal
   * aborts. Not retried (a stream resumes from a cursor the caller holds, such as the last event
   * id). A non-2xx answer, a refused connection or an abort throws the errors `send` throws.
   */
  async *events(
    req: Omit<TransportRequest<never>, "method" | "body" | "idempotent" | "schema">,
  ): AsyncGenerator<ServerSentEvent> {
    const { origin, prefix } = splitBase(req.base);
    const path = requestPath(prefix, req.path, req.query);
    const info: RequestInfo = { method: "GET", path };
    const signal = req.options?.signal;
    const headers = { ...this.headersFor(requireApiKey(this.config)), accept: "text/event-stream" };
    const timeoutMs = req.options?.timeoutMs ?? this.config.timeoutMs;
    this.attempts++;
    try {
      yield* streamEvents(this.dispatcher, { origin, path, headers, signal, timeoutMs });
    } catch (err) {
      if (err instanceof EventStreamStatusError) throw errorOfAnswer(info, err.answer);
      if (signal?.aborted) throw new AbortError(info);
      const code = (err as { code?: string }).code ?? "";
      if (TIMEOUT_CODES.has(code)) throw new TimeoutError(info, timeoutMs);
      throw new ConnectionError(info, !NOT_DELIVERED_CODES.has(code), err);
    }
  }

  /** After a failed attempt: asks the retry policy, waits, and tries again, or throws the failure. */
  private async retry<T>(failed: RetryOptions<T>): Promise<T> {
    const { outcome, failure, ...call } = failed;
    const { req, path, attempt, started } = call;
    const { maxAttempts, retryBudgetMs, retryBaseDelayMs, retryMaxDelayMs, random } = this.config;
    const decision = retryDecision(
      outcome,
      { attempt, elapsedMs: Date.now() - started, idempotent: req.idempotent },
      { maxAttempts, budgetMs: retryBudgetMs, baseDelayMs: retryBaseDelayMs, maxDelayMs: retryMaxDelayMs },
      random,
    );
    if (!decision.retry) throw failure;
    if (!(await sleepUnlessAborted(decision.delayMs, req.options?.signal)))
      throw new AbortError(requestInfo(req, path));
    return this.attempt({ ...call, attempt: attempt + 1 });
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

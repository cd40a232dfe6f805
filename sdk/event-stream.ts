import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Dispatcher } from "undici";
import type { ResponseHeaders } from "./headers";
import type { Exchange } from "./http-exchange";

/** One Server-Sent Event: its `data`, and its `id` and `event` name when the server gave them. */
export type ServerSentEvent = EventSourceMessage;

/** A `GET` that answers a Server-Sent Events stream (`text/event-stream`). */
export interface EventStreamRequest {
  /** `http(s)://host[:port]`. */
  origin: string;
  /** Path and query, starting with `/`. */
  path: string;
  headers: Readonly<Record<string, string>>;
  signal: AbortSignal | undefined;
  /** No response headers within this many ms is a timeout; once streaming, silence is not. */
  timeoutMs: number;
}

/** The answer was not a 2xx: the whole answer, for the transport to map onto its errors. */
export class EventStreamStatusError extends Error {
  constructor(readonly answer: Exchange) {
    super(`event stream answered ${answer.status}`);
  }
}

/** Events held before the stream is paused until the reader catches up. */
const HIGH_WATER = 256;

/**
 * Opens an event stream on `dispatcher` and yields each event as it is parsed (eventsource-parser
 * follows the WHATWG rules: `data:` lines joined, comments skipped, any line ending). The stream
 * stays open until the server ends it, the caller stops iterating (the request is aborted) or
 * `signal` aborts. A non-2xx answer rejects with {@link EventStreamStatusError}; undici's own
 * errors (refused connection, aborts) pass through unchanged.
 */
export async function* streamEvents(dispatcher: Dispatcher, req: EventStreamRequest): AsyncGenerator<ServerSentEvent> {
  const handler = new EventStreamHandler(req.signal);
  dispatcher.dispatch(
    {
      origin: req.origin,
      path: req.path,
      method: "GET",
      headers: req.headers,
      headersTimeout: req.timeoutMs,
      // A log stream may stay quiet for minutes: only the caller's signal ends it.
      bodyTimeout: 0,
    },
    handler,
  );
  try {
    for (;;) {
      const event = await handler.next();
      if (event === undefined) return;
      yield event;
    }
  } finally {
    handler.close();
  }
}

/** undici handler that parses a 2xx body into events, or keeps a non-2xx body whole. */
class EventStreamHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: ResponseHeaders = {};
  private readonly errorBody: Buffer[] = [];
  private readonly events: ServerSentEvent[] = [];
  private readonly decoder = new TextDecoder();
  private readonly parser = createParser({ onEvent: (event) => this.push(event) });
  private waiter: { resolve: (e: ServerSentEvent | undefined) => void; reject: (err: Error) => void } | undefined;
  private ended = false;
  private failure: Error | undefined;
  private paused = false;
  private readonly onAbort = () => this.abort(this.signal!.reason as Error);

  constructor(private readonly signal: AbortSignal | undefined) {
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(this.signal.reason as Error);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders): void {
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.ok) {
      this.errorBody.push(chunk);
      return;
    }
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
    if (this.events.length >= HIGH_WATER && !this.paused) {
      this.paused = true;
      controller.pause();
    }
  }

  onResponseEnd(): void {
    if (!this.ok) {
      const text = Buffer.concat(this.errorBody).toString("utf8");
      this.fail(new EventStreamStatusError({ status: this.status, headers: this.headers, text }));
      return;
    }
    this.parser.feed(this.decoder.decode());
    this.ended = true;
    this.wake();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(error);
  }

  /** The next event; undefined once the stream ended. */
  next(): Promise<ServerSentEvent | undefined> {
    const event = this.events.shift();
    if (event) {
      if (this.paused && this.events.length < HIGH_WATER / 2) {
        this.paused = false;
        this.controller?.resume();
      }
      return Promise.resolve(event);
    }
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** The reader is done: an open stream is aborted. */
  close(): void {
    this.signal?.removeEventListener("abort", this.onAbort);
    if (!this.ended && !this.failure) this.abort(new Error("event stream closed by its reader"));
  }

  private get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  private abort(reason: Error): void {
    if (this.controller) this.controller.abort(reason);
    else this.fail(reason);
  }

  private push(event: ServerSentEvent): void {
    this.events.push(event);
    this.wake();
  }

  private fail(error: Error): void {
    if (this.failure || this.ended) return;
    this.failure = error;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = undefined;
    const event = this.events.shift();
    if (event) waiter.resolve(event);
    else if (this.failure) waiter.reject(this.failure);
    else if (this.ended) waiter.resolve(undefined);
    else this.waiter = waiter;
  }
}

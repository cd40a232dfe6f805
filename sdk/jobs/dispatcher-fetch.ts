import type { Dispatcher } from "undici";
import { Agent } from "../undici-agent";
import type { FetchFunction } from "./paced-calls";

/** Statuses whose answer has no body, which a `Response` refuses to be given one for. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` on an undici dispatcher, for clients such as the `openai` package that take one as an
 * option. The platform's `fetch` (WHATWG streams around undici) costs about three times the CPU
 * per call of undici's own dispatch (bench/RESULTS.md, "Job client throughput": global fetch
 * against raw undici), which at many calls a second is most of an OpenAI call's time. Here a
 * whole answer is collected in the handler and handed over as one buffer; only a
 * `text/event-stream` answer becomes a stream, fed as its chunks arrive. A body that is not text
 * (an upload's form data or stream) goes to the platform's `fetch`, which knows how to send it.
 */
export function dispatcherFetch(dispatcher: Dispatcher = sharedAgent()): FetchFunction {
  return (input, init) => {
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== "string") return globalThis.fetch(input, init);
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const handler = new ResponseHandler(resolve, reject, init?.signal ?? undefined);
      try {
        const method = (init?.method ?? "GET").toUpperCase() as Dispatcher.HttpMethod;
        const path = url.pathname + url.search;
        dispatcher.dispatch({ origin: url.origin, path, method, headers, body: body ?? null }, handler);
      } catch (error) {
        handler.onResponseError(undefined, error as Error);
      }
    });
  };
}

let agent: Dispatcher | undefined;
/** One keep-alive pool for every such fetch of the process (idle sockets keep no process alive). */
function sharedAgent(): Dispatcher {
  agent ??= new Agent();
  return agent;
}

/** undici handler resolving a `Response`: at the end for a whole answer, at the headers for an event stream. */
class ResponseHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers = new Headers();
  private chunks: Buffer[] = [];
  private sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  private settled = false;
  private readonly onAbort = () => this.controller?.abort(this.signal!.reason);

  constructor(
    private readonly resolve: (res: Response) => void,
    private readonly reject: (err: Error) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(this.signal.reason);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (status < 200) return; // informational; the final answer follows
    this.status = status;
    for (const [name, value] of Object.entries(headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) this.headers.append(name, v);
    }
    if (!(this.headers.get("content-type") ?? "").startsWith("text/event-stream")) return;
    const stream = new ReadableStream<Uint8Array>({
      start: (sink) => void (this.sink = sink),
      pull: () => controller.resume(),
      cancel: (reason) => controller.abort(reason),
    });
    this.settle(() => this.resolve(new Response(stream, { status, headers: this.headers })));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.sink) {
      this.chunks.push(chunk);
      return;
    }
    this.sink.enqueue(new Uint8Array(chunk));
    if ((this.sink.desiredSize ?? 1) <= 0) controller.pause();
  }

  onResponseEnd(): void {
    this.signal?.removeEventListener("abort", this.onAbort);
    if (this.sink) return this.sink.close();
    const body = NO_BODY.has(this.status) ? null : Buffer.concat(this.chunks);
    this.settle(() => this.resolve(new Response(body, { status: this.status, headers: this.headers })));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.signal?.removeEventListener("abort", this.onAbort);
    if (this.sink) this.sink.error(error);
    else this.settle(() => this.reject(error));
  }

  private settle(then: () => void): void {
    if (this.settled) return;
    this.settled = true;
    then();
  }
}

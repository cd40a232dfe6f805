import { AbortError, RateLimitError } from "../errors";
import { retryAfterOf } from "./batch-failures";
import type { OperationPacer } from "./operation-pacer";

/**
 * Runs one call under a pacer's permit: waits for the permit (an abort while waiting is an
 * {@link AbortError}), then hands it back with what the answer said about the limit.
 */
export async function withPermit<T>(
  pacer: OperationPacer,
  request: { method: string; path: string },
  signal: AbortSignal | undefined,
  call: () => Promise<T>,
): Promise<T> {
  if (!(await pacer.acquire(signal))) throw new AbortError(request);
  try {
    const result = await call();
    pacer.release({ refused: false });
    return result;
  } catch (error) {
    const refused = error instanceof RateLimitError;
    pacer.release(refused ? { refused: true, retryAfterMs: retryAfterOf(error) } : { refused: false });
    throw error;
  }
}

/** The `fetch` signature the `openai` package (and most HTTP clients) take as an option. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `Retry-After` in ms, when the answer gives it in seconds. */
function retryAfterMs(res: Response): number | undefined {
  const seconds = Number(res.headers.get("retry-after"));
  return res.headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/**
 * A `fetch` that waits for a permit of `pacer` before each request and holds it until the answer
 * has come: for an event stream, until its body has been read to its end (or cancelled), since the
 * platform counts a streamed answer in flight until it ends. A 429 tells the pacer, which slows down; the answer itself goes to the caller
 * unchanged (the `openai` package retries it, honouring `Retry-After`). A caller must read or
 * cancel every body, as the `openai` package does, or the permit is kept.
 */
export function pacedFetch(pacer: OperationPacer, base: FetchFunction = globalThis.fetch): FetchFunction {
  return async (input, init) => {
    if (!(await pacer.acquire(init?.signal ?? undefined))) {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      throw new AbortError({ method: init?.method ?? "GET", path: new URL(url).pathname });
    }
    let res: Response;
    try {
      res = await base(input, init);
    } catch (error) {
      pacer.release({ refused: false });
      throw error;
    }
    const answer =
      res.status === 429 ? { refused: true as const, retryAfterMs: retryAfterMs(res) } : { refused: false as const };
    // Only a stream stays in flight after its headers: a whole answer is released at once, and
    // keeps its own body (wrapping it costs CPU on every call).
    if (!res.body || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      pacer.release(answer);
      return res;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      pacer.release(answer);
    };
    const reader = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const step = await reader.read();
          if (step.done) {
            release();
            controller.close();
          } else controller.enqueue(step.value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

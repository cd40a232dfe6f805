import type { Scheduler } from "../clock/scheduler";
import type { Template } from "../handlers/handler-types";
import { executeTemplate } from "./execute-template";
import { type ScalingSettings, type Worker, type WorkerBoot, WorkerPool } from "./worker-pool";

/**
 * How a load-balancing endpoint serves HTTP (OpenAPI v2 `EndpointType` `LOAD_BALANCER`,
 * `RequestCountScaling`): its worker bounds, the in-flight requests one worker takes before
 * another starts, the longest a request may run, and what its workers run.
 */
export interface LoadBalancerSettings extends ScalingSettings {
  /** `scaling.requestCount`: in-flight requests per worker before scaling up. */
  requestCount: number;
  /** Endpoint `timeout` (ms): a request still running then is answered 504. */
  executionTimeoutMs: number;
  /** What a worker runs where nothing was fixed when it started (a release reaches workers by replacing them). */
  handler: () => Template | undefined;
  /**
   * The workers' environment (the endpoint's env over its template's), looked up per request and
   * handed to the handler, its secret placeholders holding the values of `secrets` (what the
   * worker started with).
   */
  env?: (secrets: ReadonlyMap<string, string>) => Readonly<Record<string, string>>;
}

/** An HTTP request as a worker's handler sees it (the handler's `input`). */
export interface HttpRequestView {
  method: string;
  /** The path below the endpoint's base, starting with `/`. */
  path: string;
  query: Record<string, string | string[]>;
  /** The request's headers, without `authorization` (the API key never reaches a worker). */
  headers: Record<string, string | string[] | undefined>;
  /** JSON bodies parsed, other bodies as text; undefined without a body. */
  body?: unknown;
}

/** What a request is answered with. */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A handler's return value that says its own status (and headers): `{ statusCode, headers?, body? }`. */
function isHttpAnswer(value: unknown): value is Partial<HttpAnswer> & { statusCode: number } {
  if (value === null || typeof value !== "object") return false;
  const code = (value as { statusCode?: unknown }).statusCode;
  return typeof code === "number" && Number.isInteger(code) && code >= 100 && code <= 599;
}

/**
 * One load-balancing endpoint's workers and in-flight requests. Scaling follows REQUEST_COUNT:
 * a request goes to a worker with fewer than `requestCount` in flight; when every worker is full,
 * a worker starts (up to `workersMax`); when none may start, the least loaded worker takes it
 * (the platform's balancer would hold it in its own queue). `workersMin` workers are always up; an
 * idle worker above the minimum stops after the idle timeout, as on queue endpoints.
 */
export class LoadBalancerRuntime {
  private readonly pool: WorkerPool;
  private requests = 0;
  /** Requests waiting for a starting worker: woken when a start ends, ready or not. */
  private readonly waiting = new Set<() => void>();

  constructor(
    readonly endpointId: string,
    private settings: LoadBalancerSettings,
    private readonly scheduler: Scheduler,
    newWorkerId: () => string,
    bootWorker: () => WorkerBoot = () => ({ secrets: new Map() }),
  ) {
    // A worker that starts late (booted, or a missing secret created) takes the requests waiting.
    const wake = () => {
      for (const resume of [...this.waiting]) resume();
    };
    this.pool = new WorkerPool(settings, scheduler, newWorkerId, () => undefined, undefined, {
      boot: bootWorker,
      ready: wake,
      failed: wake,
    });
  }

  /** Applies new endpoint settings; requests in flight finish on their worker. */
  configure(settings: LoadBalancerSettings): void {
    this.settings = settings;
    this.pool.reconfigure(settings);
  }

  /** Workers up now. */
  workers(): Worker[] {
    return this.pool.all();
  }

  /** Whether a worker is up to answer (the health check's 200; 204 while none is: starting or unable to start). */
  get healthy(): boolean {
    return this.pool.size - this.pool.unhealthy - this.pool.booting > 0;
  }

  /** Workers that could not start (a missing secret) try again now. */
  retryUnhealthyWorkers(): void {
    this.pool.retryUnhealthy();
  }

  /** Serves one request on a worker: the handler's answer, 503 when no worker may run, 504 past the timeout. */
  async handle(request: HttpRequestView, disconnected: AbortSignal): Promise<HttpAnswer> {
    let worker = this.acquire();
    // The platform's balancer holds a request while a worker starts for it (a cold start).
    while (!worker && this.pool.booting > 0 && !disconnected.aborted) {
      await this.nextStart(disconnected);
      worker = this.acquire();
    }
    if (!worker) {
      const stuck = this.pool.all().find((w) => w.unhealthy !== undefined)?.unhealthy;
      return answer(503, {
        error: "no_workers",
        message:
          stuck === undefined
            ? `endpoint ${this.endpointId} may run no worker (workers.max is 0)`
            : `endpoint ${this.endpointId} has no worker that could start: ${stuck}`,
      });
    }
    const abort = new AbortController();
    const onGone = () => abort.abort();
    disconnected.addEventListener("abort", onGone, { once: true });
    const started = this.scheduler.now();
    const id = `${this.endpointId}-request-${++this.requests}`;
    try {
      // What the worker's container was started with; looked up only where nothing was fixed then.
      const template = worker.runs ? worker.runs.template : this.settings.handler();
      if (!template) throw new Error(`endpoint ${this.endpointId} has no handler to run`);
      const env = worker.runs ? worker.runs.env : this.settings.env?.(worker.secrets);
      const ctx = {
        id,
        input: request as unknown as Record<string, unknown>,
        signal: abort.signal,
        sleep: (ms: number) => this.scheduler.sleep(ms, abort.signal),
        env: { ...(env ?? {}) },
      };
      const timeout = this.scheduler.sleep(this.settings.executionTimeoutMs, abort.signal).then(() => undefined);
      const outcome = await Promise.race([executeTemplate(template, ctx, () => true), timeout.then(() => TIMED_OUT)]);
      const result =
        outcome === TIMED_OUT
          ? answer(504, {
              error: "timeout",
              message: `the request ran past the endpoint's timeout of ${this.settings.executionTimeoutMs} ms`,
            })
          : toAnswer(outcome);
      this.logRequest(worker, started, request, result.statusCode);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logRequest(worker, started, request, 500, message);
      return answer(500, { error: "handler_failed", message });
    } finally {
      abort.abort();
      disconnected.removeEventListener("abort", onGone);
      this.release(worker);
    }
  }

  /** Stops every worker (endpoint deleted, emulator closing). */
  dispose(): void {
    this.pool.dispose();
    for (const resume of [...this.waiting]) resume();
  }

  /** Resolves when a worker's start ends (ready or unable), or the client goes. */
  private nextStart(disconnected: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.waiting.delete(done);
        disconnected.removeEventListener("abort", done);
        resolve();
      };
      this.waiting.add(done);
      disconnected.addEventListener("abort", done, { once: true });
    });
  }

  /**
   * A worker for a request: one of the current version with room, an idle one, a new one; only when
   * none may start, the least loaded (of an older version too: a rollout drains those).
   */
  private acquire(): Worker | undefined {
    const limit = Math.max(1, this.settings.requestCount);
    let least: Worker | undefined;
    for (const w of this.pool.busy()) {
      if (w.inFlight < limit && this.pool.isCurrent(w)) return this.take(w);
      if (!least || w.inFlight < least.inFlight) least = w;
    }
    const idle = this.pool.takeIdle();
    if (idle) return this.take(idle);
    const started = this.pool.canStart() ? this.pool.startBusy() : undefined;
    if (started) return this.take(started);
    return least ? this.take(least) : undefined;
  }

  private take(w: Worker): Worker {
    w.inFlight++;
    return w;
  }

  private release(w: Worker): void {
    w.inFlight--;
    if (w.inFlight === 0) this.pool.release(w);
  }

  private logRequest(w: Worker, started: number, req: HttpRequestView, status: number, error?: string): void {
    const took = this.scheduler.now() - started;
    w.log.add(
      this.scheduler.now(),
      "container",
      `${req.method} ${req.path} ${status} in ${took} ms${error ? `: ${error}` : ""}`,
    );
  }
}

const TIMED_OUT = Symbol("timed out");

function answer(statusCode: number, body: unknown): HttpAnswer {
  return { statusCode, headers: {}, body };
}

/** A handler's return value as an answer: `{ statusCode, headers, body }` as it says, anything else a 200 with it as the body. */
function toAnswer(value: unknown): HttpAnswer {
  if (!isHttpAnswer(value)) return answer(200, value);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(value.headers ?? {})) headers[k.toLowerCase()] = String(v);
  return { statusCode: value.statusCode, headers, body: value.body };
}

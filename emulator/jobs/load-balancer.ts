import type { Scheduler } from "../clock/scheduler";
import type { Template } from "../handlers/handler-types";
import { executeTemplate } from "./execute-template";
import { answer, type HttpAnswer, type HttpRequestView, toAnswer } from "./http-answer";
import {
  AFFINITY_ERRORS,
  type Affinity,
  AffinityWaits,
  parseAffinity,
  ScaledDownWorkers,
  STRICT_WAIT_MS,
  WORKER_ID_HEADER,
} from "./worker-affinity";
import { type ScalingSettings, Worker, type WorkerBoot, WorkerPool } from "./worker-pool";

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
  /** Requests waiting for the worker they are pinned to. */
  private readonly waits: AffinityWaits;
  private readonly scaledDown = new ScaledDownWorkers();
  /** Workers up and started, by id: a pinned request finds its worker without a scan. */
  private readonly byId = new Map<string, Worker>();
  /** The id the next worker starts under: a scaled-down worker resumed by `strict-resume`. */
  private resumeId: string | undefined;

  constructor(
    readonly endpointId: string,
    private settings: LoadBalancerSettings,
    private readonly scheduler: Scheduler,
    newWorkerId: () => string,
    bootWorker: () => WorkerBoot = () => ({ secrets: new Map() }),
  ) {
    this.waits = new AffinityWaits(scheduler);
    const nextId = () => {
      const id = this.resumeId ?? newWorkerId();
      this.resumeId = undefined;
      return id;
    };
    const onWorker = (w: Worker, event: "start" | "stop") => {
      if (event === "stop") {
        this.byId.delete(w.id);
        this.scaledDown.add(w.id, w.version);
      } else {
        this.byId.set(w.id, w);
        this.scaledDown.delete(w.id);
      }
      this.waits.wake();
    };
    // A worker that starts late (booted, or a missing secret created) takes the requests waiting.
    this.pool = new WorkerPool(settings, scheduler, nextId, () => undefined, onWorker, {
      boot: bootWorker,
      ready: () => this.waits.wake(),
      failed: () => this.waits.wake(),
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

  /**
   * Serves one request on a worker: the handler's answer, naming the worker in
   * `X-Runpod-Worker-Id`; 503 when no worker may run, 504 past the timeout; for a pinned request
   * (the same header), 404 when its worker is gone and 400 when the wait for it ran out.
   */
  async handle(request: HttpRequestView, disconnected: AbortSignal): Promise<HttpAnswer> {
    const got = await this.acquireFor(parseAffinity(request.headers[WORKER_ID_HEADER]), disconnected);
    if (got !== undefined && !(got instanceof Worker)) return got;
    const answer = await this.serve(got, request, disconnected);
    if (got) answer.headers[WORKER_ID_HEADER] = got.id;
    return answer;
  }

  private async serve(worker: Worker | undefined, request: HttpRequestView, disconnected: AbortSignal) {
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
  }

  /**
   * A worker for a request by normal routing, held while a worker starts for it (the platform's
   * balancer holds a request through a cold start).
   */
  private async acquireRouted(signal: AbortSignal): Promise<Worker | undefined> {
    let worker = this.acquire();
    while (!worker && this.pool.booting > 0 && !signal.aborted) {
      await this.waits.next(undefined, signal);
      worker = this.acquire();
    }
    return worker;
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

  /**
   * The worker of a request: by normal routing, or the one it is pinned to. A soft pin takes its
   * worker when it is up with room, else routes normally. A strict pin waits (up to
   * {@link STRICT_WAIT_MS}) for its worker's room, and is answered 404 when the worker is not up;
   * `strict-resume` brings a scaled-down worker back under its id instead, waiting for room to
   * start it (404 only when it is gone for good: never seen, or from an older release).
   */
  private async acquireFor(pin: Affinity, signal: AbortSignal): Promise<Worker | HttpAnswer | undefined> {
    if (pin.mode === "none") return this.acquireRouted(signal);
    const id = pin.workerId;
    if (pin.mode === "soft") return this.takePinned(id) ?? this.acquireRouted(signal);
    const deadline = this.scheduler.now() + STRICT_WAIT_MS;
    for (;;) {
      const w = this.workerById(id);
      if (w && w.unhealthy === undefined) {
        const taken = this.takePinned(id);
        if (taken) return taken;
      } else if (pin.mode === "strict" || (!w && !this.scaledDown.resumable(id, this.settings.version ?? 0))) {
        return AFFINITY_ERRORS.gone(id, this.endpointId);
      } else if (!w && this.pool.canStart()) {
        this.resumeId = id;
        const resumed = this.pool.startBusy();
        if (resumed) return this.take(resumed);
        continue; // started unhealthy: it keeps trying, and the request waits for it
      }
      if (!(await this.waits.next(deadline, signal))) return AFFINITY_ERRORS.timeout(id);
    }
  }

  /** The worker `id` when it is up with room for one more request, taken; else undefined. */
  private takePinned(id: string): Worker | undefined {
    const w = this.workerById(id);
    if (!w || w.unhealthy !== undefined || w.inFlight >= Math.max(1, this.settings.requestCount)) return undefined;
    if (w.inFlight === 0 && !this.pool.takeThis(w)) return undefined;
    return this.take(w);
  }

  /** A worker up, started or not (one that could not start is found by a scan: they are rare). */
  private workerById(id: string): Worker | undefined {
    return this.byId.get(id) ?? this.pool.all().find((worker) => worker.id === id);
  }

  private take(w: Worker): Worker {
    w.inFlight++;
    return w;
  }

  private release(w: Worker): void {
    w.inFlight--;
    if (w.inFlight === 0) this.pool.release(w);
    this.waits.wake();
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

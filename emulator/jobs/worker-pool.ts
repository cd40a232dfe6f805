import type { Scheduler } from "../clock/scheduler";
import { Timer } from "../clock/scheduler";
import type { Job } from "./job";
import { WorkerLog } from "./worker-log";

/** Scaling bounds of an endpoint (OpenAPI `workersMin`, `workersMax`, `idleTimeout` in seconds, as ms here). */
export interface ScalingSettings {
  workersMin: number;
  workersMax: number;
  idleTimeoutMs: number;
  /** The endpoint's configuration version (its latest release) a worker started now runs. */
  version?: number | undefined;
}

/**
 * Most workers the emulator simulates per endpoint. The schemas put no upper bound on
 * `workersMin`/`workersMax` (the platform's bound is an account quota), and a client must not be
 * able to make the emulator allocate millions of workers; the endpoint record keeps the values given.
 */
export const MAX_SIMULATED_WORKERS = 1000;

/** How long a worker that could not start waits (platform ms) before it tries again. */
export const WORKER_BOOT_RETRY_MS = 30_000;

/**
 * What starting a worker's container came to: the account secrets its env refers to, resolved
 * (kept by the worker, so a secret rotated later reaches only workers started later), with the
 * log lines saying so; or why it cannot start (a placeholder naming no secret).
 */
export type WorkerBoot =
  { secrets: ReadonlyMap<string, string>; lines?: readonly string[] } | { failure: string; secrets?: undefined };

/** How a pool starts its workers' containers, and whom it tells when a worker that could not start did. */
export interface WorkerBooter {
  /** Resolves what a container started now gets (its env's secrets), or says why it cannot start. */
  boot(): WorkerBoot;
  /** A worker that could not start has started: the runtime may give it work. */
  ready(): void;
}

/** Workers whose containers always start, with no secrets: pre-deployed models, tests. */
const NO_SECRETS: WorkerBooter = { boot: () => ({ secrets: new Map() }), ready: () => undefined };

function capped(s: ScalingSettings): ScalingSettings {
  return {
    ...s,
    workersMin: Math.min(s.workersMin, MAX_SIMULATED_WORKERS),
    workersMax: Math.min(s.workersMax, MAX_SIMULATED_WORKERS),
  };
}

/** A simulated worker: idle, or running one job. */
export class Worker {
  job: Job | undefined = undefined;
  abort: AbortController | undefined = undefined;
  /** Incremented per job run, so a late result of an abandoned run is recognised and ignored. */
  run = 0;
  readonly startedAt: number;
  /** Execution timeout of the current job (enforced only while executing). */
  readonly timeout: Timer;
  /** Scale-down deadline while idle above `workersMin`. */
  readonly idle: Timer;
  /** HTTP requests it is serving now (load-balancing endpoints). */
  inFlight = 0;
  /** The endpoint configuration version it runs (v2 `Worker.version`). */
  version = 0;
  /** Its log lines (v2 worker logs). */
  readonly log = new WorkerLog();
  /** The account secrets its env refers to, as they were when its container started (by name). */
  secrets: ReadonlyMap<string, string> = new Map();
  /** Why its container cannot start (it takes no work and tries again), or undefined once it runs. */
  unhealthy: string | undefined = undefined;
  /** The next attempt to start its container, while it cannot. */
  readonly retry: Timer;

  constructor(
    readonly id: string,
    now: number,
    onTimeout: (w: Worker) => void,
    onIdleTimeout: (w: Worker) => void,
    onRetry: (w: Worker) => void = () => undefined,
  ) {
    this.startedAt = now;
    this.timeout = new Timer(() => onTimeout(this));
    this.idle = new Timer(() => onIdleTimeout(this));
    this.retry = new Timer(() => onRetry(this));
  }
}

/**
 * An endpoint's simulated workers: `workersMin` are always up; more start, up
 * to `workersMax`, when jobs queue; an idle worker above the minimum stops after `idleTimeout`.
 * The pool only counts and scales; the runtime decides which job a worker runs.
 *
 * A worker whose container cannot start (its env names a secret the account does not have) is
 * UNHEALTHY: it holds its place among the workers (so no more start in its stead), takes no job,
 * and tries again every {@link WORKER_BOOT_RETRY_MS}, or at once when the endpoint or the
 * account's secrets change. Its log says why; it is billed only once it starts.
 */
export class WorkerPool {
  private readonly idleWorkers: Worker[] = [];
  private readonly busyWorkers = new Set<Worker>();
  private readonly unhealthyWorkers = new Set<Worker>();

  private settings: ScalingSettings;

  constructor(
    settings: ScalingSettings,
    private readonly scheduler: Scheduler,
    private readonly newId: () => string,
    private readonly onTimeout: (w: Worker) => void,
    private readonly onWorker: (w: Worker, event: "start" | "stop") => void = () => undefined,
    private readonly booter: WorkerBooter = NO_SECRETS,
  ) {
    this.settings = capped(settings);
    this.ensureMinimum();
  }

  get idle(): number {
    return this.idleWorkers.length;
  }

  get running(): number {
    return this.busyWorkers.size;
  }

  /** Workers whose containers cannot start. */
  get unhealthy(): number {
    return this.unhealthyWorkers.size;
  }

  get size(): number {
    return this.idleWorkers.length + this.busyWorkers.size + this.unhealthyWorkers.size;
  }

  /** Workers up (the unhealthy ones included), for `includeWorkers`. */
  all(): Worker[] {
    return [...this.busyWorkers, ...this.idleWorkers, ...this.unhealthyWorkers];
  }

  /** Busy workers (to find the one running a job). */
  busy(): Iterable<Worker> {
    return this.busyWorkers;
  }

  /** Takes an idle worker for a job (most recently idle first, so surplus workers drain). */
  takeIdle(): Worker | undefined {
    const w = this.idleWorkers.pop();
    if (!w) return undefined;
    this.scheduler.cancel(w.idle);
    this.busyWorkers.add(w);
    return w;
  }

  /** Takes this idle worker for work (a request pinned to it); false when it is not idle. */
  takeThis(w: Worker): boolean {
    const i = this.idleWorkers.indexOf(w);
    if (i < 0) return false;
    this.idleWorkers.splice(i, 1);
    this.scheduler.cancel(w.idle);
    this.busyWorkers.add(w);
    return true;
  }

  /** True while another worker may start (scale-up stays within `workersMax`). */
  canStart(): boolean {
    return this.size < this.settings.workersMax;
  }

  /** Starts a worker that is immediately busy; undefined when its container cannot start (it waits, unhealthy). */
  startBusy(): Worker | undefined {
    const w = this.create();
    if (w.unhealthy !== undefined) return undefined;
    this.busyWorkers.add(w);
    return w;
  }

  /** The workers that could not start try again now (the account's secrets changed). */
  retryUnhealthy(): void {
    for (const w of [...this.unhealthyWorkers]) this.retryBoot(w);
  }

  /** A worker finished its job: it stops if the endpoint now has too many, else it waits idle. */
  release(w: Worker): void {
    this.busyWorkers.delete(w);
    if (this.size >= this.settings.workersMax) return this.stopped(w);
    this.idleWorkers.push(w);
    this.armIdleTimeout(w);
  }

  /** Applies new bounds: starts the minimum, stops idle workers above the maximum, re-arms scale-down. */
  reconfigure(settings: ScalingSettings): void {
    this.settings = capped(settings);
    // Workers that cannot start go first, then idle ones; the rest try their new configuration.
    while (this.size > this.settings.workersMax && this.unhealthyWorkers.size > 0) {
      this.stop(this.unhealthyWorkers.values().next().value!);
    }
    while (this.size > this.settings.workersMax && this.idleWorkers.length > 0) this.stop(this.idleWorkers[0]!);
    for (const w of this.idleWorkers) this.armIdleTimeout(w);
    this.retryUnhealthy();
    this.ensureMinimum();
  }

  /** Stops every worker (endpoint deleted, emulator closing). */
  dispose(): void {
    for (const w of [...this.idleWorkers, ...this.busyWorkers, ...this.unhealthyWorkers]) {
      this.scheduler.cancel(w.idle);
      this.scheduler.cancel(w.timeout);
      this.scheduler.cancel(w.retry);
      w.log.close();
      if (w.unhealthy === undefined) this.onWorker(w, "stop");
    }
    this.idleWorkers.length = 0;
    this.busyWorkers.clear();
    this.unhealthyWorkers.clear();
  }

  /** A new worker: started (the caller places it), or unhealthy (kept here, trying again later). */
  private create(): Worker {
    const w = new Worker(
      this.newId(),
      this.scheduler.now(),
      this.onTimeout,
      (w) => this.onIdleTimeout(w),
      (w) => this.retryBoot(w),
    );
    this.boot(w);
    return w;
  }

  /** Starts a worker's container: true when it runs; otherwise it is unhealthy, and tries again later. */
  private boot(w: Worker): boolean {
    const now = this.scheduler.now();
    w.version = this.settings.version ?? 0;
    const result = this.booter.boot();
    if (result.secrets === undefined) {
      // Said once per problem: a worker retrying for hours does not fill its log with the same line.
      if (w.unhealthy !== result.failure) {
        const again = `trying again every ${WORKER_BOOT_RETRY_MS / 1000} s`;
        w.log.add(now, "system", `worker ${w.id} cannot start: ${result.failure}; ${again}`);
      }
      w.unhealthy = result.failure;
      this.unhealthyWorkers.add(w);
      this.scheduler.after(w.retry, WORKER_BOOT_RETRY_MS);
      return false;
    }
    w.unhealthy = undefined;
    w.secrets = result.secrets;
    w.log.add(now, "system", `worker ${w.id} started (configuration version ${w.version})`);
    for (const line of result.lines ?? []) w.log.add(now, "system", line);
    this.onWorker(w, "start");
    return true;
  }

  /** An unhealthy worker tries to start again; once it does, it waits idle for work. */
  private retryBoot(w: Worker): void {
    if (!this.unhealthyWorkers.has(w)) return;
    this.scheduler.cancel(w.retry);
    if (!this.boot(w)) return;
    this.unhealthyWorkers.delete(w);
    this.idleWorkers.push(w);
    this.armIdleTimeout(w);
    this.booter.ready();
  }

  private ensureMinimum(): void {
    while (this.size < this.settings.workersMin) {
      const w = this.create();
      if (w.unhealthy === undefined) this.idleWorkers.push(w);
    }
  }

  private armIdleTimeout(w: Worker): void {
    if (this.size > this.settings.workersMin) this.scheduler.after(w.idle, this.settings.idleTimeoutMs);
    else this.scheduler.cancel(w.idle);
  }

  private onIdleTimeout(w: Worker): void {
    if (this.idleWorkers.includes(w) && this.size > this.settings.workersMin) this.stop(w);
  }

  private stop(w: Worker): void {
    const i = this.idleWorkers.indexOf(w);
    if (i >= 0) this.idleWorkers.splice(i, 1);
    this.unhealthyWorkers.delete(w);
    this.scheduler.cancel(w.idle);
    this.scheduler.cancel(w.retry);
    this.stopped(w);
  }

  /** A worker is gone: its log says so and its followers are let go. */
  private stopped(w: Worker): void {
    w.log.add(this.scheduler.now(), "system", `worker ${w.id} stopped`);
    w.log.close();
    if (w.unhealthy === undefined) this.onWorker(w, "stop");
  }
}

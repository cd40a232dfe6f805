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

  constructor(
    readonly id: string,
    now: number,
    onTimeout: (w: Worker) => void,
    onIdleTimeout: (w: Worker) => void,
  ) {
    this.startedAt = now;
    this.timeout = new Timer(() => onTimeout(this));
    this.idle = new Timer(() => onIdleTimeout(this));
  }
}

/**
 * An endpoint's simulated workers: `workersMin` are always up; more start, up
 * to `workersMax`, when jobs queue; an idle worker above the minimum stops after `idleTimeout`.
 * The pool only counts and scales; the runtime decides which job a worker runs.
 */
export class WorkerPool {
  private readonly idleWorkers: Worker[] = [];
  private readonly busyWorkers = new Set<Worker>();

  private settings: ScalingSettings;

  constructor(
    settings: ScalingSettings,
    private readonly scheduler: Scheduler,
    private readonly newId: () => string,
    private readonly onTimeout: (w: Worker) => void,
    private readonly onWorker: (w: Worker, event: "start" | "stop") => void = () => undefined,
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

  get size(): number {
    return this.idleWorkers.length + this.busyWorkers.size;
  }

  /** Workers up, for `includeWorkers`. */
  all(): Worker[] {
    return [...this.busyWorkers, ...this.idleWorkers];
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

  /** True while another worker may start (scale-up stays within `workersMax`). */
  canStart(): boolean {
    return this.size < this.settings.workersMax;
  }

  /** Starts a worker that is immediately busy. */
  startBusy(): Worker {
    const w = this.create();
    this.busyWorkers.add(w);
    return w;
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
    while (this.size > this.settings.workersMax && this.idleWorkers.length > 0) this.stop(this.idleWorkers[0]!);
    for (const w of this.idleWorkers) this.armIdleTimeout(w);
    this.ensureMinimum();
  }

  /** Stops every worker (endpoint deleted, emulator closing). */
  dispose(): void {
    for (const w of [...this.idleWorkers, ...this.busyWorkers]) {
      this.scheduler.cancel(w.idle);
      this.scheduler.cancel(w.timeout);
      w.log.close();
      this.onWorker(w, "stop");
    }
    this.idleWorkers.length = 0;
    this.busyWorkers.clear();
  }

  private create(): Worker {
    const now = this.scheduler.now();
    const w = new Worker(this.newId(), now, this.onTimeout, (w) => this.onIdleTimeout(w));
    w.version = this.settings.version ?? 0;
    w.log.add(now, "system", `worker ${w.id} started (configuration version ${w.version})`);
    this.onWorker(w, "start");
    return w;
  }

  private ensureMinimum(): void {
    while (this.size < this.settings.workersMin) this.idleWorkers.push(this.create());
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
    this.scheduler.cancel(w.idle);
    this.stopped(w);
  }

  /** A worker is gone: its log says so and its followers are let go. */
  private stopped(w: Worker): void {
    w.log.add(this.scheduler.now(), "system", `worker ${w.id} stopped`);
    w.log.close();
    this.onWorker(w, "stop");
  }
}

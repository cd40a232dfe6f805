import type { Scheduler } from "../clock/scheduler";
import { cancelTimers, NO_SECRETS, type ScalingSettings, Worker, type WorkerBoot, type WorkerBooter } from "./worker";

export { type ScalingSettings, Worker, type WorkerBoot, type WorkerBooter, type WorkerImage } from "./worker";

/**
 * Most workers the emulator simulates per endpoint. The schemas put no upper bound on
 * `workersMin`/`workersMax` (the platform's bound is an account quota), and a client must not be
 * able to make the emulator allocate millions of workers; the endpoint record keeps the values given.
 */
export const MAX_SIMULATED_WORKERS = 1000;

/** How long a worker that could not start waits (platform ms) before it tries again. */
export const WORKER_BOOT_RETRY_MS = 30_000;

function capped(s: ScalingSettings): ScalingSettings {
  return {
    ...s,
    workersMin: Math.min(s.workersMin, MAX_SIMULATED_WORKERS),
    workersMax: Math.min(s.workersMax, MAX_SIMULATED_WORKERS),
  };
}

/**
 * An endpoint's simulated workers: `workersMin` are always up; more start, up
 * to `workersMax`, when jobs queue; an idle worker above the minimum stops after `idleTimeout`.
 * The pool only counts, scales and rolls; the runtime decides which job a worker runs.
 *
 * A new worker is INITIALIZING for `bootMs` (its image pulled and booted), then ready. One whose
 * container cannot start (its env names a secret the account does not have, or its container
 * exits at start) is UNHEALTHY: it holds its place among the workers (so no more start in its
 * stead), takes no job, and tries again every {@link WORKER_BOOT_RETRY_MS}, or at once when the
 * endpoint or the account's secrets change. Its log says why; it is billed only once it starts.
 *
 * A new configuration version rolls the workers (docs/emulator.md "Rolling releases"): idle,
 * starting and unhealthy workers of an older version stop at once and are replaced by workers of
 * the new one; a busy one finishes its job, then is replaced.
 */
export class WorkerPool {
  private readonly idleWorkers: Worker[] = [];
  private readonly busyWorkers = new Set<Worker>();
  private readonly unhealthyWorkers = new Set<Worker>();
  private readonly bootingWorkers = new Set<Worker>();

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

  /** Workers whose containers are being pulled and booted. */
  get booting(): number {
    return this.bootingWorkers.size;
  }

  get size(): number {
    return this.idleWorkers.length + this.busyWorkers.size + this.unhealthyWorkers.size + this.bootingWorkers.size;
  }

  /** Workers up (the starting and unhealthy ones included), for `includeWorkers`. */
  all(): Worker[] {
    return [...this.busyWorkers, ...this.idleWorkers, ...this.bootingWorkers, ...this.unhealthyWorkers];
  }

  /** Busy workers (to find the one running a job). */
  busy(): Iterable<Worker> {
    return this.busyWorkers;
  }

  /** Whether a worker runs the endpoint's current configuration version (new work goes to those). */
  isCurrent(w: Worker): boolean {
    return w.version === (this.settings.version ?? 0);
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

  /**
   * Starts a worker that is immediately busy when its container is ready at once; undefined when
   * it is still starting (the booter's `ready` says when it is) or cannot start (it waits, unhealthy).
   */
  startBusy(): Worker | undefined {
    const w = this.create();
    if (w.initializing || w.unhealthy !== undefined) return undefined;
    this.busyWorkers.add(w);
    return w;
  }

  /** The workers that could not start try again now (the account's secrets changed). */
  retryUnhealthy(): void {
    for (const w of [...this.unhealthyWorkers]) this.attemptBoot(w);
  }

  /**
   * A worker finished its job: a worker of an older version is replaced, one above the maximum
   * stops, and otherwise it waits idle.
   */
  release(w: Worker): void {
    this.busyWorkers.delete(w);
    if (!this.isCurrent(w)) {
      this.stopped(w);
      return this.replace(1, false);
    }
    if (this.size >= this.settings.workersMax) return this.stopped(w);
    this.idleWorkers.push(w);
    this.armIdleTimeout(w);
  }

  /** Applies new bounds and version: rolls older workers, starts the minimum, stops idle workers above the maximum. */
  reconfigure(settings: ScalingSettings): void {
    this.settings = capped(settings);
    const stale = [...this.idleWorkers, ...this.bootingWorkers, ...this.unhealthyWorkers].filter(
      (w) => !this.isCurrent(w),
    );
    for (const w of stale) this.stop(w);
    // Workers that cannot start go first, then idle ones; the rest try their new configuration.
    while (this.size > this.settings.workersMax && this.unhealthyWorkers.size > 0) {
      this.stop(this.unhealthyWorkers.values().next().value!);
    }
    while (this.size > this.settings.workersMax && this.idleWorkers.length > 0) this.stop(this.idleWorkers[0]!);
    for (const w of this.idleWorkers) this.armIdleTimeout(w);
    this.retryUnhealthy();
    this.replace(stale.length, false);
    this.ensureMinimum();
  }

  /** Stops every worker (endpoint deleted, emulator closing). */
  dispose(): void {
    for (const w of this.all()) {
      cancelTimers(this.scheduler, w);
      w.log.close();
      if (w.unhealthy === undefined && !w.initializing) this.onWorker(w, "stop");
    }
    this.idleWorkers.length = 0;
    this.busyWorkers.clear();
    this.unhealthyWorkers.clear();
    this.bootingWorkers.clear();
  }

  /** Starts up to `count` workers of the current version in place of replaced ones (within `workersMax`). */
  private replace(count: number, tell: boolean): void {
    for (let i = 0; i < count && this.canStart(); i++) {
      const w = this.create();
      if (w.initializing || w.unhealthy !== undefined) continue;
      this.idleWorkers.push(w);
      this.armIdleTimeout(w);
      if (tell) this.booter.ready();
    }
  }

  /** A new worker of the current version: starting (for `bootMs`), ready (the caller places it), or unhealthy. */
  private create(): Worker {
    const w = new Worker(
      this.newId(),
      this.scheduler.now(),
      this.onTimeout,
      (w) => this.onIdleTimeout(w),
      (w) => this.attemptBoot(w),
    );
    w.version = this.settings.version ?? 0;
    const bootMs = this.settings.bootMs ?? 0;
    if (bootMs <= 0) {
      this.boot(w);
      return w;
    }
    w.initializing = true;
    this.bootingWorkers.add(w);
    w.log.add(this.scheduler.now(), "system", `worker ${w.id} pulling its image and starting`);
    this.scheduler.after(w.retry, bootMs);
    return w;
  }

  /** Starts a worker's container: true when it runs; otherwise it is unhealthy, and tries again later. */
  private boot(w: Worker): boolean {
    const now = this.scheduler.now();
    const result: WorkerBoot = this.booter.boot();
    w.initializing = false;
    if (result.secrets === undefined) {
      // Said once per problem: a worker retrying for hours does not fill its log with the same line.
      if (w.unhealthy !== result.failure) {
        for (const line of result.output ?? []) w.log.add(now, "container", line);
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
    w.runs = result.runs;
    w.log.add(now, "system", `worker ${w.id} started (configuration version ${w.version})`);
    for (const line of result.lines ?? []) w.log.add(now, "system", line);
    this.onWorker(w, "start");
    return true;
  }

  /** A starting worker's boot ends, or an unhealthy one tries again; once it runs, it waits idle for work. */
  private attemptBoot(w: Worker): void {
    if (!this.bootingWorkers.has(w) && !this.unhealthyWorkers.has(w)) return;
    this.scheduler.cancel(w.retry);
    this.bootingWorkers.delete(w);
    this.unhealthyWorkers.delete(w);
    if (!this.boot(w)) return this.booter.failed?.();
    this.idleWorkers.push(w);
    this.armIdleTimeout(w);
    this.booter.ready();
  }

  private ensureMinimum(): void {
    while (this.size < this.settings.workersMin) {
      const w = this.create();
      if (!w.initializing && w.unhealthy === undefined) this.idleWorkers.push(w);
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
    this.bootingWorkers.delete(w);
    this.scheduler.cancel(w.idle);
    this.scheduler.cancel(w.retry);
    this.stopped(w);
  }

  /** A worker is gone: its log says so and its followers are let go. */
  private stopped(w: Worker): void {
    w.log.add(this.scheduler.now(), "system", `worker ${w.id} stopped`);
    w.log.close();
    if (w.unhealthy === undefined && !w.initializing) this.onWorker(w, "stop");
  }
}

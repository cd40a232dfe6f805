import type { Scheduler } from "../clock/scheduler";
import { Timer } from "../clock/scheduler";
import type { Template } from "../handlers/handler-types";
import type { Job } from "./job";
import { WorkerLog } from "./worker-log";

/** Scaling bounds of an endpoint (OpenAPI `workersMin`, `workersMax`, `idleTimeout` in seconds, as ms here). */
export interface ScalingSettings {
  workersMin: number;
  workersMax: number;
  idleTimeoutMs: number;
  /** The endpoint's configuration version (its latest release) a worker started now runs. */
  version?: number | undefined;
  /**
   * How long (platform ms) a new worker's container takes to pull its image and boot, during which
   * it is INITIALIZING and takes no work. 0 (the default here): it is ready at once.
   */
  bootMs?: number | undefined;
}

/**
 * What a worker's container runs, fixed when it starts (a release reaches a worker only by
 * replacing it): its handler, and its environment with the account secrets it names resolved.
 */
export interface WorkerImage {
  /** The container image it pulled (undefined where none is known). */
  image: string | undefined;
  template: Template | undefined;
  env: Readonly<Record<string, string>> | undefined;
}

/**
 * What starting a worker's container came to: the account secrets its env refers to, resolved
 * (kept by the worker, so a secret rotated later reaches only workers started later), with the
 * log lines saying so and what it runs; or why it cannot start (a placeholder naming no secret, a
 * container that exits at start), with what the container printed.
 */
export type WorkerBoot =
  | { secrets: ReadonlyMap<string, string>; lines?: readonly string[]; runs?: WorkerImage }
  | { failure: string; secrets?: undefined; output?: readonly string[] };

/** How a pool starts its workers' containers, and whom it tells when a worker that was not ready is. */
export interface WorkerBooter {
  /** Resolves what a container started now gets (its env's secrets), or says why it cannot start. */
  boot(): WorkerBoot;
  /** A worker that was starting (or could not start) is ready: the runtime may give it work. */
  ready(): void;
  /** An attempt to start a worker ended without a ready worker (it is unhealthy now). */
  failed?(): void;
}

/** Workers whose containers always start, with no secrets: pre-deployed models, tests. */
export const NO_SECRETS: WorkerBooter = { boot: () => ({ secrets: new Map() }), ready: () => undefined };

/** A simulated worker: starting, idle, running one job, or unable to start. */
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
  /** The endpoint configuration version it runs (v2 `Worker.version`), fixed when it is made. */
  version = 0;
  /** Its log lines (v2 worker logs). */
  readonly log = new WorkerLog();
  /** The account secrets its env refers to, as they were when its container started (by name). */
  secrets: ReadonlyMap<string, string> = new Map();
  /** What its container runs, fixed when it started; undefined where the runtime looks it up (models). */
  runs: WorkerImage | undefined = undefined;
  /** True while its container is pulled and booted (INITIALIZING). */
  initializing = false;
  /** Why its container cannot start (it takes no work and tries again), or undefined once it runs. */
  unhealthy: string | undefined = undefined;
  /** The end of its boot, or its next attempt to start while it cannot. */
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

  /** Its v2 status: INITIALIZING, UNHEALTHY, RUNNING (a job or a request) or IDLE. */
  get status(): "INITIALIZING" | "UNHEALTHY" | "RUNNING" | "IDLE" {
    if (this.initializing) return "INITIALIZING";
    if (this.unhealthy !== undefined) return "UNHEALTHY";
    return this.job || this.inFlight > 0 ? "RUNNING" : "IDLE";
  }
}

/** Cancels every timer of a worker. */
export function cancelTimers(scheduler: Scheduler, w: Worker): void {
  scheduler.cancel(w.idle);
  scheduler.cancel(w.timeout);
  scheduler.cancel(w.retry);
}

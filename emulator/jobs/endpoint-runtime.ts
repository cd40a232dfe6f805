import { JOB_DEFAULTS, type JobRequest, type JobStatus, type StreamChunk } from "../../sdk/schemas";
import { BatchRuntime } from "./batch-runtime";
import { type HealthView, JobCounts } from "./job-counts";
import { Job, renderJob } from "./job";
import { JobQueue } from "./job-queue";
import { isTerminal, type JobEvent, nextStatus } from "./job-state-machine";
import { JobWatchers } from "./job-watchers";
import { RecentRequests, type RequestSource } from "./recent-requests";
import { runHandler } from "./run-handler";
import type { RuntimeServices, RuntimeSettings } from "./runtime-settings";
import { type Worker, WorkerPool } from "./worker-pool";

/**
 * One endpoint's jobs, queue and workers: the side effects of the transitions defined in
 * `job-state-machine.ts` (timers, workers, counters, webhooks, waiters).
 */
export class EndpointRuntime {
  readonly jobs = new Map<string, Job>();
  /** The last requests submitted, for `/requests`. */
  readonly recent = new RecentRequests();
  /** The endpoint's batch jobs, on workers of their own. */
  readonly batches: BatchRuntime;
  private readonly queue = new JobQueue();
  private readonly counts = new JobCounts();
  private readonly pool: WorkerPool;
  private readonly watchers: JobWatchers;

  constructor(
    readonly endpointId: string,
    private settings: RuntimeSettings,
    private readonly services: RuntimeServices,
  ) {
    this.watchers = new JobWatchers(services.scheduler);
    this.batches = new BatchRuntime(endpointId, settings, services);
    this.pool = new WorkerPool(
      settings,
      services.scheduler,
      services.newWorkerId,
      (w) => this.timeOut(w),
      (w, event) => services.onWorker?.(endpointId, w.id, event),
      {
        boot: () => services.bootWorker?.(endpointId) ?? { secrets: new Map() },
        // A worker that could not start has: give it the queued jobs.
        ready: () => this.pump(),
      },
    );
  }

  /** Applies new endpoint settings; running jobs continue. */
  configure(settings: RuntimeSettings): void {
    this.settings = settings;
    this.pool.reconfigure(settings);
    this.batches.configure(settings);
    this.pump();
  }

  /** A submitted job enters IN_QUEUE; its TTL starts now (docs/platform.md "States and transitions"). */
  submit(request: JobRequest, retentionMs: number, source: RequestSource = "run"): Job {
    const now = this.services.scheduler.now();
    const policy = request.policy ?? {};
    const extras =
      request.webhook || request.s3Config ? { webhook: request.webhook, s3Config: request.s3Config } : undefined;
    const job = new Job(
      this.services.newJobId(),
      this,
      request.input,
      now,
      now + (policy.ttl ?? JOB_DEFAULTS.ttlMs),
      policy.executionTimeout ?? this.settings.executionTimeoutMs,
      retentionMs,
      policy.lowPriority === true,
      extras,
    );
    this.jobs.set(job.id, job);
    this.recent.add(job, source, now);
    this.counts.add("IN_QUEUE");
    this.services.scheduler.at(job, job.ttlAt);
    this.queue.push(job);
    this.pump();
    return job;
  }

  /** Table rows 2-3 (rule 5). A terminal job keeps its state; the caller answers its current status. */
  cancel(job: Job): JobStatus {
    this.move(job, "cancel", true);
    return job.status;
  }

  /** Table row 4 (rules 1, 2, 6): requeues a FAILED or TIMED_OUT job; false when not allowed. */
  retry(job: Job): boolean {
    const to = nextStatus(job.status, "retry");
    if (to === undefined || to === "deleted") return false;
    this.setStatus(job, to);
    this.counts.retry(job.retries++ === 0);
    job.output = undefined;
    job.error = undefined;
    job.chunks = undefined;
    job.startedAt = -1;
    job.finishedAt = -1;
    job.queuedAt = this.services.scheduler.now();
    // Results no longer need retention; the TTL from submission still applies (rule 4).
    this.services.scheduler.at(job, job.ttlAt);
    this.queue.push(job);
    this.pump();
    return true;
  }

  /** Table row 6 (rule 7): deletes every pending job; running jobs continue. Returns how many. */
  purge(): number {
    const pending = [...this.queue.all()];
    for (const job of pending) {
      if (nextStatus(job.status, "purge") === "deleted") this.remove(job);
    }
    return pending.length;
  }

  /** Rule 3 of the job operations: `/status?ttl=` sets this job's time to live, from now. */
  setTtl(job: Job, ttlMs: number): void {
    job.ttlAt = this.services.scheduler.now() + ttlMs;
    this.services.scheduler.at(job, job.ttlAt);
  }

  /** Table row 5: TTL (or retention) expiry deletes the job in any state, even while it runs. */
  expire(job: Job): void {
    if (this.jobs.get(job.id) === job) this.remove(job);
  }

  /** Resolves when `done(job)` holds after a change, when the job is deleted, or after `ms` platform ms. */
  waitFor(job: Job, ms: number, done: (job: Job) => boolean): Promise<void> {
    return this.watchers.wait(job, ms, done, (j) => this.jobs.get(j.id) !== j);
  }

  /** The health result (docs/platform.md "Job record"): counts of held jobs by state and of workers. */
  health(): HealthView {
    const pool = this.pool;
    return this.counts.health({
      idle: pool.idle,
      running: pool.running,
      initializing: pool.booting,
      unhealthy: pool.unhealthy,
    });
  }

  /** Counts of held jobs by exact state. */
  jobCounts(): ReturnType<JobCounts["snapshot"]> {
    return this.counts.snapshot();
  }

  /** Workers currently up. */
  workers(): Worker[] {
    return this.pool.all();
  }

  /** Workers that could not start (a missing secret) try again now. */
  retryUnhealthyWorkers(): void {
    this.pool.retryUnhealthy();
  }

  /** Workers currently running a job (the dynamic rate-limit rule counts them). */
  get runningWorkers(): number {
    return this.pool.running;
  }

  /** Stops everything: aborts running handlers, drops jobs and timers, releases waiters. */
  dispose(): void {
    for (const w of this.pool.busy()) w.abort?.abort();
    this.pool.dispose();
    this.batches.dispose();
    for (const job of this.jobs.values()) this.services.scheduler.cancel(job);
    this.jobs.clear();
    this.recent.clear();
    this.watchers.releaseAll();
  }

  /** Gives queued jobs to idle workers, then starts workers for normal jobs (lowPriority never scales). */
  private pump(): void {
    while (this.queue.size > 0) {
      const w = this.pool.takeIdle();
      if (!w) break;
      this.start(w, this.queue.shiftOldest()!);
    }
    // A worker starting takes the next queued job once ready; a worker that cannot start holds its
    // place (canStart turns false) and leaves the job queued.
    while (this.queue.normalSize > this.pool.booting && this.pool.canStart()) {
      const w = this.pool.startBusy();
      if (w) this.start(w, this.queue.shiftNormal()!);
    }
  }

  private start(worker: Worker, job: Job): void {
    const scheduler = this.services.scheduler;
    this.setStatus(job, nextStatus(job.status, "start") as JobStatus);
    job.startedAt = scheduler.now();
    const run = ++worker.run;
    const abort = new AbortController();
    worker.job = job;
    worker.abort = abort;
    scheduler.after(worker.timeout, job.executionTimeoutMs);
    this.notify(job);
    worker.log.add(job.startedAt, "container", `job ${job.id} started`);
    const emit = (chunk: StreamChunk) => {
      if (worker.run !== run || worker.job !== job) return false;
      if (job.chunks) job.chunks.push(chunk);
      else job.chunks = [chunk];
      this.notify(job);
      return true;
    };
    const handled = { id: job.id, input: job.input, s3Config: job.extras?.s3Config };
    const outcome = runHandler(this.endpointId, this.settings, this.services, worker, handled, abort.signal, emit);
    outcome.then(
      (output) => this.finish(worker, run, "complete", output),
      (error: unknown) => this.finish(worker, run, "fail", error instanceof Error ? error.message : String(error)),
    );
  }

  private finish(worker: Worker, run: number, event: "complete" | "fail", value: unknown): void {
    const job = worker.job;
    if (worker.run !== run || !job) return;
    const took = this.services.scheduler.now() - job.startedAt;
    worker.log.add(
      this.services.scheduler.now(),
      "container",
      event === "complete" ? `job ${job.id} completed in ${took} ms` : `job ${job.id} failed: ${String(value)}`,
    );
    this.endRun(worker);
    if (event === "complete") job.output = value;
    else job.error = String(value);
    this.move(job, event, false);
  }

  /** The execution timeout fires only while the worker executes the job. */
  private timeOut(worker: Worker): void {
    const job = worker.job;
    if (!job) return;
    this.stop(worker);
    job.error = `execution timeout of ${job.executionTimeoutMs} ms exceeded`;
    this.move(job, "timeOut", false);
  }

  /** Applies a transition to a terminal state and its effects; false when the state machine refuses it. */
  private move(job: Job, event: JobEvent, fromOutside: boolean): boolean {
    const to = nextStatus(job.status, event);
    if (to === undefined || to === "deleted") return false;
    const wasRunning = job.status === "IN_PROGRESS";
    if (fromOutside && wasRunning) this.stop(this.workerOf(job));
    if (job.status === "IN_QUEUE") this.queue.remove(job);
    const scheduler = this.services.scheduler;
    this.setStatus(job, to);
    if (wasRunning) job.finishedAt = scheduler.now();
    // Retention after completion, but never beyond the TTL (table row 5: TTL applies in any state).
    scheduler.at(job, Math.min(job.ttlAt, scheduler.now() + job.retentionMs));
    this.notify(job);
    const webhook = job.extras?.webhook;
    if (webhook && wasRunning) this.services.webhooks.send(webhook, renderJob(job));
    this.pump();
    return true;
  }

  /** The worker is done with its job: its timeout is cleared and it is free (a late result is ignored, see `finish`). */
  private endRun(worker: Worker): void {
    this.services.scheduler.cancel(worker.timeout);
    worker.job = undefined;
    worker.abort = undefined;
    this.pool.release(worker);
  }

  /** Stops a running handler (cancel, timeout, expiry) and frees its worker. */
  private stop(worker: Worker | undefined): void {
    if (!worker) return;
    worker.abort?.abort();
    this.endRun(worker);
  }

  private workerOf(job: Job): Worker | undefined {
    for (const w of this.pool.busy()) if (w.job === job) return w;
    return undefined;
  }

  private remove(job: Job): void {
    this.recent.removed(job, isTerminal(job.status), this.services.scheduler.now());
    if (job.status === "IN_PROGRESS") this.stop(this.workerOf(job));
    this.queue.remove(job);
    this.services.scheduler.cancel(job);
    this.jobs.delete(job.id);
    this.counts.remove(job.status, job.retries > 0);
    this.notify(job);
    this.pump();
  }

  private setStatus(job: Job, to: JobStatus): void {
    this.counts.move(job.status, to);
    job.status = to;
  }

  private notify(job: Job): void {
    this.watchers.notify(job);
  }
}

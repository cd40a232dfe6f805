import { type JobRequest, LIMITS } from "../../sdk/schemas";
import { BatchChild, BatchRecord, newBatchId } from "./batch";
import { runHandler } from "./run-handler";
import type { RuntimeServices, RuntimeSettings } from "./runtime-settings";
import { type ScalingSettings, type Worker, WorkerPool } from "./worker-pool";

/** A batch operation refused: the status and error code of the answer, and why. */
export class BatchRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 429,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Batch workers scale from zero (a batch is offline work), up to the endpoint's `workersMax`. */
function batchScaling(settings: RuntimeSettings): ScalingSettings {
  return { ...settings, workersMin: 0 };
}

/** What a busy batch worker runs. */
interface Run {
  child: BatchChild;
  abort: AbortController;
  /** The worker's run number when it started: a late result of an abandoned run is ignored. */
  run: number;
}

/**
 * One endpoint's batch jobs (docs/platform.md "Batch jobs"): the batches, one queue of the
 * requests of its finalized batches, and workers of their own, apart from `/run` traffic, running
 * the endpoint's handler. The platform's limits are enforced here (`LIMITS`): 10 active batches
 * and 5,000 requests a batch, which together hold the 50,000 queued requests an endpoint may have.
 */
export class BatchRuntime {
  private readonly batches = new Map<string, BatchRecord>();
  /** Requests of finalized batches waiting for a worker, oldest first; a cancelled one is skipped. */
  private queue: BatchChild[] = [];
  private head = 0;
  private readonly pool: WorkerPool;
  private readonly runs = new Map<Worker, Run>();

  constructor(
    private readonly endpointId: string,
    private settings: RuntimeSettings,
    private readonly services: RuntimeServices,
  ) {
    this.pool = new WorkerPool(
      batchScaling(settings),
      services.scheduler,
      services.newWorkerId,
      (w) => this.timeOut(w),
      (w, event) => services.onWorker?.(endpointId, w.id, event),
      { boot: () => services.bootWorker?.(endpointId) ?? { secrets: new Map() }, ready: () => this.pump() },
    );
  }

  /** Applies new endpoint settings; running requests go on. */
  configure(settings: RuntimeSettings): void {
    this.settings = settings;
    this.pool.reconfigure(batchScaling(settings));
    this.pump();
  }

  /** The endpoint's batches, newest first. */
  list(): BatchRecord[] {
    return [...this.batches.values()].reverse();
  }

  /** A batch, or a 404 refusal. */
  get(id: string): BatchRecord {
    const batch = this.batches.get(id);
    if (!batch) throw new BatchRefusal(404, "not_found", `batch ${id} not found on endpoint ${this.endpointId}`);
    return batch;
  }

  /** A new DRAFT batch, holding `requests`. */
  create(requests: readonly JobRequest[]): BatchRecord {
    const active = [...this.batches.values()].filter((b) => b.active).length;
    if (active >= LIMITS.activeBatches) {
      throw new BatchRefusal(
        429,
        "too_many_active_batches",
        `endpoint ${this.endpointId} has ${active} active batches, the most it may have (${LIMITS.activeBatches}); ` +
          "wait for one to finish or cancel one",
      );
    }
    this.checkRoom(undefined, requests.length);
    const batch = new BatchRecord(newBatchId(), this.endpointId, this.services.scheduler.now());
    this.batches.set(batch.id, batch);
    this.add(batch, requests);
    return batch;
  }

  /** Appends requests to a DRAFT batch. */
  append(id: string, requests: readonly JobRequest[]): BatchRecord {
    const batch = this.draft(this.get(id), "append requests to");
    this.checkRoom(batch, requests.length);
    this.add(batch, requests);
    return batch;
  }

  /** Removes one request from a DRAFT batch. */
  remove(id: string, requestId: string): void {
    const batch = this.draft(this.get(id), "remove requests from");
    const at = batch.children.findIndex((c) => c.id === requestId);
    if (at < 0) throw new BatchRefusal(404, "not_found", `request ${requestId} not found in batch ${id}`);
    batch.children.splice(at, 1);
  }

  /** Locks a DRAFT batch and queues its requests; a FINALIZED one is answered as it is. */
  finalize(id: string): BatchRecord {
    const batch = this.get(id);
    if (batch.status === "FINALIZED") return batch;
    this.draft(batch, "finalize");
    batch.status = "FINALIZED";
    for (const child of batch.children) this.queue.push(child);
    this.pump();
    return batch;
  }

  /**
   * Cancels a batch: its queued requests at once; the running ones finish, and then it is
   * CANCELLED. A batch that ended (done, FAILED, CANCELLED) is answered as it is.
   */
  cancel(id: string): BatchRecord {
    const batch = this.get(id);
    if (!batch.active || batch.cancelling) return batch;
    for (const child of batch.children) {
      if (child.status !== "IN_QUEUE") continue;
      child.status = "CANCELLED";
    }
    if (batch.inProgress === 0) batch.status = "CANCELLED";
    else batch.cancelling = true;
    return batch;
  }

  /**
   * Fails an active batch as a whole (`POST /_emulator/.../fail`, what a failure on the platform's
   * side does): FAILED at once, its queued requests FAILED without running, the running ones finish.
   */
  fail(id: string, reason: string): BatchRecord {
    const batch = this.get(id);
    if (!batch.active) return batch;
    for (const child of batch.children) {
      if (child.status !== "IN_QUEUE") continue;
      child.status = "FAILED";
      child.error = reason;
      batch.failed++;
    }
    batch.status = "FAILED";
    batch.cancelling = false;
    return batch;
  }

  /** Sets a batch's display name. */
  rename(id: string, name: string): BatchRecord {
    const batch = this.get(id);
    batch.name = name;
    return batch;
  }

  /** Stops every worker and forgets the batches (the endpoint is deleted, or the emulator closes). */
  dispose(): void {
    for (const run of this.runs.values()) run.abort.abort();
    this.runs.clear();
    this.pool.dispose();
    this.batches.clear();
    this.queue = [];
    this.head = 0;
  }

  private draft(batch: BatchRecord, what: string): BatchRecord {
    if (batch.status === "DRAFT") return batch;
    throw new BatchRefusal(
      400,
      "batch_not_draft",
      `cannot ${what} batch ${batch.id}: it is ${batch.status}, and only a DRAFT batch can change`,
    );
  }

  /** Refuses `count` more requests past the batch's limit. */
  private checkRoom(batch: BatchRecord | undefined, count: number): void {
    const total = (batch?.children.length ?? 0) + count;
    if (total > LIMITS.batchRequests) {
      const had = batch ? `batch ${batch.id} holds ${batch.children.length}, and ` : "";
      throw new BatchRefusal(
        400,
        "batch_too_large",
        `${had}${count} requests would make ${total}, more than a batch holds (${LIMITS.batchRequests}); ` +
          "put the rest into another batch",
      );
    }
  }

  private add(batch: BatchRecord, requests: readonly JobRequest[]): void {
    for (const request of requests) batch.children.push(new BatchChild(this.services.newJobId(), batch, request));
  }

  /** Gives queued requests to idle workers, then starts workers while it may. */
  private pump(): void {
    for (;;) {
      const child = this.peek();
      if (!child) return;
      const worker = this.pool.takeIdle() ?? (this.pool.canStart() ? this.pool.startBusy() : undefined);
      if (!worker) return;
      this.head++;
      this.start(worker, child);
    }
  }

  /** The oldest request still queued, dropping cancelled ones from the front. */
  private peek(): BatchChild | undefined {
    while (this.head < this.queue.length && this.queue[this.head]!.status !== "IN_QUEUE") this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return this.queue[this.head];
  }

  private start(worker: Worker, child: BatchChild): void {
    const scheduler = this.services.scheduler;
    child.status = "IN_PROGRESS";
    child.startedAt = scheduler.now();
    child.batch.inProgress++;
    const run: Run = { child, abort: new AbortController(), run: ++worker.run };
    this.runs.set(worker, run);
    scheduler.after(worker.timeout, child.executionTimeoutMs ?? this.settings.executionTimeoutMs);
    worker.log.add(child.startedAt, "container", `batch ${child.batch.id}: request ${child.id} started`);
    // A batch request has no /stream: chunks of a streaming handler are dropped, its output kept.
    runHandler(this.endpointId, this.settings, this.services, worker, child, run.abort.signal, () => true).then(
      (output) => this.finish(worker, run.run, true, output),
      (error: unknown) => this.finish(worker, run.run, false, error instanceof Error ? error.message : String(error)),
    );
  }

  private finish(worker: Worker, runNumber: number, ok: boolean, value: unknown): void {
    const run = this.runs.get(worker);
    if (!run || run.run !== runNumber) return;
    const { child } = run;
    const batch = child.batch;
    this.runs.delete(worker);
    this.services.scheduler.cancel(worker.timeout);
    this.pool.release(worker);
    child.completedAt = this.services.scheduler.now();
    batch.inProgress--;
    if (ok) {
      child.status = "COMPLETED";
      child.output = value;
      batch.completed++;
    } else {
      child.status = "FAILED";
      child.error = String(value);
      batch.failed++;
    }
    worker.log.add(child.completedAt, "container", `batch ${batch.id}: request ${child.id} ${child.status}`);
    if (batch.cancelling && batch.inProgress === 0) batch.status = "CANCELLED";
    this.pump();
  }

  /** The request ran past its execution timeout: it FAILED, and its handler is stopped. */
  private timeOut(worker: Worker): void {
    const run = this.runs.get(worker);
    if (!run) return;
    run.abort.abort();
    const limit = run.child.executionTimeoutMs ?? this.settings.executionTimeoutMs;
    this.finish(worker, run.run, false, `execution timeout of ${limit} ms exceeded`);
  }
}

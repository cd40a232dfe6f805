import { AbortError, RequestValidationError, RunpodError } from "../errors";
import { sleepUnlessAborted } from "../polling";
import { HealthSchema, RATE_WINDOW_MS } from "../schemas";
import { Transport } from "../transport";
import { BatchApiRun } from "./batch-api-run";
import { type BatchEntry, type BatchInputs, InputReader, runBody } from "./batch-inputs";
import {
  type BatchOutcome,
  type ResolvedSubmitManyOptions,
  resolveSubmitManyOptions,
  type SubmitManyOptions,
} from "./batch-options";
import { type BatchControl, ResultCollector } from "./batch-results";
import { submitEntry } from "./batch-submit";
import { type EndpointPacers, endpointPacers } from "./endpoint-pacers";
import { gridDelay } from "./wake-grid";

export type { BatchInputs } from "./batch-inputs";

/**
 * Runs a batch (see {@link EndpointJobs.submitMany}). Checks the arguments at once (a bad one
 * throws a RequestValidationError naming it) and answers the outcomes as an async iterator.
 */
export function submitMany<I, O>(
  owner: Transport,
  endpointId: string,
  inputs: BatchInputs<I>,
  options: SubmitManyOptions | undefined,
): AsyncGenerator<BatchOutcome<O>, void, undefined> {
  const context = `submitMany on ${endpointId}`;
  const iterable = typeof inputs === "object" && inputs !== null;
  if (!iterable || !(Symbol.iterator in inputs || Symbol.asyncIterator in inputs)) {
    const value = inputs === null ? "null" : typeof inputs;
    throw new RequestValidationError(
      [{ field: "inputs", value, rule: "must be an iterable or async iterable of job requests" }],
      context,
    );
  }
  const resolved = resolveSubmitManyOptions(options, context);
  if (resolved.submitWith === "batch")
    return new BatchApiRun<I, O>(owner, endpointId, inputs, resolved, context).outcomes();
  return new Batch<I, O>(owner, endpointId, inputs, resolved).outcomes();
}

/**
 * One batch. Each input read becomes a {@link BatchEntry} handled by its own async task (`handle`:
 * submit (batch-submit.ts), then collect (batch-results.ts)), and every path of that task ends in
 * exactly one call of `finish`, which queues the outcome for the iterator. At most `concurrency`
 * entries exist at once (an entry counts until its outcome has been taken by the caller), so memory
 * does not grow with the number of inputs, and a caller who stops reading stops the batch.
 */
class Batch<I, O> implements BatchControl<O> {
  /** One attempt per request: the batch retries itself, paced, and never resends a `/run` blindly. */
  readonly transport: Transport;
  readonly pacers: EndpointPacers;
  readonly prefix: string;
  private readonly reader: InputReader<I>;
  private readonly results: ResultCollector<O>;
  /** Aborts every wait and read of the batch (the caller's signal, a fatal error, or the end). */
  private readonly stop = new AbortController();
  private readonly ready: BatchOutcome<O>[] = [];
  private inProgress = 0;
  private readingDone = false;
  halted = false;
  private fatal: RunpodError | undefined;
  private readError: { error: unknown } | undefined;
  private change: { promise: Promise<void>; resolve: () => void } | undefined;
  /**
   * Wakers of the entries' sleeps, called with false when the batch stops. One set rather than
   * an abort listener per sleep: a thousand entries waiting to poll would make every listener's
   * removal a scan of the other listeners.
   */
  private readonly sleepers = new Set<(completed: boolean) => void>();

  constructor(
    owner: Transport,
    private readonly endpointId: string,
    inputs: BatchInputs<I>,
    readonly options: ResolvedSubmitManyOptions,
  ) {
    this.transport = new Transport({ ...owner.config, maxAttempts: 1 });
    this.pacers = endpointPacers(owner, endpointId, options.limits);
    this.reader = new InputReader(inputs);
    this.prefix = `/${encodeURIComponent(endpointId)}/`;
    this.results = new ResultCollector(this);
  }

  get stopSignal(): AbortSignal {
    return this.stop.signal;
  }

  async *outcomes(): AsyncGenerator<BatchOutcome<O>, void, undefined> {
    const signal = this.options.signal;
    const onAbort = () => this.halt(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) this.halt(undefined);
    void this.readLoop();
    if (this.options.requestsPerWorker !== undefined) void this.healthLoop(this.options.requestsPerWorker);
    try {
      for (;;) {
        const next = this.ready.shift();
        if (next) {
          this.inProgress--;
          this.notify();
          yield next;
          continue;
        }
        if (this.readingDone && this.inProgress === 0) break;
        await this.changed();
      }
      if (this.readError) throw this.readError.error;
      if (this.fatal) throw this.fatal;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.halt(undefined);
      void this.reader.stop().catch(() => undefined);
      void this.transport.close().catch(() => undefined);
    }
  }

  /** Reads inputs while fewer than `concurrency` are in progress, and starts a task for each. */
  private async readLoop(): Promise<void> {
    try {
      for (;;) {
        if (this.halted) break;
        if (this.inProgress >= this.options.concurrency) {
          await this.changed();
          continue;
        }
        const item = await this.reader.read();
        if (!item) break;
        this.inProgress++;
        const entry: BatchEntry = {
          index: item.index,
          body: undefined,
          jobId: undefined,
          submittedAt: 0,
          reported: false,
        };
        const body = runBody(item.request, item.index, this.options, this.endpointId);
        if (typeof body !== "string") this.finish(entry, { kind: "error", index: entry.index, error: body });
        else if (this.halted) this.finishStopped(entry, "run");
        else {
          entry.body = body;
          void this.handle(entry);
        }
      }
    } catch (error) {
      // The caller's iterator threw: what was read still ends, then the iterator rethrows it.
      this.readError = { error };
    } finally {
      if (this.halted) await this.reader.stop().catch(() => undefined);
      this.readingDone = true;
      this.notify();
    }
  }

  /** One input from submission to outcome. */
  private async handle(entry: BatchEntry): Promise<void> {
    try {
      if (!(await submitEntry(this, entry))) return;
      if (!this.options.waitForResults)
        this.finish(entry, { kind: "submitted", index: entry.index, jobId: entry.jobId! });
      else if (this.halted) this.finishStopped(entry, "status");
      else if (this.options.collectWith === "stream") await this.results.follow(entry);
      else await this.results.collect(entry);
    } catch (error) {
      // Not expected (every failure above is classified), but the input still gets its one outcome.
      const wrapped =
        error instanceof RunpodError ? error : new RunpodError("api_error", String(error), { cause: error });
      this.finish(entry, { kind: "error", index: entry.index, jobId: entry.jobId, error: wrapped });
    }
  }

  /** Waits `ms`; resolves true, or false at once when the batch stops. */
  sleep(ms: number): Promise<boolean> {
    if (this.halted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (completed: boolean) => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(completed);
      };
      const timer = setTimeout(wake, gridDelay(ms), true);
      this.sleepers.add(wake);
    });
  }

  /** Reads `/health` once per window and moves the stated limits with the running workers (platform's dynamic rule). */
  private async healthLoop(requestsPerWorker: number): Promise<void> {
    const windowMs = this.options.limits.run?.windowMs ?? RATE_WINDOW_MS;
    while (!this.halted) {
      try {
        const health = await this.transport.send({
          method: "GET",
          base: this.transport.config.queueUrl,
          path: `${this.prefix}health`,
          idempotent: true,
          schema: HealthSchema,
          options: { signal: this.stop.signal },
        });
        const dynamic = health.workers.running * requestsPerWorker;
        for (const pacer of Object.values(this.pacers)) pacer.setStatedLimit(dynamic);
      } catch {
        // The last known limits stay; /health is only a hint.
      }
      if (!(await sleepUnlessAborted(windowMs, this.stop.signal))) return;
    }
  }

  /** Stops reading and waiting: the caller aborted (no error) or nothing can succeed (`fatal`). */
  halt(fatal: RunpodError | undefined): void {
    if (this.halted) return;
    this.halted = true;
    this.fatal = fatal;
    this.stop.abort();
    for (const wake of [...this.sleepers]) wake(false);
    this.notify();
  }

  /** Reports an error outcome; always false (so paths can `return this.fail(...)`). */
  fail(entry: BatchEntry, error: RunpodError): false {
    this.finish(entry, { kind: "error", index: entry.index, ...(entry.jobId ? { jobId: entry.jobId } : {}), error });
    return false;
  }

  /** Reports the entry of a stopped batch: `aborted`, or the fatal error that stopped it. Always false. */
  finishStopped(entry: BatchEntry, op: string): false {
    if (this.fatal) return this.fail(entry, this.fatal);
    const path = op.startsWith("/") ? op : `${this.prefix}${op}`;
    const error = new AbortError({ method: op === "run" ? "POST" : "GET", path });
    this.finish(entry, { kind: "aborted", index: entry.index, ...(entry.jobId ? { jobId: entry.jobId } : {}), error });
    return false;
  }

  /** Queues the one outcome of an entry. */
  finish(entry: BatchEntry, outcome: BatchOutcome<O>): void {
    if (entry.reported) return;
    entry.reported = true;
    this.ready.push(outcome);
    this.notify();
  }

  private changed(): Promise<void> {
    if (!this.change) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.change = { promise, resolve };
    }
    return this.change.promise;
  }

  private notify(): void {
    const change = this.change;
    this.change = undefined;
    change?.resolve();
  }
}

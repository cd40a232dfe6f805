import type { z } from "zod";
import { AbortError, type RunpodError, TimeoutError } from "../errors";
import { backoffDelay } from "../retry-policy";
import { type JobRecord, JobRecordSchema, StreamResponseSchema, TERMINAL_JOB_STATUSES } from "../schemas";
import type { Transport } from "../transport";
import { classifyReadFailure, retryAfterOf } from "./batch-failures";
import type { BatchEntry } from "./batch-inputs";
import type { BatchOutcome, ResolvedSubmitManyOptions } from "./batch-options";
import type { EndpointPacers } from "./endpoint-pacers";
import type { OperationPacer } from "./operation-pacer";

/** Refusals (429, 502-504, a connection that never opened) of one read before its input is reported as an error. */
const MAX_REFUSALS = 20;
/** Failed reads in a row (connection, timeout, 5xx) of one job before its input is reported as an error. */
const MAX_READ_FAILURES = 10;
/** Backoff between reads when the platform gave no `Retry-After`. */
const BACKOFF = { baseDelayMs: 250, maxDelayMs: 20_000 };

/** What collecting results needs from its batch (submit-many.ts). */
export interface BatchControl<O> {
  readonly transport: Transport;
  readonly pacers: EndpointPacers;
  /** `/<endpoint id>/`, encoded. */
  readonly prefix: string;
  readonly options: ResolvedSubmitManyOptions;
  /** Aborts reads that may be held open (`/stream`) when the batch stops. */
  readonly stopSignal: AbortSignal;
  /** True once the batch stops (aborted, fatal, or ended). */
  readonly halted: boolean;
  /** Stops the batch because nothing can succeed. */
  halt(fatal: RunpodError): void;
  /** Waits `ms`; false at once when the batch stops. */
  sleep(ms: number): Promise<boolean>;
  /** Queues the one outcome of an entry. */
  finish(entry: BatchEntry, outcome: BatchOutcome<O>): void;
  /** Reports an error outcome; always false. */
  fail(entry: BatchEntry, error: RunpodError): false;
  /** Reports the entry of a stopped batch; always false. */
  finishStopped(entry: BatchEntry, op: string): false;
}

/**
 * Collects the results of submitted jobs: `/status` polled every `pollIntervalMs`, or `/stream`
 * followed, each read paced and read again after refusals and transient failures (reads are
 * idempotent), within each job's result deadline. Every path ends its entry through the batch.
 */
export class ResultCollector<O> {
  constructor(private readonly b: BatchControl<O>) {}

  /** Polls `/status` every `pollIntervalMs` until the job ends. */
  async collect(entry: BatchEntry): Promise<void> {
    const path = `${this.b.prefix}status/${encodeURIComponent(entry.jobId!)}`;
    for (;;) {
      if (!(await this.pause(entry, this.b.options.pollIntervalMs, path))) return;
      const record = await this.read(entry, this.b.pacers.status, path, JobRecordSchema);
      if (!record) return;
      if (TERMINAL_JOB_STATUSES.has(record.status)) {
        return this.b.finish(entry, {
          kind: "ended",
          index: entry.index,
          jobId: entry.jobId!,
          job: record as JobRecord<O>,
        });
      }
    }
  }

  /** Follows `/stream` until the job ends, keeping its chunks, then reads its final record. */
  async follow(entry: BatchEntry): Promise<void> {
    const id = encodeURIComponent(entry.jobId!);
    const streamPath = `${this.b.prefix}stream/${id}`;
    const statusPath = `${this.b.prefix}status/${id}`;
    const chunks: unknown[] = [];
    for (;;) {
      const answer = await this.read(entry, this.b.pacers.stream, streamPath, StreamResponseSchema);
      if (!answer) return;
      for (const chunk of answer.stream) chunks.push(chunk);
      // A bare array (the platform's shape) carries no status: ask `/status` whether the job ended.
      const status = answer.status ?? (answer.stream.length === 0 ? await this.statusOf(entry, statusPath) : undefined);
      if (status === null) return;
      if (status !== undefined && TERMINAL_JOB_STATUSES.has(status)) {
        // Ended after that bare array: one more read takes the chunks made before its end.
        if (answer.status === undefined) {
          const last = await this.read(entry, this.b.pacers.stream, streamPath, StreamResponseSchema);
          if (!last) return;
          for (const chunk of last.stream) chunks.push(chunk);
        }
        break;
      }
      if (answer.stream.length === 0 && !(await this.pause(entry, this.b.options.pollIntervalMs, streamPath))) return;
    }
    const record = await this.read(entry, this.b.pacers.status, statusPath, JobRecordSchema);
    if (!record) return;
    this.b.finish(entry, {
      kind: "ended",
      index: entry.index,
      jobId: entry.jobId!,
      job: record as JobRecord<O>,
      stream: chunks,
    });
  }

  /** The job's status, or null when the entry was finished instead. */
  async statusOf(entry: BatchEntry, path: string): Promise<JobRecord["status"] | null> {
    const record = await this.read(entry, this.b.pacers.status, path, JobRecordSchema);
    return record ? record.status : null;
  }

  /**
   * One read of a job, paced by `pacer`, read again after refusals and transient failures; the
   * answer, or undefined once the entry was finished (gone, fatal, too many failures, stopped).
   */
  async read<S extends z.ZodType>(
    entry: BatchEntry,
    pacer: OperationPacer,
    path: string,
    schema: S,
  ): Promise<z.output<S> | undefined> {
    let refusals = 0;
    let failures = 0;
    for (;;) {
      if (!(await pacer.acquire(this.b.stopSignal))) {
        this.b.finishStopped(entry, path);
        return undefined;
      }
      try {
        const answer = await this.b.transport.send({
          method: "GET",
          base: this.b.transport.config.queueUrl,
          path,
          idempotent: true,
          schema: schema as z.ZodType<z.output<S>>,
          // Only /stream, which the platform may hold open for seconds, is cut short by a stop;
          // a /status answers at once (and one abort listener per read would cost more).
          options: pacer === this.b.pacers.stream ? { signal: this.b.stopSignal } : undefined,
        });
        pacer.release({ refused: false });
        if (this.b.halted) {
          this.b.finishStopped(entry, path);
          return undefined;
        }
        return answer;
      } catch (error) {
        const kind = classifyReadFailure(error);
        const retryAfterMs = retryAfterOf(error);
        pacer.release(kind === "rate-limited" ? { refused: true, retryAfterMs } : { refused: false });
        if (error instanceof AbortError || this.b.halted) {
          this.b.finishStopped(entry, path);
          return undefined;
        }
        const failure = error as RunpodError;
        if (kind === "fatal") this.b.halt(failure);
        const givenUp =
          kind === "fatal" ||
          kind === "rejected" ||
          (kind === "maybe-delivered" ? ++failures > MAX_READ_FAILURES : ++refusals > MAX_REFUSALS);
        if (givenUp) {
          this.b.fail(entry, failure);
          return undefined;
        }
        const delay = retryAfterMs ?? backoffDelay(refusals + failures, BACKOFF);
        if (!(await this.pause(entry, delay, path))) return undefined;
      }
    }
  }

  /** Waits `ms` within the job's result deadline; false once the entry was finished (deadline passed, stopped). */
  async pause(entry: BatchEntry, ms: number, path: string): Promise<boolean> {
    const left = entry.submittedAt + this.b.options.resultTimeoutMs - Date.now();
    if (left <= 0) {
      const error = new TimeoutError({ method: "GET", path }, this.b.options.resultTimeoutMs);
      return this.b.fail(entry, error);
    }
    if (await this.b.sleep(Math.min(ms, left))) return true;
    return this.b.finishStopped(entry, path);
  }
}

import { serializeWithinLimit, validateRequest } from "../request-validation";
import {
  type Health,
  HealthSchema,
  type JobAck,
  JobAckSchema,
  type JobRecord,
  JobRecordSchema,
  type JobRequest,
  JobRequestSchema,
  LIMITS,
  type PurgeResult,
  PurgeResultSchema,
  type RecentRequests,
  RecentRequestsSchema,
  RunSyncWaitSchema,
  StatusTtlSchema,
  type StreamChunk,
} from "../schemas";
import type { CallOptions, Transport } from "../transport";
import type { PollOptions, RunSyncOptions, StatusOptions } from "./job-options";
import { type BatchOutcome, RateLimitOverrideSchema, type SubmitManyOptions } from "./batch-options";
import { dispatcherFetch } from "./dispatcher-fetch";
import { EndpointBatches } from "./endpoint-batches";
import { streamJob, waitForJob } from "./job-polling";
import { callPacer, type RateLimitOverride } from "./endpoint-pacers";
import { pacedFetch, withPermit } from "./paced-calls";
import { type BatchInputs, submitMany } from "./submit-many";

export type { PollOptions, RunSyncOptions, StatusOptions } from "./job-options";

/** Options of {@link EndpointJobs.openAiFetch}. */
export interface OpenAiFetchOptions {
  /** Sends each request (default: undici's own dispatch, see dispatcher-fetch.ts). */
  fetch?: typeof fetch | undefined;
  /**
   * The endpoint's `/openai/*` limit, when it is not the table's 2000 per 10 s and 400 at once:
   * an account with raised limits, or the dynamic rule (running workers x `requests_per_worker`).
   */
  limit?: RateLimitOverride | undefined;
}

/**
 * Job operations of one queue-based endpoint or pre-deployed model (`{queueUrl}/<id>/...`).
 * Get one with `client.jobs(endpointId)`.
 */
export class EndpointJobs {
  /** `/<endpoint id>/`, encoded once. */
  private readonly prefix: string;

  constructor(
    private readonly transport: Transport,
    /** The endpoint or model id. */
    readonly endpointId: string,
  ) {
    this.prefix = `/${encodeURIComponent(endpointId)}/`;
  }

  private path(op: string) {
    return this.prefix + op;
  }

  private get base() {
    return this.transport.config.queueUrl;
  }

  private batchOperations: EndpointBatches | undefined;

  /**
   * The endpoint's batch jobs (`/batch`): offline work on the platform's batch workers, apart
   * from `/run` traffic (docs/client.md "Batch jobs").
   */
  get batches(): EndpointBatches {
    this.batchOperations ??= new EndpointBatches(this.transport, this.endpointId);
    return this.batchOperations;
  }

  /**
   * Submits a job asynchronously (`/run`); answers `{ id, status: "IN_QUEUE" }`. Not retried after
   * delivery. `run` and `status` are the hot calls: not async functions (one promise less per
   * call), with a refused input still reported as a rejected promise, never a throw.
   */
  run<I = Record<string, unknown>>(request: JobRequest<I>, options?: CallOptions): Promise<JobAck> {
    let body: string;
    try {
      const valid = validateRequest(JobRequestSchema, request, `run on ${this.endpointId}`);
      body = serializeWithinLimit(valid, LIMITS.runPayloadBytes, `run on ${this.endpointId}`);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: this.path("run"),
      body,
      idempotent: false,
      schema: JobAckSchema,
      options,
    });
  }

  /**
   * Runs a job and waits for its result (`/runsync`). When `wait` elapses first, the record comes
   * back with a non-terminal status; follow it with {@link waitForCompletion}.
   */
  async runSync<I = Record<string, unknown>, O = unknown>(
    request: JobRequest<I>,
    options?: RunSyncOptions,
  ): Promise<JobRecord<O>> {
    const body = validateRequest(JobRequestSchema, request, `runsync on ${this.endpointId}`);
    const wait =
      options?.wait === undefined
        ? undefined
        : validateRequest(RunSyncWaitSchema, options.wait, `runsync on ${this.endpointId}`, "wait");
    // The HTTP call must outlive the platform's wait.
    const holdMs = wait ?? LIMITS.runSyncWaitMs.default;
    const timeoutMs = Math.max(options?.timeoutMs ?? this.transport.config.timeoutMs, holdMs + 10_000);
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: this.path("runsync"),
      query: { wait },
      body: serializeWithinLimit(body, LIMITS.runSyncPayloadBytes, `runsync on ${this.endpointId}`),
      idempotent: false,
      schema: JobRecordSchema,
      options: { ...options, timeoutMs },
    }) as Promise<JobRecord<O>>;
  }

  /** Reads a job (`/status/<id>`); an expired or unknown job is a `NotFoundError`. */
  status<O = unknown>(jobId: string, options?: StatusOptions): Promise<JobRecord<O>> {
    let query: { ttl: number } | undefined;
    if (options?.ttl !== undefined) {
      try {
        query = { ttl: validateRequest(StatusTtlSchema, options.ttl, `status of ${jobId}`, "ttl") };
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.transport.send({
      method: "GET",
      base: this.base,
      path: this.path(`status/${encodeURIComponent(jobId)}`),
      query,
      idempotent: true,
      schema: JobRecordSchema,
      options,
    }) as Promise<JobRecord<O>>;
  }

  /**
   * Submits many jobs at the platform's own pace and yields one outcome per input, in the order
   * they end (docs/client.md, "Batches"). `inputs` is read lazily, at most `concurrency` ahead,
   * so a million inputs never sit in memory. `/run` and `/status` are paced per endpoint to the
   * platform's limits, adapting to 429s; a `/run` whose answer was lost is reported `unknown`, never
   * sent twice, unless `delivery: "at-least-once"`. Bad options throw at once, naming the field.
   *
   * ```ts
   * for await (const outcome of client.jobs(id).submitMany(prompts.map((p) => ({ input: { prompt: p } })))) {
   *   if (outcome.kind === "ended") console.log(outcome.index, outcome.job.status, outcome.job.output);
   *   else console.error(outcome.index, outcome.kind, "error" in outcome ? outcome.error.message : "");
   * }
   * ```
   */
  submitMany<I = Record<string, unknown>, O = unknown>(
    inputs: BatchInputs<I>,
    options?: SubmitManyOptions,
  ): AsyncGenerator<BatchOutcome<O>, void, undefined> {
    return submitMany<I, O>(this.transport, this.endpointId, inputs, options);
  }

  /** Cancels a queued or running job (`/cancel/<id>`). */
  async cancel(jobId: string, options?: CallOptions): Promise<JobAck> {
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: this.path(`cancel/${encodeURIComponent(jobId)}`),
      idempotent: true,
      schema: JobAckSchema,
      options,
    });
  }

  /** Requeues a FAILED or TIMED_OUT job with its id and input (`/retry/<id>`). */
  async retry(jobId: string, options?: CallOptions): Promise<JobAck> {
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: this.path(`retry/${encodeURIComponent(jobId)}`),
      idempotent: false,
      schema: JobAckSchema,
      options,
    });
  }

  /** Removes every queued job; running jobs go on (`/purge-queue`). */
  async purgeQueue(options?: CallOptions): Promise<PurgeResult> {
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: this.path("purge-queue"),
      idempotent: false,
      schema: PurgeResultSchema,
      options,
    });
  }

  /**
   * The base URL of the endpoint's OpenAI-compatible API, `{queueUrl}/<id>/openai/v1`: hand it,
   * with the API key, to the `openai` package (docs/client.md, "OpenAI-compatible endpoints").
   */
  get openAiBaseUrl(): string {
    return `${this.base}${this.prefix}openai/v1`;
  }

  /**
   * A `fetch` for the `openai` package (its `fetch` option): paced to the endpoint's `/openai/*`
   * limit (2000 per 10 s, 400 at once, shared by every call this client makes there; a 429 slows
   * it down), and sent on undici's own dispatch, a fraction of the platform `fetch`'s CPU per
   * call (dispatcher-fetch.ts). A function given replaces the sending (as `{ fetch }` does);
   * `{ limit }` paces to a higher (or lower) limit than the table's, such as the one the
   * platform's dynamic rule gives an endpoint with many running workers.
   */
  openAiFetch(options: typeof fetch | OpenAiFetchOptions = {}): typeof fetch {
    const { fetch: base = dispatcherFetch(), limit } = typeof options === "function" ? { fetch: options } : options;
    if (limit !== undefined)
      validateRequest(RateLimitOverrideSchema, limit, `openAiFetch on ${this.endpointId}`, "limit");
    return pacedFetch(callPacer(this.transport, this.endpointId, "openai", limit), base);
  }

  /**
   * The endpoint's recent requests (`/requests`), paced to its limit (10 per 10 s, 2 at once).
   * The platform documents no body; the shape is the emulator's (`RecentRequests`).
   */
  requests(options?: CallOptions): Promise<RecentRequests> {
    const path = this.path("requests");
    const send = () =>
      this.transport.send({
        method: "GET",
        base: this.base,
        path,
        idempotent: true,
        schema: RecentRequestsSchema,
        options,
      });
    return withPermit(
      callPacer(this.transport, this.endpointId, "requests"),
      { method: "GET", path },
      options?.signal,
      send,
    );
  }

  /** Counts of jobs by state and of workers (`/health`). */
  async health(options?: CallOptions): Promise<Health> {
    return this.transport.send({
      method: "GET",
      base: this.base,
      path: this.path("health"),
      idempotent: true,
      schema: HealthSchema,
      options,
    });
  }

  /**
   * Streams a job's output (`/stream/<id>`): yields each chunk once, in order, and ends when the
   * job reaches a terminal state. Polls with backoff while no chunk is ready. Reads both shapes
   * of the answer: `{ status, stream: [...] }` and a bare array of chunks.
   */
  stream<O = unknown>(jobId: string, options?: PollOptions): AsyncGenerator<StreamChunk<O>, void, undefined> {
    const path = this.path(`stream/${encodeURIComponent(jobId)}`);
    return streamJob<O>(this.transport, path, options, (signal) => this.status(jobId, { signal }));
  }

  /** Polls `/status` until the job is terminal (COMPLETED, FAILED, CANCELLED, TIMED_OUT), under a deadline. */
  waitForCompletion<O = unknown>(jobId: string, options?: PollOptions): Promise<JobRecord<O>> {
    const path = this.path(`status/${encodeURIComponent(jobId)}`);
    return waitForJob(path, options, (signal) => this.status<O>(jobId, { signal }));
  }
}

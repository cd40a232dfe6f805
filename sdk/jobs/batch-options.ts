import { z } from "zod";
import type { AbortError, RunpodError } from "../errors";
import { RequestValidationError } from "../errors";
import { validateRequest } from "../request-validation";
import { type JobPolicy, JobPolicySchema, type JobRecord, LIMITS } from "../schemas";
import type { RateLimitOverrides } from "./endpoint-pacers";

/** Options of {@link EndpointJobs.submitMany}. */
export interface SubmitManyOptions {
  /**
   * Inputs in progress at once: read from `inputs` and not yet reported. Bounds memory (nothing
   * else grows with the number of inputs) and the jobs this batch has on the platform at once.
   * Default 1000.
   */
  concurrency?: number | undefined;
  /**
   * Stops the batch: nothing more is read or submitted, and every input in progress is reported
   * `aborted` (with its job id when it was submitted; the job is not cancelled). The iterator
   * then ends.
   */
  signal?: AbortSignal | undefined;
  /** Wait for each job's end (default), or report each input once `/run` accepted it. */
  waitForResults?: boolean | undefined;
  /**
   * How results are collected: `"status"` (default) polls `/status`; `"stream"` follows
   * `/stream` (for handlers that stream: the chunks come with the outcome), then reads the final
   * record once.
   */
  collectWith?: "status" | "stream" | undefined;
  /** Policy of every job whose request has none. */
  policy?: JobPolicy | undefined;
  /** Webhook of every job whose request has none. */
  webhook?: string | undefined;
  /**
   * `"at-most-once"` (default): an input whose `/run` may have reached the platform without its
   * answer reaching us (a connection reset after sending, a timeout, a 500) is never sent again;
   * it is reported `unknown`. `"at-least-once"`: it is sent again, so it may run twice.
   */
  delivery?: "at-most-once" | "at-least-once" | undefined;
  /** Shortest time between two `/status` reads of one job, in ms. Default 1000. */
  pollIntervalMs?: number | undefined;
  /** Longest wait for a job's end, from its submission, in ms. Default 24 h (the platform's default TTL). */
  resultTimeoutMs?: number | undefined;
  /** The platform's limits, when yours differ from the platform's table (an account with raised limits). */
  limits?: RateLimitOverrides | undefined;
  /**
   * `requests_per_worker` of the platform's dynamic rule (effective limit = max(table, running
   * workers x this)). The platform does not publish it; when set, the batch reads `/health` once
   * per window and paces to the higher limit. Default: unset, so only the table applies.
   */
  requestsPerWorker?: number | undefined;
  /**
   * How the jobs are sent: `"run"` (default), one `/run` each, paced to the rate limit, results
   * as each job ends; `"batch"`, through the platform's batch API (batches of up to 5,000 requests
   * on its batch workers, apart from `/run` traffic; hours of latency on the platform, a fraction
   * of the client's CPU): results as each batch is done (docs/client.md "Batch jobs through
   * submitMany").
   */
  submitWith?: "run" | "batch" | undefined;
  /**
   * With `"batch"`: a file recording which inputs went into which batch, written before each step.
   * Run again with the same inputs and the same journal after a kill, and nothing is sent twice:
   * the batches it names are read, the rest is sent. Default: none (a killed run is not resumable).
   */
  journal?: string | undefined;
  /** With `"batch"`: requests per batch, 1 to 5,000 (the platform's most). Default 5,000. */
  batchSize?: number | undefined;
  /** With `"batch"`: this run's batches active at once, 1 to 10 (the platform's most per endpoint). Default 10. */
  maxActiveBatches?: number | undefined;
  /** With `"batch"`: told of the run's progress after each append and each read of a batch's counters. */
  onProgress?: ((progress: SubmitProgress) => void) | undefined;
}

/** Progress of `submitMany` through the batch API. */
export interface SubmitProgress {
  /** Inputs read so far. */
  read: number;
  /** Requests in batches (appended, by this run or the journal's earlier runs). */
  sent: number;
  /** Of those, requests completed and failed, by the batches' counters. */
  completed: number;
  failed: number;
  /** Outcomes handed out. */
  reported: number;
  /** Batches created, and those not done yet. */
  batches: number;
  activeBatches: number;
}

const positiveInt = (rule: string) => z.number().int(rule).min(1, rule);
const positiveMs = z.number().int("must be a whole number of ms").min(1, "must be at least 1 ms");
/** A {@link RateLimitOverride} as callers may give one (batches' `limits`, `openAiFetch({ limit })`). */
export const RateLimitOverrideSchema = z
  .object({
    perWindow: positiveInt("must be a whole number of requests, at least 1").optional(),
    windowMs: positiveMs.optional(),
    concurrent: positiveInt("must be a whole number of requests, at least 1").optional(),
  })
  .strict();

/** What {@link SubmitManyOptions} may hold (the signal is checked by type only). */
const OptionsSchema = z.object({
  concurrency: positiveInt("must be a whole number, at least 1").optional(),
  waitForResults: z.boolean().optional(),
  collectWith: z.enum(["status", "stream"], { error: 'must be "status" or "stream"' }).optional(),
  policy: JobPolicySchema.optional(),
  webhook: z.url({ protocol: /^https?$/, error: "webhook must be an http(s) URL" }).optional(),
  delivery: z
    .enum(["at-most-once", "at-least-once"], { error: 'must be "at-most-once" or "at-least-once"' })
    .optional(),
  pollIntervalMs: positiveMs.optional(),
  resultTimeoutMs: positiveMs.optional(),
  limits: z
    .object({
      run: RateLimitOverrideSchema.optional(),
      status: RateLimitOverrideSchema.optional(),
      stream: RateLimitOverrideSchema.optional(),
    })
    .strict()
    .optional(),
  requestsPerWorker: positiveInt("must be a whole number, at least 1").optional(),
  submitWith: z.enum(["run", "batch"], { error: 'must be "run" or "batch"' }).optional(),
  journal: z.string().min(1, "must be a file path").optional(),
  batchSize: positiveInt("must be a whole number, at least 1")
    .max(LIMITS.batchRequests, `a batch holds at most ${LIMITS.batchRequests} requests`)
    .optional(),
  maxActiveBatches: positiveInt("must be a whole number, at least 1")
    .max(LIMITS.activeBatches, `an endpoint may have at most ${LIMITS.activeBatches} active batches`)
    .optional(),
});

/** Options that only the batch path reads. */
const BATCH_ONLY = ["journal", "batchSize", "maxActiveBatches", "onProgress"] as const;

/** {@link SubmitManyOptions} with defaults applied. */
export interface ResolvedSubmitManyOptions {
  concurrency: number;
  signal: AbortSignal | undefined;
  waitForResults: boolean;
  collectWith: "status" | "stream";
  policy: JobPolicy | undefined;
  webhook: string | undefined;
  atLeastOnce: boolean;
  pollIntervalMs: number;
  resultTimeoutMs: number;
  limits: RateLimitOverrides;
  requestsPerWorker: number | undefined;
  submitWith: "run" | "batch";
  journal: string | undefined;
  batchSize: number;
  maxActiveBatches: number;
  onProgress: ((progress: SubmitProgress) => void) | undefined;
}

/** Checks the options (a bad one is a RequestValidationError naming it) and applies the defaults. */
export function resolveSubmitManyOptions(options: SubmitManyOptions = {}, context: string): ResolvedSubmitManyOptions {
  const { signal, onProgress, ...rest } = options;
  const o = validateRequest(OptionsSchema, rest, context);
  const submitWith = o.submitWith ?? "run";
  const misplaced = BATCH_ONLY.find((name) => submitWith === "run" && options[name] !== undefined);
  if (misplaced) {
    const rule = 'applies only with submitWith: "batch"';
    throw new RequestValidationError([{ field: misplaced, value: "(set)", rule }], context);
  }
  if (submitWith === "batch" && o.collectWith === "stream") {
    const rule = 'a batch request has no /stream: use collectWith "status" (the default) with submitWith "batch"';
    throw new RequestValidationError([{ field: "collectWith", value: '"stream"', rule }], context);
  }
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw new RequestValidationError(
      [{ field: "onProgress", value: typeof onProgress, rule: "must be a function" }],
      context,
    );
  }
  return {
    concurrency: o.concurrency ?? 1000,
    signal,
    waitForResults: o.waitForResults ?? true,
    collectWith: o.collectWith ?? "status",
    policy: o.policy,
    webhook: o.webhook,
    atLeastOnce: o.delivery === "at-least-once",
    pollIntervalMs: o.pollIntervalMs ?? 1000,
    resultTimeoutMs: o.resultTimeoutMs ?? 86_400_000,
    limits: o.limits ?? {},
    requestsPerWorker: o.requestsPerWorker,
    submitWith,
    journal: o.journal,
    batchSize: o.batchSize ?? LIMITS.batchRequests,
    maxActiveBatches: o.maxActiveBatches ?? LIMITS.activeBatches,
    onProgress,
  };
}

/**
 * What became of one input of {@link EndpointJobs.submitMany}; `index` is its position in the
 * inputs (0-based). Every input read gets exactly one.
 *
 * - `ended`: the job reached `COMPLETED`, `FAILED`, `CANCELLED` or `TIMED_OUT`; `job` is its
 *   record (and `stream` its chunks, when collected with `/stream`).
 * - `submitted`: `/run` accepted it (only with `waitForResults: false`).
 * - `unknown`: `/run` may have reached the platform but its answer was lost; the job may or may
 *   not exist, and it was not sent again (at-most-once). `error` says what happened.
 * - `error`: refused for good (invalid input, 401, ...) or its result could not be had (the job
 *   expired, the result timeout passed); `jobId` when it had been submitted.
 * - `aborted`: the signal fired first; `jobId` when it had been submitted (the job goes on).
 */
export type BatchOutcome<O = unknown> =
  | { kind: "ended"; index: number; jobId: string; job: JobRecord<O>; stream?: unknown[] }
  | { kind: "submitted"; index: number; jobId: string }
  | { kind: "unknown"; index: number; error: RunpodError }
  | { kind: "error"; index: number; jobId?: string; error: RunpodError }
  | { kind: "aborted"; index: number; jobId?: string; error: AbortError };

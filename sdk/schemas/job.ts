import { z } from "zod";
import { LIMITS } from "./limits";

/** Every job state the platform documents. */
export const JOB_STATUSES = ["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const;
/** A job state. */
export type JobStatus = (typeof JOB_STATUSES)[number];
/** States after which a job does not change again unless retried. */
export const TERMINAL_JOB_STATUSES: ReadonlySet<JobStatus> = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

const boundedMs = (bounds: { min: number; max: number }, what: string) =>
  z
    .number()
    .int(`${what} must be a whole number of milliseconds`)
    .min(bounds.min, `${what} must be at least ${bounds.min} ms`)
    .max(bounds.max, `${what} must be at most ${bounds.max} ms`);

/** `policy` of a job request (documented: `executionTimeout`, `lowPriority`, `ttl`). */
export const JobPolicySchema = z.object({
  executionTimeout: boundedMs(LIMITS.executionTimeoutMs, "executionTimeout").optional(),
  lowPriority: z.boolean().optional(),
  ttl: boundedMs(LIMITS.ttlMs, "ttl").optional(),
});
/** A job's execution policy. */
export type JobPolicy = z.infer<typeof JobPolicySchema>;

/** `s3Config` of a job request: object-storage settings handed to the worker. All values are secrets in part. */
export const S3ConfigSchema = z.object({
  accessId: z.string(),
  accessSecret: z.string(),
  bucketName: z.string(),
  endpointUrl: z.string(),
});
/** Object-storage settings for a job. */
export type S3Config = z.infer<typeof S3ConfigSchema>;

/** Body of `/run` and `/runsync` (docs/platform.md "Job request"). `input` is required and must be a JSON object. */
export const JobRequestSchema = z.object({
  input: z.record(z.string(), z.unknown(), { error: "input is required and must be a JSON object" }),
  webhook: z.url({ protocol: /^https?$/, error: "webhook must be an http(s) URL" }).optional(),
  policy: JobPolicySchema.optional(),
  s3Config: S3ConfigSchema.optional(),
});
/** A job request. */
export type JobRequest<I = Record<string, unknown>> = Omit<z.infer<typeof JobRequestSchema>, "input"> & { input: I };

/** `/runsync?wait=` (documented: 1000..300000 ms). */
export const RunSyncWaitSchema = boundedMs(LIMITS.runSyncWaitMs, "wait");
/** `/status/<id>?ttl=` in ms. */
export const StatusTtlSchema = boundedMs(LIMITS.statusTtlMs, "ttl");

const jobStatus = z.string() as z.ZodType<JobStatus>;

/** A job record: `/runsync` and `/status` answers (docs/platform.md "Job record"). Extra fields are tolerated. */
export const JobRecordSchema = z.object({
  id: z.string(),
  status: jobStatus,
  output: z.unknown().optional(),
  error: z.string().optional(),
  delayTime: z.number().int().optional(),
  executionTime: z.number().int().optional(),
  retries: z.number().int().optional(),
});
/** A job record. */
export type JobRecord<O = unknown> = Omit<z.infer<typeof JobRecordSchema>, "output"> & { output?: O };

/** `/run`, `/cancel`, `/retry` answers: the job's id and its new status. */
export const JobAckSchema = z.object({ id: z.string(), status: jobStatus });
/** A job id and status. */
export type JobAck = z.infer<typeof JobAckSchema>;

/** One element of a `/stream` answer (docs/platform.md "Job record"). */
export const StreamChunkSchema = z.object({
  output: z.unknown(),
  metrics: z.record(z.string(), z.unknown()).optional(),
});
/** A streamed chunk. */
export type StreamChunk<O = unknown> = { output: O; metrics?: Record<string, unknown> };

/**
 * `/stream/<id>` answer. The platform's documentation calls it "a JSON array of stream chunks"; the
 * platform and its official SDKs wrap it as `{ status, stream: [...] }` (docs/platform.md "Job
 * record"), so both forms are accepted.
 */
export const StreamResponseSchema = z.union([
  z.object({ status: jobStatus, stream: z.array(StreamChunkSchema).default([]) }),
  z.array(StreamChunkSchema).transform((stream) => ({ status: undefined, stream })),
]);

/** `/purge-queue` answer. */
export const PurgeResultSchema = z.object({ removed: z.number().int(), status: z.string() });
/** A purge result. */
export type PurgeResult = z.infer<typeof PurgeResultSchema>;

/** `/health` answer: counts of jobs by state and of workers. */
export const HealthSchema = z.object({
  jobs: z.object({
    completed: z.number().int(),
    failed: z.number().int(),
    inProgress: z.number().int(),
    inQueue: z.number().int(),
    retried: z.number().int(),
  }),
  workers: z.object({ idle: z.number().int(), running: z.number().int() }),
});
/** An endpoint's health. */
export type Health = z.infer<typeof HealthSchema>;

/**
 * One request of `GET /<endpoint_id>/requests`. No public document gives the platform's body;
 * this is the emulator's: the job's id and status, how it came (`run`, `runsync`, `openai`, with
 * the OpenAI `route`), and its times (date-times, and `delayTime`/`executionTime` in ms).
 */
export const RecentRequestSchema = z.object({
  id: z.string(),
  status: jobStatus,
  source: z.string().optional(),
  route: z.string().optional(),
  createdAt: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  delayTime: z.number().int().optional(),
  executionTime: z.number().int().optional(),
  retries: z.number().int().optional(),
  /** When the job was removed before it ended (purged, or past its TTL). */
  removedAt: z.string().optional(),
});
/** One recent request of an endpoint. */
export type RecentRequest = z.infer<typeof RecentRequestSchema>;

/** `/requests` answer: the endpoint's recent requests, newest first. */
export const RecentRequestsSchema = z.object({ requests: z.array(RecentRequestSchema) });
/** An endpoint's recent requests. */
export type RecentRequests = z.infer<typeof RecentRequestsSchema>;

/** Error body the platform (and the emulator) answers with; every field optional. */
export const ErrorBodySchema = z.object({
  error: z.string().optional(),
  message: z.string().optional(),
  field: z.string().optional(),
  requestId: z.string().optional(),
  // RFC 9457 problem objects (management API v2): `title`, `detail`, and per-field `errors`.
  title: z.string().optional(),
  detail: z.string().optional(),
  errors: z.array(z.string()).optional(),
});

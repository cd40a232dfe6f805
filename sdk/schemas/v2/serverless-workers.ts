import { z } from "zod";

/*
 * What management API v2 tells about an endpoint's running side: its workers
 * (`/v2/serverless/{id}/workers`), its releases (`/releases`) and a worker's log stream
 * (`/workers/{workerId}/logs`). Status values are read as strings: the platform may add some.
 */

/** Worker states (OpenAPI `WorkerStatus`). */
export const WORKER_STATUSES = ["RUNNING", "IDLE", "INITIALIZING", "THROTTLED", "UNHEALTHY"] as const;

/** A worker (OpenAPI `Worker`); `isStale` is true while it runs an older configuration than the endpoint's. */
export const WorkerSchema = z.object({
  id: z.string(),
  status: z.string(),
  isStale: z.boolean(),
  version: z.number().int().nullable().optional(),
  gpuCount: z.number().int(),
  image: z.string().nullable().optional(),
  uptimeSeconds: z.number().int().nullable().optional(),
  gpuTypeId: z.string().nullable().optional(),
  dataCenterId: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
});
/** A worker (v2). */
export type Worker = z.infer<typeof WorkerSchema>;

/** Workers by status (OpenAPI `WorkerSummary`; the counts add up to `total`). */
export const WorkerSummarySchema = z.object({
  running: z.number().int(),
  idle: z.number().int(),
  initializing: z.number().int(),
  throttled: z.number().int(),
  unhealthy: z.number().int(),
  total: z.number().int(),
});

/** `GET /v2/serverless/{id}/workers` (OpenAPI `ListEndpointWorkersResponse`), kept whole: workers, summary, version. */
export const ListEndpointWorkersResponseSchema = z.object({
  workers: z.array(WorkerSchema),
  summary: WorkerSummarySchema,
  endpointVersion: z.number().int().nullable().optional(),
});
/** An endpoint's workers with their summary (v2). */
export type ListEndpointWorkersResponse = z.infer<typeof ListEndpointWorkersResponseSchema>;

/** What produced a release (OpenAPI `ReleaseSource`). */
export const RELEASE_SOURCES = ["GIT_BUILD", "MANUAL"] as const;

/** One changed field of a release (OpenAPI `ReleaseDiffEntry`; `old`/`new` are raw JSON, null when absent). */
export const ReleaseDiffEntrySchema = z.object({ field: z.string(), old: z.unknown(), new: z.unknown() });

/** A versioned configuration of an endpoint (OpenAPI `Release`). */
export const ReleaseSchema = z.object({
  id: z.string(),
  version: z.number().int().nullable().optional(),
  source: z.string(),
  buildId: z.string().nullable().optional(),
  createdByUserId: z.string().nullable().optional(),
  workerCount: z.number().int(),
  createdAt: z.string(),
  diff: z.array(ReleaseDiffEntrySchema),
});
/** A release (v2). */
export type Release = z.infer<typeof ReleaseSchema>;

/** How far the current version has rolled out (OpenAPI `RolloutSummary`). */
export const RolloutSummarySchema = z.object({
  inProgress: z.boolean(),
  workersOnLatest: z.number().int(),
  workersTotal: z.number().int(),
  percentOnLatest: z.number().int(),
});

/** `GET /v2/serverless/{id}/releases` (OpenAPI `ListEndpointReleasesResponse`), kept whole; releases newest first. */
export const ListEndpointReleasesResponseSchema = z.object({
  endpointVersion: z.number().int().nullable().optional(),
  rollout: RolloutSummarySchema,
  releases: z.array(ReleaseSchema),
});
/** An endpoint's release history with its rollout (v2). */
export type ListEndpointReleasesResponse = z.infer<typeof ListEndpointReleasesResponseSchema>;

/** Log sources (OpenAPI `LogSource`): the container's output, or the host's lifecycle lines. */
export const LOG_SOURCES = ["container", "system"] as const;
/** `container` or `system`. */
export type LogSource = (typeof LOG_SOURCES)[number];

/**
 * One line of a worker's log stream: the `data` of one Server-Sent Event of
 * `GET /v2/serverless/{id}/workers/{workerId}/logs` (`text/event-stream`; the event's `id` is its `ts`).
 */
export const WorkerLogEventSchema = z.object({ ts: z.string(), source: z.string(), line: z.string() });
/** A worker log line. */
export type WorkerLogEvent = z.infer<typeof WorkerLogEventSchema>;

/** Query of the worker log stream (OpenAPI `LogSourceParam`, `LogTail`, `LogSince`). */
export const WorkerLogQuerySchema = z.strictObject({
  source: z.enum(LOG_SOURCES, { error: `must be one of ${LOG_SOURCES.join(", ")}` }).optional(),
  tail: z
    .number()
    .int("must be a whole number")
    .min(0, "must be at least 0")
    .max(5000, "must be at most 5000")
    .optional(),
  since: z.iso
    .datetime({ offset: true, error: "must be an RFC 3339 date-time, such as 2026-06-01T12:00:00Z" })
    .optional(),
});
/** Query of the worker log stream. */
export type WorkerLogQuery = z.infer<typeof WorkerLogQuerySchema>;

/**
 * Every documented bound of the platform, in one place (docs/platform.md "Payloads and retention"
 * and the OpenAPI minimum/maximum values). The client, the emulator and the provider's `check` read
 * them here.
 */
export const LIMITS = {
  /** Network volume size in GB (documented: 0 to 4000, must grow on update). */
  volumeSizeGb: { min: 0, max: 4000 },
  /** Network volume size in GB on management API v2 (OpenAPI v2: 10 to 4096, must not shrink). */
  volumeSizeGbV2: { min: 10, max: 4096 },
  /** Endpoint name length (OpenAPI `maxLength`). */
  endpointNameMaxLength: 191,
  /**
   * Template and container registry auth name lengths. The OpenAPI gives no bound; names of both
   * must be unique in the account, and the endpoint name's 191 (the OpenAPI's one name bound) is
   * taken for them too.
   */
  templateNameMaxLength: 191,
  containerRegistryAuthNameMaxLength: 191,
  /** Worker idle timeout in seconds (OpenAPI `idleTimeout`). */
  idleTimeoutSeconds: { min: 1, max: 3600 },
  /** GPUs per worker (OpenAPI `gpuCount.minimum`). */
  gpuCountMin: 1,
  /** Workers (OpenAPI `workersMin.minimum`, `workersMax.minimum`). */
  workersMin: 0,
  /** Scaler value (OpenAPI `scalerValue.minimum`). */
  scalerValueMin: 1,
  /** vCPUs per CPU worker; the OpenAPI gives only a default of 2, a worker needs at least one. */
  vcpuCountMin: 1,
  /** vCPUs of a CPU pod or CPU endpoint configuration on management API v2 (OpenAPI v2 `BaseCpuConfig.vcpuCount.minimum`). */
  vcpuCountMinV2: 2,
  /** Container disk in GB on management API v2 (OpenAPI v2 `BaseContainerConfig.disk.minimum`); v1 states none. */
  containerDiskGbMinV2: 1,
  /** A persistent (pod) volume in GB on management API v2 (OpenAPI v2 `PersistentMount.size.minimum`); v1 states none. */
  persistentVolumeGbMinV2: 10,
  /** Seconds a request waits before a worker starts, on management API v2 (OpenAPI v2 `QueueDelayScaling.queueDelay.minimum`). */
  queueDelaySecondsMinV2: 0.5,
  /**
   * A pod's placement filters on management API v2 (`gpu.minRamPerGpu`, GB of RAM per GPU, and
   * `gpu.minVcpuCountPerGpu`, vCPUs per GPU: integers of at least 1).
   */
  placementFilterMinV2: 1,
  /**
   * Items per page of a management API v2 list (`limit`, 1 to 1000; the platform's default page is
   * the largest). Lists page by cursor (docs/platform.md "Lists").
   */
  listPageSize: { min: 1, max: 1000, default: 1000 },
  /** Pods of one cluster (OpenAPI v2 `ClusterCompute.podCount`; clusters exist on v2 only). */
  clusterPodCount: { min: 2, max: 250 },
  /** `policy.executionTimeout` in ms (documented: min 5 s, max 7 days). */
  executionTimeoutMs: { min: 5_000, max: 604_800_000 },
  /** `policy.ttl` in ms (documented: min 10 s, max 7 days). */
  ttlMs: { min: 10_000, max: 604_800_000 },
  /** `/status?ttl=` in ms; the platform's own example is 6000, so only positivity and the 7-day cap apply. */
  statusTtlMs: { min: 1, max: 604_800_000 },
  /** `/runsync?wait=` in ms (documented: 1000 to 300000, default 90 s). */
  runSyncWaitMs: { min: 1_000, max: 300_000, default: 90_000 },
  /** Request payload limits in bytes (documented: 10 MB for `/run`, 20 MB for `/runsync`; MB = 1024 * 1024 bytes). */
  runPayloadBytes: 10 * 1024 * 1024,
  runSyncPayloadBytes: 20 * 1024 * 1024,
  /** A single streamed chunk (documented: 1 MB). */
  streamChunkBytes: 1024 * 1024,
  /**
   * Batch jobs (docs/platform.md "Batch jobs"): requests one batch holds, batches active at once
   * on an endpoint, requests queued on an endpoint, and the body of one append (10 MiB).
   */
  batchRequests: 5_000,
  activeBatches: 10,
  queuedBatchRequests: 50_000,
  batchAppendBytes: 10 * 1024 * 1024,
} as const;

/** The platform's documented defaults for job policies and retention. */
export const JOB_DEFAULTS = {
  executionTimeoutMs: 600_000,
  ttlMs: 86_400_000,
  /** Result retention after completion of a `/run` job (documented: 30 minutes). */
  runRetentionMs: 30 * 60_000,
  /** Result retention after completion of a `/runsync` job (documented: 1 minute). */
  runSyncRetentionMs: 60_000,
  /** Result retention of a `/runsync` job that used `wait` (documented: up to 5 minutes). */
  runSyncWaitRetentionMs: 5 * 60_000,
  /** Webhook delivery: one call plus up to 2 retries, 10 s apart. */
  webhookRetries: 2,
  webhookRetryDelayMs: 10_000,
} as const;

import type { CallOptions } from "../transport";

/* The options of the job operations of `EndpointJobs` (endpoint-jobs.ts). */

/** Options of `EndpointJobs.runSync`. */
export interface RunSyncOptions extends CallOptions {
  /** How long the platform holds the request open, 1000..300000 ms (default 90 s on the platform). */
  wait?: number | undefined;
}

/** Options of `EndpointJobs.status`. */
export interface StatusOptions extends CallOptions {
  /** Sets this job's time-to-live in ms (documented: `/status?ttl=`). */
  ttl?: number | undefined;
}

/** Options of polling helpers. */
export interface PollOptions {
  /** Cancels polling. */
  signal?: AbortSignal | undefined;
  /** Gives up after this many ms (default 10 minutes). Every wait is bounded. */
  timeoutMs?: number | undefined;
  /** First poll interval in ms (default 200), doubled up to `maxIntervalMs`. */
  initialIntervalMs?: number | undefined;
  /** Largest poll interval in ms (default 5000). */
  maxIntervalMs?: number | undefined;
}

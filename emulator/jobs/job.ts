import type { JobStatus, S3Config, StreamChunk } from "../../sdk/schemas";
import type { Scheduled } from "../clock/timer-heap";

/** What the job's owner does when the job's expiry deadline passes. */
export interface JobOwner {
  expire(job: Job): void;
}

/** Rarely set request fields, kept out of line so a plain job stays small. */
export interface JobExtras {
  webhook?: string;
  s3Config?: S3Config;
}

/**
 * One job, held compactly (under 600 bytes per held job plus payload: the emulator holds many). All
 * times are platform ms on the emulator clock; -1 means "not yet". The job is its own expiry timer:
 * `at` is the moment it is deleted (TTL, or retention after completion, whichever comes first).
 */
export class Job implements Scheduled {
  at = 0;
  seq = 0;
  heapIndex = -1;
  status: JobStatus = "IN_QUEUE";
  output: unknown = undefined;
  error: string | undefined = undefined;
  startedAt = -1;
  finishedAt = -1;
  retries = 0;
  /** Position in the queue (FIFO order), or -1 when not queued. */
  order = -1;
  /** Chunks produced and not yet handed out by `/stream`; `undefined` until the job streams. */
  chunks: StreamChunk[] | undefined = undefined;

  constructor(
    readonly id: string,
    readonly owner: JobOwner,
    readonly input: Record<string, unknown>,
    /** When the job (last) entered the queue. */
    public queuedAt: number,
    /** TTL runs from submission and covers queue and execution time. */
    public ttlAt: number,
    readonly executionTimeoutMs: number,
    /** How long results are kept after completion (30 min for `/run`, 1 or 5 min for `/runsync`). */
    readonly retentionMs: number,
    /** `policy.lowPriority`: the job never triggers scaling. */
    readonly lowPriority: boolean,
    readonly extras: JobExtras | undefined,
  ) {}

  fire(): void {
    this.owner.expire(this);
  }
}

/** The job record of `/status`, `/runsync` and webhooks (docs/platform.md "Job record"). */
export interface JobRecordView {
  id: string;
  status: JobStatus;
  delayTime?: number;
  executionTime?: number;
  output?: unknown;
  error?: string;
  retries?: number;
}

/** Renders the wire form of a job: `delayTime` once a worker took it, `executionTime` once it finished. */
export function renderJob(job: Job): JobRecordView {
  const view: JobRecordView = { id: job.id, status: job.status };
  if (job.startedAt >= 0) view.delayTime = job.startedAt - job.queuedAt;
  if (job.finishedAt >= 0 && job.startedAt >= 0) view.executionTime = job.finishedAt - job.startedAt;
  if (job.output !== undefined) view.output = job.output;
  if (job.error !== undefined) view.error = job.error;
  if (job.retries > 0) view.retries = job.retries;
  return view;
}

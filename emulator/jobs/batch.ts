import type { BatchStatus, JobRequest, S3Config } from "../../sdk/schemas";
import { randomId } from "../records/ids";

/*
 * The records of batch jobs (docs/platform.md "Batch jobs") and how they are answered. What a
 * batch does over time is batch-runtime.ts.
 */

/** A child request's state: a job's states, less TIMED_OUT (a request past its timeout FAILED). */
export type ChildStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED";

/** A batch id, the shape of the platform's example `batch_…`. */
export const newBatchId = (): string => `batch_${randomId(20)}`;

/** One request of a batch. Times are platform ms on the emulator clock; -1 means "not yet". */
export class BatchChild {
  status: ChildStatus = "IN_QUEUE";
  output: unknown = undefined;
  error: string | undefined = undefined;
  startedAt = -1;
  completedAt = -1;
  readonly input: Record<string, unknown>;
  readonly executionTimeoutMs: number | undefined;
  readonly s3Config: S3Config | undefined;

  constructor(
    readonly id: string,
    readonly batch: BatchRecord,
    request: JobRequest,
  ) {
    this.input = request.input;
    this.executionTimeoutMs = request.policy?.executionTimeout;
    this.s3Config = request.s3Config;
  }
}

/** One batch of an endpoint. */
export class BatchRecord {
  status: BatchStatus = "DRAFT";
  /** The display name an update set (the platform documents no field; the emulator takes `name`). */
  name: string | undefined = undefined;
  readonly children: BatchChild[] = [];
  inProgress = 0;
  completed = 0;
  failed = 0;
  /** Cancelled while requests ran: it turns CANCELLED once they have finished. */
  cancelling = false;

  constructor(
    readonly id: string,
    readonly endpointId: string,
    /** Platform ms on the emulator clock. */
    readonly createdAt: number,
  ) {}

  /** Every request completed or failed: the batch is done (and stays FINALIZED). */
  get done(): boolean {
    return this.status === "FINALIZED" && this.completed + this.failed === this.children.length;
  }

  /** A DRAFT, or a FINALIZED batch not yet done: what the limit of active batches counts. */
  get active(): boolean {
    return this.status === "DRAFT" || (this.status === "FINALIZED" && !this.done);
  }
}

/** The summary of `GET /batch/<id>` (and of the list): `createdAt` in epoch milliseconds. */
export function renderBatch(batch: BatchRecord, epochOrigin: number): Record<string, unknown> {
  return {
    id: batch.id,
    endpointId: batch.endpointId,
    status: batch.status,
    ...(batch.name !== undefined ? { name: batch.name } : {}),
    requestTotal: batch.children.length,
    requestInProgress: batch.inProgress,
    requestCompleted: batch.completed,
    requestFailed: batch.failed,
    createdAt: epochOrigin + batch.createdAt,
  };
}

/** One child request as the page shows it: `output` or `error`, and its times in epoch ms (null before). */
export function renderChild(child: BatchChild, epochOrigin: number): Record<string, unknown> {
  return {
    id: child.id,
    status: child.status,
    ...(child.output !== undefined ? { output: child.output } : {}),
    ...(child.error !== undefined ? { error: child.error } : {}),
    startedAt: child.startedAt < 0 ? null : epochOrigin + child.startedAt,
    completedAt: child.completedAt < 0 ? null : epochOrigin + child.completedAt,
  };
}

/** One page of a list: `{ <key>: items, total, offset, limit, hasMore }`, as the child-request page is. */
export function page<T>(key: string, items: readonly T[], offset: number, limit: number, render: (item: T) => unknown) {
  const slice = items.slice(offset, offset + limit);
  return {
    [key]: slice.map(render),
    total: items.length,
    offset,
    limit,
    hasMore: offset + slice.length < items.length,
  };
}

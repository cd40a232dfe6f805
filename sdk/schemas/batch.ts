import { z } from "zod";
import { JobRequestSchema } from "./job";

/*
 * Batch jobs of a queue-based endpoint (`/v2/<endpoint_id>/batch...`, docs/platform.md "Batch
 * jobs"): the wire once, for the client and the emulator. The platform documents the create and
 * append bodies, the summary and the child-request page; the list's answer, the update's body and
 * every child state but COMPLETED and FAILED are not documented, so what reads them is lenient.
 */

/** A batch state the platform documents: DRAFT, then FINALIZED, which ends FAILED or CANCELLED (or stays, done). */
export type BatchStatus = "DRAFT" | "FINALIZED" | "FAILED" | "CANCELLED";

/** A state read from the platform: a {@link BatchStatus}, or a newer one kept as sent. */
const batchStatus = z.string() as z.ZodType<BatchStatus>;

/** One request of a batch: a `/run` body (`input`, and `webhook`, `policy`, `s3Config` as on `/run`). */
export const BatchRequestSchema = JobRequestSchema;

/** `POST /batch` body: a top-level array of requests (`[]` creates an empty batch). */
export const BatchCreateBodySchema = z.array(BatchRequestSchema);
/** `POST /batch/<id>/requests` body. */
export const BatchAppendBodySchema = z.object({ requests: z.array(BatchRequestSchema) });

/** A batch's id and state: what create answers (`{ id, status: "DRAFT" }`), and finalize and cancel at least. */
export interface BatchAck {
  id: string;
  status: BatchStatus;
  [field: string]: unknown;
}
/** The answer of create, finalize and cancel. */
export const BatchAckSchema: z.ZodType<BatchAck> = z.looseObject({ id: z.string(), status: batchStatus });

/**
 * A batch's summary (`GET /batch/<id>`): its state and counters. `createdAt` is in epoch
 * milliseconds (not the management API's date-time strings). The batch is done when completed +
 * failed = total. Fields the platform adds are kept.
 */
export interface BatchSummary {
  id: string;
  endpointId?: string | undefined;
  status: BatchStatus;
  requestTotal: number;
  requestInProgress: number;
  requestCompleted: number;
  requestFailed: number;
  createdAt: number;
  [field: string]: unknown;
}
/** `GET /batch/<id>`. */
export const BatchSummarySchema: z.ZodType<BatchSummary> = z.looseObject({
  id: z.string(),
  endpointId: z.string().optional(),
  status: batchStatus,
  requestTotal: z.number().int(),
  requestInProgress: z.number().int(),
  requestCompleted: z.number().int(),
  requestFailed: z.number().int(),
  createdAt: z.number(),
});

/** A time of a child request: epoch ms as the emulator sends it; a string or null is kept as sent. */
const childTime = z.union([z.number(), z.string(), z.null()]).optional();

/**
 * One child request of a batch. The platform shows COMPLETED and FAILED; the emulator also
 * answers IN_QUEUE, IN_PROGRESS and CANCELLED (a job's states). `output` on success, `error` on
 * failure; the times as sent (epoch ms from the emulator).
 */
export interface BatchChild {
  id: string;
  status: string;
  output?: unknown;
  error?: unknown;
  startedAt?: number | string | null | undefined;
  completedAt?: number | string | null | undefined;
  [field: string]: unknown;
}
/** One child request of a page. */
export const BatchChildSchema: z.ZodType<BatchChild> = z.looseObject({
  id: z.string(),
  status: z.string(),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  startedAt: childTime,
  completedAt: childTime,
});

/** One page of a batch's child requests (`GET /batch/<id>/requests?offset=&limit=`), in the order they were added. */
export interface BatchChildPage {
  requests: BatchChild[];
  total: number;
  offset: number;
  limit: number;
  hasMore: boolean;
  [field: string]: unknown;
}
/** `GET /batch/<id>/requests`. */
export const BatchChildPageSchema: z.ZodType<BatchChildPage> = z.looseObject({
  requests: z.array(BatchChildSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
});

/** A batch of a list: only its id is sure (the list's answer is not documented); the summary's fields as far as it has them. */
export interface BatchListItem extends Partial<BatchSummary> {
  id: string;
}
/** One batch of `GET /batch`. */
export const BatchListItemSchema: z.ZodType<BatchListItem> = z.looseObject({
  id: z.string(),
  status: batchStatus.optional(),
});

/**
 * `GET /batch`, newest first. Its shape is not documented: a bare array, or an object holding the
 * array under `batches` (what the emulator sends), `items` or `data`, are all read.
 */
export const BatchListSchema = z
  .union([z.array(z.unknown()), z.looseObject({})])
  .transform((answer, ctx): BatchListItem[] => {
    const list = Array.isArray(answer) ? answer : listIn(answer);
    if (!list) {
      ctx.addIssue({ code: "custom", message: "holds no list of batches (no array, nor batches, items or data)" });
      return z.NEVER;
    }
    const items = z.array(BatchListItemSchema).safeParse(list);
    if (items.success) return items.data;
    for (const issue of items.error.issues) ctx.addIssue({ ...issue, code: "custom", message: issue.message });
    return z.NEVER;
  });

function listIn(answer: Record<string, unknown>): unknown[] | undefined {
  for (const key of ["batches", "items", "data"]) {
    const value = answer[key];
    if (Array.isArray(value)) return value;
  }
  const arrays = Object.values(answer).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** `offset` and `limit` of the child-request page (`limit` 50 in the platform's example; its maximum is not documented). */
export const BatchPageQuerySchema = z.object({
  offset: z.number().int("offset must be a whole number").min(0, "offset must be at least 0").optional(),
  limit: z.number().int("limit must be a whole number").min(1, "limit must be at least 1").optional(),
});

/**
 * The state rules: a batch is done when every request completed or failed (it stays FINALIZED;
 * a failed request does not fail the batch); FAILED and CANCELLED are the only terminal states;
 * a DRAFT never runs.
 */
export function batchDone(summary: BatchSummary): boolean {
  if (summary.status === "FAILED" || summary.status === "CANCELLED") return true;
  return summary.status === "FINALIZED" && summary.requestCompleted + summary.requestFailed >= summary.requestTotal;
}

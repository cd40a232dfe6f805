import { z as zod } from "zod";
import { RateLimitError, RunpodError } from "../errors";
import { type BatchAck, BatchAckSchema, type BatchSummary, BatchSummarySchema } from "../schemas";
import type { Transport } from "../transport";
import { classifyReadFailure, classifySubmitFailure, retryAfterOf } from "./batch-failures";

/*
 * The requests of `submitMany` through the batch API, and what their failures mean: a write
 * refused before it acted (429, 502 to 504, no connection) is sent again; one whose answer was
 * lost is looked up in the batch's counters instead of being sent twice (batch-api-run.ts); a
 * 401, 403 or 404 ends the run.
 */

/** What the calls need of the run: its transport, whether it stopped, and a wait that ends when it does. */
export interface CallContext {
  readonly transport: Transport;
  readonly prefix: string;
  readonly halted: boolean;
  /** Waits `ms`; false when the run stopped meanwhile. */
  sleep(ms: number): Promise<boolean>;
}

/** How a write ended: answered, stopped (the run halted), or lost (it may have acted). */
export type WriteResult<T> =
  { kind: "answered"; value: T } | { kind: "stopped" } | { kind: "lost"; error: RunpodError };

/** Raised to end the run: nothing more can succeed (401, 403, 404 endpoint, a refused write). */
export class FatalRunError extends Error {
  constructor(readonly error: RunpodError) {
    super(error.message);
  }
}

/** Waits after a refusal: the platform's `Retry-After`, else 1 s doubling to 30 s. */
function refusalWait(error: unknown, refusals: number): number {
  return retryAfterOf(error) ?? Math.min(30_000, 1000 * 2 ** Math.min(refusals, 5));
}

/**
 * Sends a write (create, append, finalize) until it is answered: refusals and connections that
 * never opened are sent again (they did not act; a 429 also says the endpoint's active batches
 * or queued requests are full, so waiting is right). A lost answer is the caller's to resolve.
 */
export async function sendWrite<T>(
  ctx: CallContext,
  path: string,
  body: string | undefined,
  schema: zod.ZodType<T>,
): Promise<WriteResult<T>> {
  for (let refusals = 0; ; refusals++) {
    if (ctx.halted) return { kind: "stopped" };
    try {
      const value = await ctx.transport.send({
        method: "POST",
        base: ctx.transport.config.queueUrl,
        path,
        body,
        idempotent: false,
        schema,
      });
      return { kind: "answered", value };
    } catch (error) {
      const kind = classifySubmitFailure(error);
      if (kind === "maybe-delivered") return { kind: "lost", error: error as RunpodError };
      if (kind === "fatal" || kind === "rejected") throw new FatalRunError(error as RunpodError);
      if (!(await ctx.sleep(refusalWait(error, refusals)))) return { kind: "stopped" };
    }
  }
}

/**
 * Reads something of a batch until it is answered: transient failures are read again, up to 10 in
 * a row; a 404 (the batch is gone) comes back as the error; a 401 or 403 ends the run. Undefined
 * when the run stopped.
 */
export async function readBatch<T>(
  ctx: CallContext,
  path: string,
  schema: zod.ZodType<T>,
  query?: Record<string, number>,
): Promise<T | RunpodError | undefined> {
  for (let failures = 0; ;) {
    if (ctx.halted) return undefined;
    try {
      return await ctx.transport.send({
        method: "GET",
        base: ctx.transport.config.queueUrl,
        path,
        query,
        idempotent: true,
        schema,
      });
    } catch (error) {
      const kind = classifyReadFailure(error);
      if (kind === "fatal") throw new FatalRunError(error as RunpodError);
      if (kind === "rejected" || (!(error instanceof RateLimitError) && ++failures >= 10)) return error as RunpodError;
      if (!(await ctx.sleep(refusalWait(error, failures)))) return undefined;
    }
  }
}

/** The batch's summary (see {@link readBatch}). */
export function readSummary(ctx: CallContext, batchId: string): Promise<BatchSummary | RunpodError | undefined> {
  return readBatch(ctx, `${ctx.prefix}batch/${encodeURIComponent(batchId)}`, BatchSummarySchema);
}

/** Finalizes a batch; a lost answer is resolved by its state (FINALIZED or not). False when the run stopped. */
export async function finalizeBatch(ctx: CallContext, batchId: string): Promise<boolean> {
  const path = `${ctx.prefix}batch/${encodeURIComponent(batchId)}/finalize`;
  for (;;) {
    const sent = await sendWrite<BatchAck>(ctx, path, undefined, BatchAckSchema);
    if (sent.kind !== "lost") return sent.kind === "answered";
    const summary = await readSummary(ctx, batchId);
    if (summary === undefined) return false;
    if (summary instanceof RunpodError) throw new FatalRunError(summary);
    if (summary.status !== "DRAFT") return true;
  }
}

/** What an append answers: its shape is not documented, so any object. */
const AppendAnswerSchema = zod.looseObject({});

/**
 * Appends one part (`count` requests, `offset` of them already in the batch) until it is in the
 * batch exactly once: a lost answer is settled by the batch's `requestTotal` (the part landed, or
 * it is sent again). False when the run stopped first.
 */
export async function appendPart(
  ctx: CallContext,
  batchId: string,
  body: string,
  offset: number,
  count: number,
): Promise<boolean> {
  const path = `${ctx.prefix}batch/${encodeURIComponent(batchId)}/requests`;
  for (;;) {
    const sent = await sendWrite(ctx, path, body, AppendAnswerSchema);
    if (sent.kind !== "lost") return sent.kind === "answered";
    const landed = await appendLanded(ctx, batchId, offset, count);
    if (landed !== false) return landed === true;
  }
}

/**
 * Whether an append of `count` requests after `offset` is in the batch: its `requestTotal` is
 * `offset + count` (yes) or `offset` (no); anything else means someone else changed the batch,
 * and the run cannot tell (it ends). Undefined when the run stopped.
 */
export async function appendLanded(
  ctx: CallContext,
  batchId: string,
  offset: number,
  count: number,
): Promise<boolean | undefined> {
  const summary = await readSummary(ctx, batchId);
  if (summary === undefined) return undefined;
  if (summary instanceof RunpodError) throw new FatalRunError(summary);
  if (summary.requestTotal === offset + count) return true;
  if (summary.requestTotal === offset) return false;
  const why =
    `batch ${batchId} holds ${summary.requestTotal} requests, where this run had appended ${offset} and ` +
    `${count} more whose answer was lost: something else changed the batch`;
  throw new FatalRunError(new RunpodError("api_error", why));
}

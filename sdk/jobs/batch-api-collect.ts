import { RunpodError } from "../errors";
import {
  type BatchChild,
  BatchChildPageSchema,
  batchDone,
  type JobRecord,
  type JobStatus,
  TERMINAL_JOB_STATUSES,
} from "../schemas";
import { readBatch, readSummary } from "./batch-api-calls";
import { batchPath, type RunContext, type Slot } from "./batch-api-slot";
import type { BatchOutcome } from "./batch-options";

/*
 * The results of a batch of `submitMany` through the batch API: its counters are read until it
 * is done, then its child requests page by page, each becoming the outcome of the input at its
 * position (requests are listed in the order they were appended).
 */

/** Child requests per page read: the platform's example size (its maximum is not documented). */
export const CHILD_PAGE = 50;

/** The job record of a child request that ended: `error` as text, as `/status` gives it. */
function recordOf(child: BatchChild): JobRecord {
  const record: JobRecord = { id: child.id, status: child.status as JobStatus };
  if (child.output !== undefined) record.output = child.output;
  if (child.error !== undefined && child.error !== null)
    record.error = typeof child.error === "string" ? child.error : JSON.stringify(child.error);
  return record;
}

/**
 * Follows a batch to its end and hands out one outcome per request: `ended` with the request's
 * record, or (without `waitForResults`) `submitted` once the batch is finalized. A request that
 * did not end in a batch that ended (FAILED, CANCELLED), or that its batch no longer lists, is an
 * `error`. The run's stop ends the loop; what is left is reported by the run.
 */
export async function collectSlot<O>(run: RunContext<O>, slot: Slot): Promise<void> {
  const reported = new Uint8Array(slot.indices.length);
  slot.reported = reported;
  if (run.options.waitForResults && !(await waitUntilDone(run, slot, reported))) return;
  run.slotDone(slot);
  const path = batchPath(run.prefix, slot.id, "/requests");
  let position = 0;
  while (position < slot.indices.length) {
    const page = await readBatch(run, path, BatchChildPageSchema, { offset: position, limit: CHILD_PAGE });
    if (page === undefined) return;
    if (page instanceof RunpodError) return reportRest(run, slot, reported, position, page);
    for (const child of page.requests) {
      if (position >= slot.indices.length) break;
      const at = position++;
      if (reported[at]) continue;
      reported[at] = 1;
      await run.push(outcomeOf<O>(run, slot, slot.indices[at]!, child));
    }
    if (!page.hasMore || page.requests.length === 0) break;
  }
  if (position < slot.indices.length) {
    const error = new RunpodError("api_error", `batch ${slot.id} lists fewer requests than were appended to it`);
    await reportRest(run, slot, reported, position, error);
  }
}

function outcomeOf<O>(run: RunContext<O>, slot: Slot, index: number, child: BatchChild): BatchOutcome<O> {
  if (!run.options.waitForResults) return { kind: "submitted", index, jobId: child.id };
  if (TERMINAL_JOB_STATUSES.has(child.status as JobStatus))
    return { kind: "ended", index, jobId: child.id, job: recordOf(child) as JobRecord<O> };
  const why = `request ${child.id} of batch ${slot.id} is ${child.status}, and the batch ended ${slot.summary?.status ?? ""}`;
  return { kind: "error", index, jobId: child.id, error: new RunpodError("api_error", why.trim()) };
}

/** Reads the batch's counters until it is done or ended; false when the run stopped or the inputs were reported otherwise. */
async function waitUntilDone<O>(run: RunContext<O>, slot: Slot, reported: Uint8Array): Promise<boolean> {
  const deadline = Date.now() + run.options.resultTimeoutMs;
  for (;;) {
    const summary = await readSummary(run, slot.id);
    if (summary === undefined) return false;
    if (summary instanceof RunpodError) {
      run.slotDone(slot);
      await reportRest(run, slot, reported, 0, summary);
      return false;
    }
    slot.summary = summary;
    run.progress();
    if (batchDone(summary)) return true;
    if (Date.now() >= deadline) {
      run.slotDone(slot);
      const why = `batch ${slot.id} was not done within resultTimeoutMs (${run.options.resultTimeoutMs} ms); it goes on`;
      await reportRest(run, slot, reported, 0, new RunpodError("timeout", why));
      return false;
    }
    if (!(await run.sleep(run.options.pollIntervalMs))) return false;
  }
}

/** Reports every request of the batch from `from` on that has no outcome yet as an `error`. */
async function reportRest<O>(run: RunContext<O>, slot: Slot, reported: Uint8Array, from: number, error: RunpodError) {
  for (let at = from; at < slot.indices.length; at++) {
    if (reported[at]) continue;
    reported[at] = 1;
    await run.push({ kind: "error", index: slot.indices[at]!, error });
  }
}

import { RequestValidationError, RunpodError } from "../errors";
import { BatchAckSchema } from "../schemas";
import { appendLanded, appendPart, FatalRunError, finalizeBatch, readSummary, sendWrite } from "./batch-api-calls";
import { batchPath, bodyHash, type Pending, type RunContext, type Slot } from "./batch-api-slot";
import { batchBody } from "./batch-bodies";
import type { BatchJournal, JournaledBatch, JournaledPart } from "./batch-journal";

/** What resuming needs of the run besides its context: the inputs, and its batches. */
export interface ResumeContext<O> extends RunContext<O> {
  nextValid(): Promise<Pending | undefined>;
  adopt(slot: Slot): Slot;
  collect(slot: Slot): void;
  /** These inputs are in a batch (reported `aborted` from their batch if the run stops). */
  placed(indices: readonly number[]): void;
  resumed(count: number): void;
}

/**
 * Picks up the batches an earlier run recorded in the journal before anything new is sent. The
 * inputs are read again in order and each recorded part is checked against them (same requests,
 * same SHA-256); a mismatch ends the run before any write, naming the inputs. An append that was
 * announced but not confirmed is settled by the batch's `requestTotal` (it landed, or it is sent
 * now); a batch not yet finalized is finalized; then every batch is collected as in a first run.
 * An empty batch of the journal (killed before its first append) is cancelled, to free its place.
 */
export async function resumeJournal<O>(run: ResumeContext<O>, journal: BatchJournal): Promise<void> {
  for (const recorded of journal.state.batches) {
    if (run.halted) return;
    if (recorded.id === undefined) continue; // a create without an answer: nothing of ours is in it
    if (recorded.parts.length === 0) {
      await sendWrite(run, batchPath(run.prefix, recorded.id, "/cancel"), undefined, BatchAckSchema);
      continue;
    }
    const slot = run.adopt({
      seq: recorded.seq,
      id: recorded.id,
      indices: [],
      done: false,
      summary: undefined,
      reported: undefined,
    });
    for (const part of recorded.parts) {
      const read = await rereadPart(run, journal, part);
      if (!read) return;
      for (const index of read.indices) slot.indices.push(index);
      run.placed(read.indices);
      if (!part.confirmed && !(await settlePart(run, journal, recorded, part, read.body))) return;
      run.resumed(part.count);
    }
    if (!recorded.finalized && !(await finalizeRecorded(run, recorded))) return;
    if (!recorded.finalized) journal.write({ t: "finalized", seq: recorded.seq });
    run.collect(slot);
  }
}

/**
 * Reads the part's inputs again and checks them against its record; answers their indices and
 * the part's body (undefined when the run stopped).
 */
async function rereadPart<O>(
  run: ResumeContext<O>,
  journal: BatchJournal,
  part: JournaledPart,
): Promise<{ indices: number[]; body: string } | undefined> {
  const texts: string[] = [];
  const indices: number[] = [];
  while (indices.length === 0 || indices[indices.length - 1]! < part.to) {
    const next = await run.nextValid();
    if (!next) {
      if (run.halted) return undefined;
      throw mismatch(journal, part, "the inputs ended before them");
    }
    if (next.index < part.from || next.index > part.to)
      throw mismatch(journal, part, `input ${next.index} is not among them`);
    texts.push(next.text);
    indices.push(next.index);
  }
  const body = batchBody("append", texts);
  if (texts.length !== part.count || bodyHash(body) !== part.hash) {
    throw mismatch(journal, part, "the inputs given now differ from those the journal sent");
  }
  return { indices, body };
}

/** An append announced without its answer: in the batch already, or sent now. False when the run stopped. */
async function settlePart<O>(
  run: ResumeContext<O>,
  journal: BatchJournal,
  recorded: JournaledBatch,
  part: JournaledPart,
  body: string,
): Promise<boolean> {
  const landed = await appendLanded(run, recorded.id!, part.offset, part.count);
  if (landed === undefined) return false;
  if (!landed && !(await appendPart(run, recorded.id!, body, part.offset, part.count))) return false;
  journal.write({ t: "appended", seq: recorded.seq, offset: part.offset });
  return true;
}

/** Finalizes a batch of the journal unless it is already (a finalize whose answer was lost). */
async function finalizeRecorded<O>(run: ResumeContext<O>, recorded: JournaledBatch): Promise<boolean> {
  if (recorded.finalizeSent) {
    const summary = await readSummary(run, recorded.id!);
    if (summary === undefined) return false;
    if (summary instanceof RunpodError) throw new FatalRunError(summary);
    if (summary.status !== "DRAFT") return true;
  }
  return finalizeBatch(run, recorded.id!);
}

function mismatch(journal: BatchJournal, part: JournaledPart, why: string): FatalRunError {
  const rule =
    `records inputs ${part.from} to ${part.to} as ${part.count} requests sent to a batch, and ${why}: ` +
    "rerun with the same inputs in the same order, or start a new journal";
  return new FatalRunError(
    new RequestValidationError([{ field: "journal", value: JSON.stringify(journal.path), rule }]),
  );
}

import * as fs from "node:fs";
import { RequestValidationError } from "../errors";

/*
 * The journal of `submitMany` through the batch API: one JSON record a line, in a file the caller
 * names. Each step that changes the platform is announced before its request is sent (written and
 * flushed to disk), and confirmed once it was answered, so a rerun after a kill knows which inputs
 * went into which batch and never sends one twice (docs/client.md "Batch jobs through submitMany").
 */

/** One line of the journal. `seq` numbers the run's batches from 0. */
export type JournalRecord =
  | { t: "start"; v: 1; endpointId: string }
  /** A batch is about to be created; its inputs start at `from`. */
  | { t: "create"; seq: number; from: number }
  | { t: "created"; seq: number; id: string }
  /**
   * An append is about to be sent: `count` requests at positions `offset`.. of the batch, read
   * from inputs `from`..`to` (inputs refused before sending have no position), and the SHA-256 of
   * its body, which a rerun compares with the inputs it is given.
   */
  | { t: "append"; seq: number; offset: number; count: number; from: number; to: number; hash: string }
  | { t: "appended"; seq: number; offset: number }
  | { t: "finalize"; seq: number }
  | { t: "finalized"; seq: number };

/** One append of a journaled batch. */
export interface JournaledPart {
  offset: number;
  count: number;
  from: number;
  to: number;
  hash: string;
  /** Answered; when false the append may or may not have landed (the batch's `requestTotal` says). */
  confirmed: boolean;
}

/** One batch as the journal knows it. */
export interface JournaledBatch {
  seq: number;
  /** The first input of the batch. */
  from: number;
  /** Its id, once its create was answered (a create without an answer left at most an empty DRAFT). */
  id: string | undefined;
  parts: JournaledPart[];
  finalizeSent: boolean;
  finalized: boolean;
}

/** What a journal holds: the endpoint it is for, and its batches in order. */
export interface JournalState {
  endpointId: string | undefined;
  batches: JournaledBatch[];
}

/**
 * Folds the journal's records into its batches. A last line cut short by a kill is no record
 * (every record is one line, and a step is only taken once its line is whole).
 */
export function foldJournal(text: string): JournalState {
  const state: JournalState = { endpointId: undefined, batches: [] };
  const bySeq = new Map<number, JournaledBatch>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let r: JournalRecord;
    try {
      r = JSON.parse(line) as JournalRecord;
    } catch {
      continue;
    }
    if (r.t === "start") {
      state.endpointId = r.endpointId;
      continue;
    }
    if (r.t === "create") {
      const batch = { seq: r.seq, from: r.from, id: undefined, parts: [], finalizeSent: false, finalized: false };
      bySeq.set(r.seq, batch);
      state.batches.push(batch);
      continue;
    }
    const batch = bySeq.get(r.seq);
    if (!batch) continue;
    if (r.t === "created") batch.id = r.id;
    else if (r.t === "append") {
      const { offset, count, from, to, hash } = r;
      batch.parts.push({ offset, count, from, to, hash, confirmed: false });
    } else if (r.t === "appended") {
      const part = batch.parts.find((p) => p.offset === r.offset);
      if (part) part.confirmed = true;
    } else if (r.t === "finalize") batch.finalizeSent = true;
    else if (r.t === "finalized") batch.finalized = true;
  }
  return state;
}

/** The journal file: read once when the run starts, then appended to. */
export class BatchJournal {
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    /** What earlier runs recorded. */
    readonly state: JournalState,
  ) {}

  /**
   * Opens (or creates) the journal at `path` for `endpointId`. A journal written for another
   * endpoint is refused, naming both, before any request.
   */
  static open(path: string, endpointId: string, context: string): BatchJournal {
    const text = fs.existsSync(path) ? fs.readFileSync(path, "utf8") : "";
    const state = foldJournal(text);
    if (state.endpointId !== undefined && state.endpointId !== endpointId) {
      const rule = `is the journal of a run on endpoint ${state.endpointId}, not ${endpointId}: give each job set its own journal`;
      throw new RequestValidationError([{ field: "journal", value: JSON.stringify(path), rule }], context);
    }
    const journal = new BatchJournal(path, state);
    journal.fd = fs.openSync(path, "a");
    // A journal cut off mid-line by a kill: the next record starts on a line of its own.
    if (text !== "" && !text.endsWith("\n")) fs.writeSync(journal.fd, "\n");
    if (state.endpointId === undefined) journal.write({ t: "start", v: 1, endpointId }, true);
    return journal;
  }

  /**
   * Appends a record. `durable`: flushed to disk before it returns, for the announcement of a
   * step (what a rerun must know even after a power cut); a confirmation only has to survive the
   * process (the operating system writes it out).
   */
  write(record: JournalRecord, durable = false): void {
    if (this.fd === undefined) return;
    fs.writeSync(this.fd, `${JSON.stringify(record)}\n`);
    if (durable) fs.fdatasyncSync(this.fd);
  }

  /** Closes the file; later writes are dropped. */
  close(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

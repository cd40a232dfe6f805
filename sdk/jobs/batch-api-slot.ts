import { createHash } from "node:crypto";
import { RequestValidationError, type RunpodError } from "../errors";
import type { BatchSummary, JobRequest } from "../schemas";
import { AppendPart } from "./batch-bodies";
import { runBody } from "./batch-inputs";
import type { BatchJournal } from "./batch-journal";
import type { CallContext } from "./batch-api-calls";
import type { BatchOutcome, ResolvedSubmitManyOptions } from "./batch-options";

/* What the parts of `submitMany` through the batch API share (batch-api-run.ts). */

/** One batch of the run: which input each of its requests is, and how far it got. */
export interface Slot {
  /** Its number in the run (and the journal), from 0. */
  readonly seq: number;
  readonly id: string;
  /** The input index of each request, by position in the batch (the order they were appended). */
  readonly indices: number[];
  /** Done or ended: it no longer counts among the endpoint's active batches. */
  done: boolean;
  /** The last summary read. */
  summary: BatchSummary | undefined;
  /** Which positions have their outcome out: set once the batch's results are collected. */
  reported: Uint8Array | undefined;
}

/** What the collection and the resumption need of the run. */
export interface RunContext<O> extends CallContext {
  readonly endpointId: string;
  readonly options: ResolvedSubmitManyOptions;
  readonly journal: BatchJournal | undefined;
  /** Hands an outcome out; waits while the caller has many not yet taken. */
  push(outcome: BatchOutcome<O>): Promise<void>;
  /** The batch is done (or ended): it frees its place among the active ones. */
  slotDone(slot: Slot): void;
  /** Tells `onProgress`. */
  progress(): void;
}

/** The SHA-256 of an append's body: what the journal keeps to recognise the same inputs on a rerun. */
export function bodyHash(body: string): string {
  return createHash("sha256").update(body).digest("base64url");
}

/** The path of a batch below the endpoint's prefix. */
export function batchPath(prefix: string, batchId: string, rest = ""): string {
  return `${prefix}batch/${encodeURIComponent(batchId)}${rest}`;
}

/** An input read and ready for a batch: its index, its request serialized, and its size. */
export interface Pending {
  index: number;
  text: string;
  bytes: number;
}

/**
 * An input as a batch request: the batch's default `policy` and `webhook` where it has none,
 * validated and serialized as for `/run`, and small enough for one append; else the error of its
 * outcome, naming the input and the field.
 */
export function pendingOf(
  request: JobRequest<unknown>,
  index: number,
  options: ResolvedSubmitManyOptions,
  endpointId: string,
): Pending | RunpodError {
  const text = runBody(request, index, options, endpointId);
  if (typeof text !== "string") return text;
  const bytes = Buffer.byteLength(text);
  if (AppendPart.fits(bytes)) return { index, text, bytes };
  const problem = {
    field: "input",
    value: `${bytes} bytes`,
    rule: "must fit one append of a batch (10 MiB with its frame)",
  };
  return new RequestValidationError([problem], `input ${index} of submitMany on ${endpointId}`);
}

/** A promise to wait on until the next `notify()`: how the run's loops hear that something changed. */
export class ChangeSignal {
  private change: { promise: Promise<void>; resolve: () => void } | undefined;

  /** Resolves at the next `notify()`. */
  changed(): Promise<void> {
    if (!this.change) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.change = { promise, resolve };
    }
    return this.change.promise;
  }

  /** Wakes every waiter. */
  notify(): void {
    const change = this.change;
    this.change = undefined;
    change?.resolve();
  }
}

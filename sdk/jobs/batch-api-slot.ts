import { createHash } from "node:crypto";
import type { BatchSummary } from "../schemas";
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

import { LIMITS, type StreamChunk } from "../../sdk/schemas";
import type { Job } from "./job";
import { isTerminal } from "./job-state-machine";

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "null");
}

/** Splits `text` into pieces whose JSON encoding is at most `limit` bytes, never inside a surrogate pair. */
export function splitText(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + Math.max(1, limit - 2));
    for (;;) {
      if (end < text.length && end - start > 1) {
        const code = text.charCodeAt(end - 1);
        if (code >= 0xd800 && code <= 0xdbff) end--;
      }
      const size = jsonBytes(text.slice(start, end));
      if (size <= limit || end - start <= 1) break;
      end = start + Math.max(1, Math.floor(((end - start) * limit * 0.98) / size));
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * The outputs of the chunks one yielded value becomes (the platform's `/stream` rule: a
 * streamed chunk is at most 1 MB; larger output is split over several chunks). A value within the
 * limit stays whole; a larger string is cut into substrings, any other larger value into pieces
 * of its JSON text (concatenate them and parse to rebuild it). Throws for values JSON cannot encode.
 */
export function splitChunkOutput(value: unknown, limit: number = LIMITS.streamChunkBytes): unknown[] {
  const text = JSON.stringify(value);
  if (text === undefined) return [null];
  if (Buffer.byteLength(text) <= limit) return [value];
  return splitText(typeof value === "string" ? value : text, limit);
}

/**
 * Chunks streamed since the last call (`/stream`, read the way the official SDKs poll it). A
 * job whose handler does not stream yields its output as one chunk, once, when it completes.
 */
export function takeStreamChunks(job: Job): StreamChunk[] {
  const chunks = job.chunks;
  if (chunks) {
    job.chunks = chunks.length ? [] : chunks;
    return chunks;
  }
  if (job.status === "COMPLETED") {
    job.chunks = [];
    return [{ output: job.output }];
  }
  return [];
}

/** True when `/stream` has something to answer at once: undelivered chunks, or a job that ended. */
export function hasStreamNews(job: Job): boolean {
  return (job.chunks !== undefined && job.chunks.length > 0) || isTerminal(job.status);
}

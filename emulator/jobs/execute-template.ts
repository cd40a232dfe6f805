import type { StreamChunk } from "../../sdk/schemas";
import type { JobContext, Template } from "../handlers/handler-types";
import { splitChunkOutput } from "./stream-chunks";

type StepIterator = { next(): unknown; return?(value?: unknown): unknown };

function isIterator(value: unknown): value is StepIterator {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<PropertyKey, unknown>;
  return (
    typeof v.next === "function" &&
    (typeof v[Symbol.asyncIterator] === "function" || typeof v[Symbol.iterator] === "function")
  );
}

/** Fails unless `value` can be sent as JSON (a handler's output ends up in a response body). */
function assertJson(value: unknown): void {
  try {
    JSON.stringify(value);
  } catch (error) {
    throw new Error(`the handler's output cannot be encoded as JSON: ${(error as Error).message}`);
  }
}

/**
 * Runs a template's handler for one job. Plain handlers resolve to the output. Generators stream:
 * each yielded value becomes one or more chunks (split at 1 MB) handed to `emit`; the final output
 * is the generator's return value, or the array of yielded outputs when it returns nothing.
 * `emit` returns false once the job no longer runs (cancelled, timed out, expired), which stops
 * the generator.
 */
export async function executeTemplate(
  template: Template,
  ctx: JobContext,
  emit: (chunk: StreamChunk) => boolean,
): Promise<unknown> {
  const result = template.handler(ctx);
  if (!isIterator(result)) {
    const output = await result;
    // Even `echo` needs the check: a client can send input nested too deeply for JSON.stringify.
    assertJson(output);
    return output;
  }
  const outputs: unknown[] = [];
  try {
    for (;;) {
      const step = (await result.next()) as IteratorResult<unknown, unknown>;
      if (ctx.signal.aborted) return undefined;
      if (step.done) {
        if (step.value === undefined) return outputs;
        assertJson(step.value);
        return step.value;
      }
      const chunk = template.yieldsChunks ? (step.value as StreamChunk) : { output: step.value };
      for (const piece of splitChunkOutput(chunk.output)) {
        const current = emit(chunk.metrics ? { output: piece, metrics: chunk.metrics } : { output: piece });
        if (!current) return undefined;
      }
      outputs.push(chunk.output);
    }
  } finally {
    if (ctx.signal.aborted) Promise.resolve(result.return?.()).catch(() => undefined);
  }
}

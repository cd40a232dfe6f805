import type { StreamChunk } from "../../sdk/schemas";
import type { JobContext, Template } from "./handler-types";
import { VLLM_WORKER_TEMPLATE } from "./vllm/vllm-worker";

function nonNegativeNumber(value: unknown, field: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new Error(`input.${field} must be a non-negative number, got ${JSON.stringify(value) ?? "undefined"}`);
  }
  return value;
}

/** `echo`: the output is the job's input (docs/emulator.md, "Templates and handlers"). */
const echo = ({ input }: JobContext) => Promise.resolve(input);

/** `sleep`: waits `input.seconds` on the emulator clock, then outputs `{ slept: seconds }`. */
async function sleep({ input, sleep: wait }: JobContext) {
  const seconds = nonNegativeNumber(input.seconds, "seconds");
  await wait(seconds * 1000);
  return { slept: seconds };
}

/** `fail`: fails with `input.message`. */
function fail({ input }: JobContext): never {
  throw new Error(typeof input.message === "string" ? input.message : "the fail template failed as asked");
}

/**
 * `stream`: streams `input.chunks` (default 3) text chunks in the platform's stream-chunk shape, one
 * every `input.delayMs` (default 0) on the emulator clock.
 */
async function* stream({ input, sleep: wait }: JobContext): AsyncGenerator<StreamChunk> {
  const count = Math.floor(nonNegativeNumber(input.chunks, "chunks", 3));
  if (count > 100_000) throw new Error(`input.chunks must be at most 100000, got ${count}`);
  const delayMs = nonNegativeNumber(input.delayMs, "delayMs", 0);
  const prompt = typeof input.prompt === "string" ? input.prompt : "";
  const inputTokens = prompt.split(/\s+/).filter(Boolean).length;
  for (let i = 0; i < count; i++) {
    if (delayMs > 0) await wait(delayMs);
    yield {
      output: { input_tokens: inputTokens, output_tokens: i + 1, text: [`chunk ${i + 1} of ${count}`] },
      metrics: {
        avg_gen_throughput: 42.0,
        avg_prompt_throughput: 100.0,
        cpu_kv_cache_usage: 0,
        gpu_kv_cache_usage: 0.01,
        input_tokens: inputTokens,
        output_tokens: i + 1,
        pending: 0,
        running: 1,
        scenario: "stream",
        stream_index: i,
        swapped: 0,
      },
    };
  }
}

/** The templates that always exist: `echo`, `sleep`, `fail`, `stream`, and the vLLM worker's `worker-v1-vllm`. */
export const BUILTIN_TEMPLATES: readonly Template[] = [
  { id: "echo", handler: echo, source: "builtin" },
  { id: "sleep", handler: sleep, source: "builtin" },
  { id: "fail", handler: fail, source: "builtin" },
  { id: "stream", handler: stream, yieldsChunks: true, source: "builtin" },
  VLLM_WORKER_TEMPLATE,
];

import type { JobContext, Template } from "../handler-types";
import { answerOpenAi } from "./vllm-openai";
import {
  chatPrompt,
  checkMessages,
  checkPrompt,
  type Generation,
  generate,
  servedModel,
  wholeAtLeast,
} from "./vllm-text";

/**
 * The handler name of the official vLLM worker image, `runpod/worker-v1-vllm:<tag>` (an image
 * runs the handler named by its last path segment, emulator/handlers/image-handler.ts).
 */
export const VLLM_WORKER_ID = "worker-v1-vllm";

/** One batch of an ordinary job's output, in the official worker's shape. */
interface Batch {
  choices: Array<{ tokens: string[] }>;
  usage: { input: number; output: number };
}

/**
 * An ordinary job (`{ prompt }` or `{ messages }`, with `sampling_params` and `stream`), answered
 * as the official worker does: batches `{ choices: [{ tokens }], usage: { input, output } }`, one
 * per token when streaming, else one holding the whole text. `sampling_params.max_tokens`
 * defaults to 16, vLLM's default. Bad input fails the job with a message naming the field.
 */
function* ordinaryJob(input: Record<string, unknown>): Generator<Batch, void, undefined> {
  const params = (input.sampling_params ?? {}) as Record<string, unknown>;
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new Error("input.sampling_params must be an object");
  }
  const max = wholeAtLeast(params.max_tokens, "input.sampling_params.max_tokens", 1) ?? 16;
  const n = wholeAtLeast(params.n, "input.sampling_params.n", 1) ?? 1;
  let g: Generation;
  if (input.messages !== undefined) {
    const { prompt, turn } = chatPrompt(checkMessages(input.messages, "input.messages"));
    g = generate(prompt, turn, max);
  } else if (input.prompt !== undefined) {
    const prompt = checkPrompt(input.prompt, "input.prompt");
    g = generate(prompt, prompt, max);
  } else {
    throw new Error("the vLLM worker needs input.prompt or input.messages (or openai_route and openai_input)");
  }
  const batch = (tokens: string[], output: number): Batch => ({
    choices: Array.from({ length: n }, () => ({ tokens })),
    usage: { input: g.promptTokens, output },
  });
  if (input.stream !== true) {
    yield batch([g.pieces.join("")], g.pieces.length * n);
    return;
  }
  for (let i = 0; i < g.pieces.length; i++) yield batch([g.pieces[i]!], (i + 1) * n);
}

/**
 * The official vLLM worker, emulated without a model (the text is derived from the prompt, see
 * vllm-text.ts): a generator, as the worker's handler is, so a job's output is the list of what
 * it yielded. A job with `openai_route` is one OpenAI call (vllm-openai.ts); any other is an
 * ordinary job. The model comes from the worker's env, as the worker reads it.
 */
async function* vllmWorker({ id, input, env }: JobContext): AsyncGenerator<unknown, void, undefined> {
  if (typeof input.openai_route === "string") {
    const body = input.openai_input;
    yield* answerOpenAi({
      route: input.openai_route,
      body: body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {},
      model: servedModel(env),
      jobId: id,
      created: Math.floor(Date.now() / 1000),
    });
    return;
  }
  yield* ordinaryJob(input);
}

/** The built-in template of the vLLM worker image. */
export const VLLM_WORKER_TEMPLATE: Template = { id: VLLM_WORKER_ID, handler: vllmWorker, source: "builtin" };

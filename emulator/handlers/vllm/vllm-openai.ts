import {
  BadInputError,
  chatPrompt,
  checkMessages,
  checkPrompt,
  type Generation,
  generate,
  type ServedModel,
  usageOf,
  wholeAtLeast,
} from "./vllm-text";

/*
 * The emulated vLLM worker's OpenAI face: what it answers to a job whose input is
 * `{ openai_route, openai_input }`. Like the official worker, it yields the OpenAI object once
 * (non-streaming), or the answer's Server-Sent Events as text, `data: {chunk}\n\n` one token at a
 * time, ending with `data: [DONE]\n\n` (streaming); an error is the OpenAI-style error object
 * `{ error: { message, type, param, code } }` whose `code` is the HTTP status.
 */

/** The routes the worker serves (below `/openai`). */
export const VLLM_OPENAI_ROUTES = ["/v1/models", "/v1/chat/completions", "/v1/completions"] as const;

/** An OpenAI-style error object, as vLLM answers one. */
export function openAiError(code: number, type: string, message: string, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** What one OpenAI call of a job needs: its route and body, the model served, the job's id and the time. */
export interface OpenAiCall {
  route: string;
  body: Record<string, unknown>;
  model: ServedModel;
  /** The job id, which the answer's `id` is made of (deterministic). */
  jobId: string;
  /** Seconds since the epoch, the answers' `created`. */
  created: number;
}

/** The answer (one value, or the SSE text pieces of a stream) of one OpenAI call. */
export async function* answerOpenAi(call: OpenAiCall): AsyncGenerator<unknown, void, undefined> {
  try {
    if (call.route === "/v1/models") {
      yield modelList(call);
      return;
    }
    if (call.route !== "/v1/chat/completions" && call.route !== "/v1/completions") {
      yield openAiError(
        400,
        "BadRequestError",
        `Invalid route ${call.route}: this worker serves ${VLLM_OPENAI_ROUTES.join(", ")}`,
      );
      return;
    }
    const model = call.body.model;
    if (model !== undefined && model !== call.model.name) {
      yield openAiError(404, "NotFoundError", `The model \`${String(model)}\` does not exist.`, "model");
      return;
    }
    yield* call.route === "/v1/chat/completions" ? chat(call) : completion(call);
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    yield openAiError(400, "BadRequestError", error.message, error.param);
  }
}

function modelList(call: OpenAiCall) {
  const card = {
    id: call.model.name,
    object: "model",
    created: call.created,
    owned_by: "vllm",
    root: call.model.root,
    parent: null,
  };
  return { object: "list", data: [card] };
}

/** `n`, and the token limit: `max_completion_tokens` (chat's newer name) or `max_tokens`. */
function limits(body: Record<string, unknown>, defaultMax: number | undefined) {
  const n = wholeAtLeast(body.n, "n", 1) ?? 1;
  const max =
    wholeAtLeast(body.max_completion_tokens, "max_completion_tokens", 1) ??
    wholeAtLeast(body.max_tokens, "max_tokens", 1) ??
    defaultMax;
  return { n, max };
}

function includeUsage(body: Record<string, unknown>): boolean {
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return options?.include_usage === true;
}

const sse = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
const DONE = "data: [DONE]\n\n";
const indexes = (n: number) => Array.from({ length: n }, (_, i) => i);

function* chat(call: OpenAiCall): Generator<unknown, void, undefined> {
  const { body } = call;
  const { prompt, turn } = chatPrompt(checkMessages(body.messages, "messages"));
  const { n, max } = limits(body, undefined);
  const g = generate(prompt, turn, max);
  const head = { id: `chatcmpl-${call.jobId}`, created: call.created, model: call.model.name };
  if (body.stream !== true) {
    const message = { role: "assistant", content: g.pieces.join("") };
    const choices = indexes(n).map((index) => ({ index, message, logprobs: null, finish_reason: g.finishReason }));
    yield { ...head, object: "chat.completion", choices, usage: usageOf(g, n) };
    return;
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sse({ ...head, object: "chat.completion.chunk", choices, ...extra });
  const delta = (d: Record<string, string>, finish: string | null) =>
    indexes(n).map((index) => ({ index, delta: d, logprobs: null, finish_reason: finish }));
  yield chunk(delta({ role: "assistant", content: "" }, null));
  for (const piece of g.pieces) yield chunk(delta({ content: piece }, null));
  yield chunk(delta({}, g.finishReason));
  if (includeUsage(body)) yield chunk([], { usage: usageOf(g, n) });
  yield DONE;
}

function* completion(call: OpenAiCall): Generator<unknown, void, undefined> {
  const { body } = call;
  const prompt = checkPrompt(body.prompt, "prompt");
  // OpenAI's (and vLLM's) default for completions: 16 tokens.
  const { n, max } = limits(body, 16);
  const g: Generation = generate(prompt, prompt, max);
  const head = { id: `cmpl-${call.jobId}`, object: "text_completion", created: call.created, model: call.model.name };
  const choices = (text: string, finish: string | null) =>
    indexes(n).map((index) => ({ index, text, logprobs: null, finish_reason: finish }));
  if (body.stream !== true) {
    yield { ...head, choices: choices(g.pieces.join(""), g.finishReason), usage: usageOf(g, n) };
    return;
  }
  for (const piece of g.pieces) yield sse({ ...head, choices: choices(piece, null) });
  yield sse({ ...head, choices: choices("", g.finishReason) });
  if (includeUsage(body)) yield sse({ ...head, choices: [], usage: usageOf(g, n) });
  yield DONE;
}

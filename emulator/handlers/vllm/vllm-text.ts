/*
 * The emulated vLLM worker's "model": deterministic text derived from the prompt, no weights. A
 * token is a whitespace-separated word; the reply is the words of the prompt's last turn in
 * reverse order ("say hello world" answers "world hello say"), cut at `max_tokens`.
 */

/** The model the official worker serves when its `MODEL_NAME` env is not set. */
export const DEFAULT_MODEL_NAME = "facebook/opt-125m";

/** What a worker's env says about its model: the served name (what `model` must be) and the weights' name. */
export interface ServedModel {
  /** `OPENAI_SERVED_MODEL_NAME_OVERRIDE`, else `MODEL_NAME`, else the worker's default. */
  name: string;
  /** `MODEL_NAME` (the Hugging Face id of the weights), else the worker's default. */
  root: string;
}

/** The model a worker with this env serves. */
export function servedModel(env: Readonly<Record<string, string>> | undefined): ServedModel {
  const root = env?.MODEL_NAME?.trim() || DEFAULT_MODEL_NAME;
  return { name: env?.OPENAI_SERVED_MODEL_NAME_OVERRIDE?.trim() || root, root };
}

/** A bad request field, answered as the OpenAI-style 400 (the route) or a failed job (an ordinary job). */
export class BadInputError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/** The words (tokens) of a text. */
export function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** The text of a message's `content`: a string, or the `text` parts of an array of content parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join(" ");
}

/** A chat's messages, checked: a non-empty array of objects with a `role`. */
export function checkMessages(value: unknown, field: string): Array<{ role: string; content?: unknown }> {
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((m) => m !== null && typeof m === "object" && typeof (m as { role?: unknown }).role === "string");
  if (!ok) throw new BadInputError(field, `${field} must be a non-empty array of messages, each with a role`);
  return value as Array<{ role: string; content?: unknown }>;
}

/** A completion prompt, checked: a string or an array of strings (joined). */
export function checkPrompt(value: unknown, field: string): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((p) => typeof p === "string")) return value.join(" ");
  throw new BadInputError(field, `${field} must be a string or an array of strings`);
}

/** A whole number of at least `min` (`max_tokens`, `n`), or undefined when absent (null counts as absent, as in OpenAI's API). */
export function wholeAtLeast(value: unknown, field: string, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new BadInputError(field, `${field} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** What the "model" produced for one prompt. */
export interface Generation {
  /** The reply's tokens, each with the space that precedes it (all but the first). */
  pieces: string[];
  /** `length` when `max_tokens` cut the reply, else `stop`. */
  finishReason: "stop" | "length";
  promptTokens: number;
}

/**
 * The reply to a prompt: the words of `turn` (the last user message, or the prompt) reversed,
 * at most `maxTokens` of them; `prompt` is all the text the model read (counted as prompt tokens).
 */
export function generate(prompt: string, turn: string, maxTokens: number | undefined): Generation {
  const reply = words(turn).reverse();
  const cut = maxTokens !== undefined && reply.length > maxTokens;
  const kept = cut ? reply.slice(0, maxTokens) : reply;
  return {
    pieces: kept.map((w, i) => (i === 0 ? w : ` ${w}`)),
    finishReason: cut ? "length" : "stop",
    promptTokens: words(prompt).length,
  };
}

/** A chat's prompt as the model reads it, and the turn it answers (the last user message, else the last message). */
export function chatPrompt(messages: ReadonlyArray<{ role: string; content?: unknown }>): {
  prompt: string;
  turn: string;
} {
  const prompt = messages.map((m) => contentText(m.content)).join("\n");
  const last = [...messages].reverse().find((m) => m.role === "user") ?? messages[messages.length - 1]!;
  return { prompt, turn: contentText(last.content) };
}

/** `usage` of an OpenAI answer. */
export function usageOf(g: Generation, n: number) {
  const completion = g.pieces.length * n;
  return { prompt_tokens: g.promptTokens, completion_tokens: completion, total_tokens: g.promptTokens + completion };
}

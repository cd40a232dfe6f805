import type { JobStatus } from "../../sdk/schemas";

/*
 * How a job's output becomes the answer of a call under `/openai/` (the platform's
 * OpenAI-compatible face of a queue-based endpoint): pure functions, unit-tested.
 */

/** The event that ends an OpenAI stream. */
export const SSE_DONE = "data: [DONE]\n\n";

/** An OpenAI-style error body, `{ error: { message, type, param, code } }`, `code` being the HTTP status. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: number };
}

/** An OpenAI-style error body. */
export function openAiErrorBody(code: number, type: string, message: string): OpenAiErrorBody {
  return { error: { message, type, param: null, code } };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const isStatus = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 400 && v <= 599;

/**
 * The HTTP status an output asks for when it is an OpenAI-style error: `{ error: { code } }` (the
 * OpenAI and newer vLLM shape) or `{ object: "error", code }` (older vLLM), with `code` a status
 * from 400 to 599. Undefined for anything else, which is a 200.
 */
export function errorStatusOf(value: unknown): number | undefined {
  if (!isObject(value)) return undefined;
  if (isObject(value.error) && isStatus(value.error.code)) return value.error.code;
  if (value.object === "error" && isStatus(value.code)) return value.code;
  return undefined;
}

/**
 * The answer of a call without `stream`: the handler's output, or, when the output is a list of
 * one value (what a generator that yields once leaves, as the official worker's handler does),
 * that value.
 */
export function wholeAnswer(output: unknown): unknown {
  return Array.isArray(output) && output.length === 1 ? output[0] : output;
}

/** The pieces of a streamed value: a list (a handler's whole output) is one piece per element. */
export function piecesOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/**
 * The Server-Sent Events text of one piece a handler yielded: a string is taken as SSE text
 * already (the official worker yields `data: {...}\n\n`, several events at once), anything else
 * becomes one event, `data: <JSON>\n\n`.
 */
export function sseText(piece: unknown): string {
  if (typeof piece === "string") return piece;
  return `data: ${JSON.stringify(piece) ?? "null"}\n\n`;
}

/** Whether SSE text holds the `[DONE]` event (a handler that ends its stream itself). */
export function holdsDone(text: string): boolean {
  return /(^|\n)data: ?\[DONE\][ \t]*(\r?\n|$)/.test(text);
}

/** What a call whose job did not complete is answered with: the status and the error body. */
export interface UnfinishedAnswer {
  status: number;
  body: OpenAiErrorBody;
}

/**
 * The answer to a call whose job ended otherwise than COMPLETED, or was removed before it ended:
 * FAILED is a 500 with the job's error, TIMED_OUT (the execution timeout) and a TTL that passed
 * are a 504, CANCELLED (`/cancel`) and a job purged from the queue a 500.
 */
export function unfinishedAnswer(
  jobId: string,
  status: JobStatus | "expired" | "purged",
  error: string | undefined,
): UnfinishedAnswer {
  switch (status) {
    case "FAILED":
      return { status: 500, body: openAiErrorBody(500, "InternalServerError", `job ${jobId} failed: ${error ?? ""}`) };
    case "TIMED_OUT":
      return { status: 504, body: openAiErrorBody(504, "TimeoutError", `job ${jobId} timed out: ${error ?? ""}`) };
    case "expired":
      return {
        status: 504,
        body: openAiErrorBody(504, "TimeoutError", `job ${jobId} reached its TTL before it ended`),
      };
    case "CANCELLED":
      return { status: 500, body: openAiErrorBody(500, "CancelledError", `job ${jobId} was cancelled`) };
    default:
      return {
        status: 500,
        body: openAiErrorBody(500, "CancelledError", `job ${jobId} was removed from the queue before it ran`),
      };
  }
}

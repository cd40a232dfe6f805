/*
 * A load-balancing endpoint's HTTP exchange as its workers' handlers see it: the request they get
 * as their input, and what their return value answers.
 */

/** An HTTP request as a worker's handler sees it (the handler's `input`). */
export interface HttpRequestView {
  method: string;
  /** The path below the endpoint's base, starting with `/`. */
  path: string;
  query: Record<string, string | string[]>;
  /** The request's headers, without `authorization` (the API key never reaches a worker). */
  headers: Record<string, string | string[] | undefined>;
  /** JSON bodies parsed, other bodies as text; undefined without a body. */
  body?: unknown;
}

/** What a request is answered with. */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A handler's return value that says its own status (and headers): `{ statusCode, headers?, body? }`. */
function isHttpAnswer(value: unknown): value is Partial<HttpAnswer> & { statusCode: number } {
  if (value === null || typeof value !== "object") return false;
  const code = (value as { statusCode?: unknown }).statusCode;
  return typeof code === "number" && Number.isInteger(code) && code >= 100 && code <= 599;
}

/** An answer of `statusCode` with `body` and no headers of its own. */
export function answer(statusCode: number, body: unknown): HttpAnswer {
  return { statusCode, headers: {}, body };
}

/** A handler's return value as an answer: `{ statusCode, headers, body }` as it says, anything else a 200 with it as the body. */
export function toAnswer(value: unknown): HttpAnswer {
  if (!isHttpAnswer(value)) return answer(200, value);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(value.headers ?? {})) headers[k.toLowerCase()] = String(v);
  return { statusCode: value.statusCode, headers, body: value.body };
}

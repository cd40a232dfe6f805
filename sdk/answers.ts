import type { z } from "zod";
import { APIError, type ProblemDetails, type RequestInfo, ResponseValidationError } from "./errors";
import { headerValue } from "./headers";
import type { Exchange } from "./http-exchange";
import { parseRetryAfter } from "./retry-policy";
import { ErrorBodySchema } from "./schemas/job";
import { fieldProblems } from "./schemas/validation";

/*
 * What an answer becomes: the validated body of a 2xx, or the error of any other status. The
 * transport sends and retries; these read what came back.
 */

/** The error of a non-2xx answer: its class follows from the status; a problem object keeps its fields. */
export function errorOfAnswer(info: RequestInfo, answer: Exchange): APIError {
  const body = parseErrorBody(answer.text);
  const requestId = headerValue(answer.headers["x-request-id"], "single") ?? body.requestId;
  const retryAfterMs = parseRetryAfter(answer.headers["retry-after"]);
  const message = body.message ?? body.detail ?? body.error ?? body.title;
  return APIError.fromResponse(answer.status, info, message, requestId, retryAfterMs, problemOf(body));
}

type ErrorBody = {
  message?: string | undefined;
  error?: string | undefined;
  requestId?: string | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  errors?: string[] | undefined;
};

/** The problem fields of an error body, when it is an RFC 9457 problem object (has a `title` or `detail`). */
function problemOf(body: ErrorBody): ProblemDetails | undefined {
  if (body.title === undefined && body.detail === undefined) return undefined;
  return { title: body.title, detail: body.detail, errors: body.errors };
}

function parseErrorBody(text: string): ErrorBody {
  if (!text) return {};
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: fall through and keep a short plain-text message.
  }
  return { message: text.length > 200 ? `${text.slice(0, 197)}...` : text };
}

/** What {@link bodyOfAnswer} reads of a request: how its 2xx body is read, and its method for errors. */
export interface BodyRequest<T> {
  method: string;
  /** Schema of the body; `undefined` when the body is ignored (e.g. 204). */
  schema?: z.ZodType<T> | undefined;
  /** The body as text, unparsed. */
  text?: boolean | undefined;
}

/** The body of a 2xx answer: the text as it came, or the JSON validated by the request's schema. */
export function bodyOfAnswer<T>(req: BodyRequest<T>, path: string, status: number, text: string): T {
  if (req.text) return text as T;
  if (!req.schema) return undefined as T;
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    throw new ResponseValidationError({ method: req.method, path }, status, [
      { field: "", value: `${text.slice(0, 40)}...`, rule: "is not JSON" },
    ]);
  }
  const parsed = req.schema.safeParse(json);
  if (!parsed.success)
    throw new ResponseValidationError({ method: req.method, path }, status, fieldProblems(parsed.error, json));
  return parsed.data;
}

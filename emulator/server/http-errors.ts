import type { z } from "zod";
import { describeProblems, type FieldProblem, fieldProblems, renderValue } from "../../sdk/schemas";

/** An error body of the emulator: `error` is a stable code, `message` says what was wrong. */
export interface ErrorBody {
  error: string;
  message: string;
  problems?: FieldProblem[];
}

/** An error that becomes a JSON answer with its status code. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

/** 400 naming each field, its value and the broken rule (issue: `field = value: rule; ...`). */
export function badRequest(problems: FieldProblem[]): HttpError {
  return new HttpError(400, { error: "bad_request", message: describeProblems(problems), problems });
}

/** 400 for one field. */
export function badField(field: string, value: unknown, rule: string): HttpError {
  return badRequest([{ field, value: renderValue(value, field), rule }]);
}

/** 404 for an unknown id. */
export function notFound(message: string): HttpError {
  return new HttpError(404, { error: "not_found", message });
}

/** Parses `input` with a shared schema of `sdk/schemas`, or throws a 400 naming every problem. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = fieldProblems(result.error, input);
  throw badRequest(problems);
}

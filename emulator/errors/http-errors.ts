import type { FastifyReply } from "fastify";
import type { z } from "zod";
import { describeProblems, type FieldProblem, fieldProblems, renderValue } from "../../sdk/schemas";

/** An error body of the emulator: `error` is a stable code, `message` says what was wrong. */
export interface ErrorBody {
  error: string;
  message: string;
  problems?: FieldProblem[];
}

/**
 * An RFC 9457 problem object: how management API v2 answers errors (OpenAPI v2 `ErrorResponse`,
 * content type `application/problem+json`).
 */
export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
  errors?: string[];
}

/** The content type of a problem answer. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

/** Titles of the statuses the emulator answers with (the reason phrases). */
const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * The problem object of an error body: `detail` is the message, and each field problem becomes
 * one `errors` entry written `$.field: rule (got value)` (values of secret fields are never shown).
 */
export function problemOf(status: number, body: ErrorBody): ProblemBody {
  const problem: ProblemBody = { title: TITLES[status] ?? "Error", status, detail: body.message };
  if (body.problems?.length) {
    problem.errors = body.problems.map((p) => `$${p.field ? `.${p.field}` : ""}: ${p.rule} (got ${p.value})`);
  }
  return problem;
}

/**
 * Sends an error answer in the route's dialect: a problem object on management v2 routes, the
 * `{ error, message, problems }` body everywhere else.
 */
export function sendError(reply: FastifyReply, status: number, body: ErrorBody, problems: boolean): FastifyReply {
  reply.code(status);
  if (!problems) return reply.send(body);
  return reply.header("content-type", PROBLEM_CONTENT_TYPE).send(problemOf(status, body));
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

/** 400 naming each field, its value and the broken rule (`field = value: rule; ...`). */
export function badRequest(problems: FieldProblem[]): HttpError {
  return new HttpError(400, { error: "bad_request", message: describeProblems(problems), problems });
}

/** 400 for one field. */
export function badField(field: string, value: unknown, rule: string): HttpError {
  return badRequest([{ field, value: renderValue(value, field), rule }]);
}

/** 422 for one field whose value is malformed (v2's answer to a query value it cannot read). */
export function unprocessableField(field: string, value: unknown, rule: string): HttpError {
  const problems = [{ field, value: renderValue(value, field), rule }];
  return new HttpError(422, { error: "unprocessable", message: describeProblems(problems), problems });
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

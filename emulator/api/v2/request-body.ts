import type { z } from "zod";
import { describeProblems, fieldProblems } from "../../../sdk/schemas";
import { HttpError } from "../../errors/http-errors";

/**
 * Parses a v2 body as the pods OpenAPI sorts failures: a body that breaks the contract's shape is
 * a 422 ("Fix the request. Never retry."), one that only breaks a cross-field rule (zod `custom`
 * issues of the shared schemas) a 400.
 */
export function parseV2Body<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const problems = fieldProblems(parsed.error, body);
  const status = parsed.error.issues.every((i) => i.code === "custom") ? 400 : 422;
  return thrown(
    new HttpError(status, {
      error: status === 400 ? "bad_request" : "unprocessable",
      message: describeProblems(problems),
      problems,
    }),
  );
}

/** 409: the resource's state does not allow the request now. */
export function conflict(message: string): HttpError {
  return new HttpError(409, { error: "conflict", message });
}

function thrown(error: Error): never {
  throw error;
}

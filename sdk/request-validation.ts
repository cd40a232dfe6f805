import type { z } from "zod";
import type { ApiVersion } from "./config";
import { RequestValidationError } from "./errors";
import { versionFieldProblems } from "./schemas/api-version-fields";
import { versionBoundProblems } from "./schemas/version-bounds";
import { fieldProblems } from "./schemas/validation";

/**
 * Validates a request value before anything is sent; throws a {@link RequestValidationError}
 * naming each field. `field` names a scalar value (such as a query parameter).
 */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  context: string,
  field?: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = fieldProblems(parsed.error, value).map((p) => (field && !p.field ? { ...p, field } : p));
  throw new RequestValidationError(problems, context);
}

/**
 * Validates version-neutral input for an operation on `version`, before anything is sent: the
 * schema's rules, then the inputs only the other version has (`VERSION_ONLY_FIELDS[kind]`) and the
 * bounds `version` states (`VERSION_BOUNDS[kind]`). One `RequestValidationError` names every field.
 */
export function validateForVersion<S extends z.ZodType>(
  schema: S,
  value: unknown,
  context: string,
  kind: string,
  version: ApiVersion,
): z.infer<S> {
  const valid = validateRequest(schema, value, context);
  if (valid !== null && typeof valid === "object") {
    const fields = valid as Record<string, unknown>;
    const problems = [...versionFieldProblems(kind, version, fields), ...versionBoundProblems(kind, version, fields)];
    if (problems.length) throw new RequestValidationError(problems, context);
  }
  return valid;
}

/**
 * Serializes a body and refuses it when it exceeds the documented limit, or when its `input`
 * cannot be encoded as JSON at all (a BigInt, a cycle): a RequestValidationError, never a TypeError.
 */
export function serializeWithinLimit(body: unknown, limitBytes: number, context: string): string {
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch (err) {
    const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
    throw new RequestValidationError(
      [{ field: "input", value: "(not JSON)", rule: `must be encodable as JSON (${why})` }],
      context,
    );
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > limitBytes) {
    throw new RequestValidationError(
      [
        {
          field: "input",
          value: `${bytes} bytes`,
          rule: `the request body must be at most ${limitBytes} bytes (${limitBytes / (1024 * 1024)} MB)`,
        },
      ],
      context,
    );
  }
  return text;
}

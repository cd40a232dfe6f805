import type { z } from "zod";

/** One problem with one field of an input. */
export interface FieldProblem {
  /** Dotted path of the field, e.g. `policy.ttl` or `gpuTypeIds.1`; empty for the whole object. */
  field: string;
  /** The offending value, rendered for humans (secrets are never rendered: see `redactKeys`). */
  value: string;
  /** The rule that was broken. */
  rule: string;
}

/**
 * Field names whose values, and everything inside them, are never echoed back in an error:
 * `s3Config` as a whole too, since a user may pass its credentials in the wrong shape (a string);
 * a registry `password`; a template's `env`, whose values may be secrets (a bad variable name is
 * still named, in the field path `env.NAME`); an account secret's `value`.
 */
const SECRET_FIELDS = new Set([
  "accessSecret",
  "accessId",
  "apiKey",
  "authorization",
  "s3Config",
  "password",
  "env",
  "value",
]);

/** Renders a value compactly for an error message (bounded length, secrets hidden). */
export function renderValue(value: unknown, field = ""): string {
  if (field.split(".").some((segment) => SECRET_FIELDS.has(segment))) return "[secret]";
  if (value === undefined) return "undefined";
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    // Cycles, BigInts, or nesting too deep to walk (a RangeError): describe, never throw.
    text = Array.isArray(value) ? "[array]" : typeof value === "object" ? "[object]" : typeof value;
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Turns a zod error into one problem per issue, each naming the field, the value and the rule. */
export function fieldProblems(error: z.ZodError, input: unknown): FieldProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const rule =
      issue.code === "invalid_type" && valueAt(input, issue.path) === undefined ? "is required" : issue.message;
    return { field, value: renderValue(valueAt(input, issue.path), field), rule };
  });
}

/** `field = value: rule` lines for a list of problems. */
export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.field || "(body)"} = ${p.value}: ${p.rule}`).join("; ");
}

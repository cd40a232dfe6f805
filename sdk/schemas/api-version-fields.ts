import type { ApiVersion } from "../config";
import { BILLING_VERSION_FIELDS, POD_VERSION_FIELDS } from "./pod-version-fields";
import { RESOURCE_VERSION_FIELDS } from "./resource-fields";
import { type FieldProblem, renderValue } from "./validation";

/** An input that only one management API version can carry: it fails on the other, naming both. */
export interface VersionOnlyField {
  /** The version that has it. */
  only: ApiVersion;
  /** What it is, for the message: e.g. `storage tiers`. */
  what: string;
  /**
   * Values that mean "not used", accepted on the other version too (the default, such as
   * `type: "QUEUE"` of an endpoint). Undefined is always accepted.
   */
  neutral?: readonly unknown[];
  /**
   * Text a user writes freely (a readme, a command line), which may hold a credential: the
   * refusal names the field and the shape of its value, never the value.
   */
  freeText?: boolean;
}

/**
 * The inputs of the version-neutral operations (and of the resources, which take the same names)
 * that only one version has, per kind of resource. The client's version-neutral operations
 * refuse them before sending; the resources' `check` refuses them at preview. The resources'
 * inputs are declared by the `@apiVersion` tags of their `Args` (resource-fields.ts, written by
 * `npm run gen:fields`); the inputs of operations no resource has (list filters, billing
 * queries) are declared in pod-version-fields.ts.
 */
export const VERSION_ONLY_FIELDS: Readonly<Record<string, Readonly<Record<string, VersionOnlyField>>>> = {
  ...RESOURCE_VERSION_FIELDS,
  ...POD_VERSION_FIELDS,
  ...BILLING_VERSION_FIELDS,
};

/** Whether `value` is one of the values that mean "not used" (lists compared by their items). */
function isNeutral(rule: VersionOnlyField, value: unknown): boolean {
  return rule.neutral?.some((v) => v === value || JSON.stringify(v) === JSON.stringify(value)) ?? false;
}

/** The shape of a free-text value, for a message that must not repeat it. */
function shapeOf(value: unknown): string {
  if (typeof value === "string") return `(text of ${value.length} characters)`;
  if (Array.isArray(value)) return `(a list of ${value.length})`;
  return `(${value === null ? "null" : typeof value})`;
}

/**
 * One problem per input of `kind` that `version` cannot carry: the field, its value, and a rule
 * naming the version that has it and how to select it (`urlSetting`: the stack config key of the
 * management URL, which the provider plugin names `runpod-iac:apiUrl`).
 */
export function versionFieldProblems(
  kind: string,
  version: ApiVersion,
  input: Record<string, unknown>,
  urlSetting = "runpod:apiUrl",
): FieldProblem[] {
  const fields = VERSION_ONLY_FIELDS[kind] ?? {};
  const problems: FieldProblem[] = [];
  // In the order the input gives its fields.
  for (const [field, value] of Object.entries(input)) {
    const rule = Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : undefined;
    if (rule === undefined || value === undefined || rule.only === version || isNeutral(rule, value)) continue;
    problems.push({
      field,
      value: rule.freeText ? shapeOf(value) : renderValue(value, field),
      rule: `${rule.what} exist only on management API ${rule.only}, and the API URL names ${version}: point ${urlSetting} (or RUNPOD_API_URL) at a .../${rule.only} URL, or remove ${field}`,
    });
  }
  return problems;
}

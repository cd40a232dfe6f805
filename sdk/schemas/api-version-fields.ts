import type { ApiVersion } from "../config";
import { BILLING_VERSION_FIELDS, POD_VERSION_FIELDS } from "./pod-version-fields";
import { type FieldProblem, renderValue } from "./validation";

/** An input that only one management API version can carry (issue 28: it fails on the other, naming both). */
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
}

/**
 * The inputs of the version-neutral operations (and of the resources, which take the same names)
 * that only one version has, per kind of resource. The client's dialects refuse them before
 * sending; the resources' `check` refuses them at preview.
 */
export const VERSION_ONLY_FIELDS: Readonly<Record<string, Readonly<Record<string, VersionOnlyField>>>> = {
  networkVolume: {
    type: { only: "v2", what: "storage tiers (STANDARD, HIGH_PERFORMANCE)" },
  },
  ...POD_VERSION_FIELDS,
  ...BILLING_VERSION_FIELDS,
};

/**
 * One problem per input of `kind` that `version` cannot carry: the field, its value, and a rule
 * naming the version that has it and how to select it.
 */
export function versionFieldProblems(
  kind: string,
  version: ApiVersion,
  input: Record<string, unknown>,
): FieldProblem[] {
  const fields = VERSION_ONLY_FIELDS[kind] ?? {};
  const problems: FieldProblem[] = [];
  for (const [field, rule] of Object.entries(fields)) {
    const value = input[field];
    if (value === undefined || rule.only === version || rule.neutral?.some((v) => sameValue(v, value))) continue;
    problems.push({
      field,
      value: renderValue(value, field),
      rule: `${rule.what} exist only on management API ${rule.only}, and the API URL names ${version}: point runpod:apiUrl (or RUNPOD_API_URL) at a .../${rule.only} URL, or remove ${field}`,
    });
  }
  return problems;
}

/** Equality of "not used" values: `===`, and arrays element by element (`countryCodes: []`). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

import type { ApiVersion } from "../config";
import { BILLING_VERSION_FIELDS, POD_VERSION_FIELDS } from "./pod-version-fields";
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
 * refuse them before sending; the resources' `check` refuses them at preview.
 */
export const VERSION_ONLY_FIELDS: Readonly<Record<string, Readonly<Record<string, VersionOnlyField>>>> = {
  networkVolume: {
    type: { only: "v2", what: "storage tiers (STANDARD, HIGH_PERFORMANCE)" },
  },
  endpoint: {
    type: { only: "v2", what: "load-balancing endpoints (type LOAD_BALANCER)", neutral: ["QUEUE"] },
    gpuPools: { only: "v2", what: "GPU pools (gpuPools; on v1 name the GPU types in gpuTypeIds)" },
    excludedGpuTypes: { only: "v2", what: "GPU types excluded from pools (excludedGpuTypes)" },
    flashboot: {
      only: "v2",
      what: "priority flash-boot modes (PRIORITY_FLASHBOOT)",
      neutral: [true, false, "OFF", "FLASHBOOT"],
    },
  },
  template: {
    startSsh: { only: "v2", what: "template SSH switches (startSsh)" },
    startJupyter: { only: "v2", what: "template Jupyter switches (startJupyter)" },
    args: {
      only: "v2",
      what: "container arguments as one string (args; on v1 give dockerStartCmd)",
      freeText: true,
    },
    readme: { only: "v1", what: "template readmes (readme)", neutral: [""], freeText: true },
    dockerEntrypoint: {
      only: "v1",
      what: "entrypoint overrides (dockerEntrypoint; v2 runs the image's entrypoint with args)",
      neutral: [[]],
      freeText: true,
    },
  },
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
  for (const [field, rule] of Object.entries(fields)) {
    const value = input[field];
    if (value === undefined || rule.only === version || isNeutral(rule, value)) continue;
    problems.push({
      field,
      value: rule.freeText ? shapeOf(value) : renderValue(value, field),
      rule: `${rule.what} exist only on management API ${rule.only}, and the API URL names ${version}: point ${urlSetting} (or RUNPOD_API_URL) at a .../${rule.only} URL, or remove ${field}`,
    });
  }
  return problems;
}

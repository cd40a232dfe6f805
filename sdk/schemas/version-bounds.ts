import type { ApiVersion } from "../config";
import { LIMITS } from "./limits";
import { type FieldProblem, renderValue } from "./validation";

/*
 * The bounds the two management API versions state differently, on the version-neutral inputs
 * (v1's field names, which the resources take too). The version-neutral schemas hold what both
 * versions accept (a size is a whole number of at least 0 GB); a version's own range is here, once:
 * the client refuses a value outside it before sending (request-validation.ts), the resources'
 * `check` at preview, each naming the field, the value, the rule and the version. The wire schemas
 * of each version (sdk/schemas/v2/ for v2's) read the same numbers from `LIMITS`, and the emulator
 * validates with them. No zod here: the resources' `check` reads this without parsing.
 */

type Input = Readonly<Record<string, unknown>>;

/** The bound one version puts on one input (the OpenAPI's `minimum`, `maximum`, `minLength`, ...). */
export interface InputBound {
  /** Smallest number allowed. */
  min?: number;
  /** Largest number allowed. */
  max?: number;
  /** Shortest text allowed. */
  minLength?: number;
  /** Longest text allowed. */
  maxLength?: number;
  /** Fewest list items allowed. */
  minItems?: number;
  /** Most list items allowed. */
  maxItems?: number;
  /** The unit a message names after a number (`GB`). */
  unit?: string;
  /** A number that means "none" and is sent as no value (a pod volume of 0 GB), allowed whatever the range. */
  none?: { value: number; means: string };
  /**
   * Whether the input is sent at all on this version (a CPU worker's vCPUs only for a CPU
   * endpoint); always when absent. `where` says it in the message.
   */
  appliesTo?: { test: (input: Input) => boolean; where: string };
}

/** One input's bound on each version that states one beyond the version-neutral schema. */
export type VersionBounds = Partial<Record<ApiVersion, InputBound>>;

const cpu = { test: (i: Input) => i.computeType === "CPU", where: "for a CPU worker" };
const gpu = { test: (i: Input) => i.computeType !== "CPU", where: "for a GPU endpoint" };
/** A pod volume is sent for a GPU pod (or a cluster's pods) with no network volume (v2: a CPU pod takes none). */
const podVolume = {
  test: (i: Input) => i.computeType !== "CPU" && i.networkVolumeId === undefined,
  where: "for a pod volume",
};
const nonEmpty: VersionBounds = { v2: { minLength: 1 } };
const diskV2: VersionBounds = { v2: { min: LIMITS.containerDiskGbMinV2, unit: "GB" } };
/** v2's persistent mount; `volumeInGb: 0` is no volume on both versions, and is sent as none. */
const volumeV2 = (appliesTo?: InputBound["appliesTo"]): VersionBounds => ({
  v2: {
    min: LIMITS.persistentVolumeGbMinV2,
    unit: "GB",
    none: { value: 0, means: "no pod volume" },
    ...(appliesTo ? { appliesTo } : {}),
  },
});

/**
 * Per kind of input (the kinds of `VERSION_ONLY_FIELDS`: `networkVolume`, `endpoint`, `template`,
 * `pod`, `podUpdate`, `cluster`), per input, the bound each version states. Every bound of both
 * OpenAPI documents' create and update requests is either here or, where both versions agree, in
 * the version-neutral schema (test/unit/provider/openapi-bounds.test.ts proves each is refused).
 */
export const VERSION_BOUNDS: Readonly<Record<string, Readonly<Record<string, VersionBounds>>>> = {
  networkVolume: {
    size: {
      v1: { ...LIMITS.volumeSizeGb, unit: "GB" },
      v2: { ...LIMITS.volumeSizeGbV2, unit: "GB" },
    },
  },
  endpoint: {
    name: nonEmpty,
    vcpuCount: { v2: { min: LIMITS.vcpuCountMinV2, appliesTo: cpu } },
    cpuFlavorIds: { v2: { minItems: 1, appliesTo: cpu } },
    // v2 rents by pool: the types of an empty list are in no pool, and v2 needs one.
    gpuTypeIds: { v2: { minItems: 1, appliesTo: gpu } },
    gpuPools: { v2: { minItems: 1 } },
  },
  template: {
    containerDiskInGb: diskV2,
    volumeInGb: volumeV2(),
  },
  pod: {
    name: nonEmpty,
    containerDiskInGb: diskV2,
    volumeInGb: volumeV2(podVolume),
    vcpuCount: { v2: { min: LIMITS.vcpuCountMinV2, appliesTo: { ...cpu, where: "for a CPU pod" } } },
  },
  podUpdate: {
    name: nonEmpty,
    containerDiskInGb: diskV2,
    volumeInGb: volumeV2(),
  },
  cluster: {
    name: nonEmpty,
    containerDiskInGb: diskV2,
    volumeInGb: volumeV2(podVolume),
  },
};

function unitText(n: number, bound: InputBound): string {
  return bound.unit ? `${n} ${bound.unit}` : String(n);
}

/** The rule `value` breaks, or undefined when it keeps the bound (values of another type are the schema's business). */
function brokenRule(value: unknown, bound: InputBound): string | undefined {
  if (typeof value === "number") {
    if (bound.none?.value === value) return undefined;
    if (bound.min !== undefined && value < bound.min) return `must be at least ${unitText(bound.min, bound)}`;
    if (bound.max !== undefined && value > bound.max) return `must be at most ${unitText(bound.max, bound)}`;
    return undefined;
  }
  if (typeof value === "string") {
    if (bound.minLength !== undefined && value.length < bound.minLength) {
      return bound.minLength === 1 ? "must not be empty" : `must be at least ${bound.minLength} characters`;
    }
    if (bound.maxLength !== undefined && value.length > bound.maxLength) {
      return `must be at most ${bound.maxLength} characters`;
    }
    return undefined;
  }
  if (Array.isArray(value)) {
    if (bound.minItems !== undefined && value.length < bound.minItems) {
      return bound.minItems === 1 ? "must list at least one" : `must list at least ${bound.minItems}`;
    }
    if (bound.maxItems !== undefined && value.length > bound.maxItems) return `must list at most ${bound.maxItems}`;
  }
  return undefined;
}

/**
 * One problem per input of `kind` outside the bound `version` states for it (`VERSION_BOUNDS`):
 * the field, its value, and the rule naming the version, e.g. `size = 5: must be at least 10 GB
 * (on management API v2)`. `judged` narrows which inputs are looked at (the provider's `check`
 * judges only new or changed values).
 */
export function versionBoundProblems(
  kind: string,
  version: ApiVersion,
  input: Input,
  judged: (field: string) => boolean = () => true,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field, bounds] of Object.entries(VERSION_BOUNDS[kind] ?? {})) {
    const bound = bounds[version];
    const value = input[field];
    if (bound === undefined || value === undefined || value === null || !judged(field)) continue;
    if (bound.appliesTo && !bound.appliesTo.test(input)) continue;
    const rule = brokenRule(value, bound);
    if (rule === undefined) continue;
    const where = bound.appliesTo ? ` ${bound.appliesTo.where}` : "";
    const none = bound.none ? `; ${bound.none.value} means ${bound.none.means}` : "";
    problems.push({
      field,
      value: renderValue(value, field),
      rule: `${rule} (on management API ${version})${where}${none}`,
    });
  }
  return problems;
}

import {
  CPU_FLAVOR_IDS,
  CUDA_VERSIONS,
  DATA_CENTER_IDS,
  GPU_TYPE_IDS,
  POD_ONLY_CPU_FLAVOR_IDS,
} from "./platform-enums";
import { type FieldProblem, renderValue } from "./validation";

/**
 * The open value sets: GPU types, data centers, CUDA versions and CPU flavors. The
 * platform adds values faster than this package is released, so the shared request schemas judge
 * only a value's shape (platform-values.ts); whether the platform knows a value is judged here,
 * against this release's snapshot plus additions: by the emulator (it plays the platform), by the
 * resources (a warning at preview, never a refusal) and by the policy pack (a refusal unless the
 * team lists the value). No zod here: the resource classes load this module, and a Pulumi program
 * that imports `runpod-iac` loads neither zod nor undici.
 */

/** The kinds of open value. */
export type PlatformValueKind = "gpuType" | "dataCenter" | "cudaVersion" | "cpuFlavor";

/** Every kind, in the order messages and options list them. */
export const PLATFORM_VALUE_KINDS: readonly PlatformValueKind[] = ["gpuType", "dataCenter", "cudaVersion", "cpuFlavor"];

/** This release's snapshot of each kind (platform-enums.ts, from the OpenAPI description). */
export const KNOWN_PLATFORM_VALUES: Readonly<Record<PlatformValueKind, readonly string[]>> = {
  gpuType: GPU_TYPE_IDS,
  dataCenter: DATA_CENTER_IDS,
  cudaVersion: CUDA_VERSIONS,
  cpuFlavor: CPU_FLAVOR_IDS,
};

/** How messages name a value of each kind. */
export const PLATFORM_VALUE_LABELS: Readonly<Record<PlatformValueKind, string>> = {
  gpuType: "GPU type",
  dataCenter: "data center",
  cudaVersion: "CUDA version",
  cpuFlavor: "CPU flavor",
};

/** Values added to the snapshot, per kind (emulator options, policy settings). */
export type AdditionalPlatformValues = Partial<Record<PlatformValueKind, readonly string[]>>;

/** The inputs holding open values, per resource: the field and the kind of value it holds. */
export const PLATFORM_VALUE_FIELDS = {
  ServerlessEndpoint: {
    gpuTypeIds: "gpuType",
    dataCenterIds: "dataCenter",
    allowedCudaVersions: "cudaVersion",
    minCudaVersion: "cudaVersion",
    cpuFlavorIds: "cpuFlavor",
  },
  NetworkVolume: { dataCenterId: "dataCenter" },
  // A pod's CPU flavors are judged with `RESOURCE_KNOWN_VALUES.Pod` added: pods also rent the
  // memory-optimized cpu3m and cpu5m, which the snapshot of `cpuFlavorIds` (the endpoints' four) lacks.
  Pod: {
    gpuTypeIds: "gpuType",
    dataCenterIds: "dataCenter",
    allowedCudaVersions: "cudaVersion",
    minCudaVersion: "cudaVersion",
    cpuFlavorIds: "cpuFlavor",
  },
  // A cluster's one GPU type and the data centers it may be placed in.
  Cluster: { gpuTypeId: "gpuType", dataCenterIds: "dataCenter" },
} as const satisfies Record<string, Record<string, PlatformValueKind>>;

/** Values one kind of resource knows besides the snapshot: a pod's pod-only CPU flavors. */
export const RESOURCE_KNOWN_VALUES: Readonly<
  Partial<Record<keyof typeof PLATFORM_VALUE_FIELDS, AdditionalPlatformValues>>
> = { Pod: { cpuFlavor: POD_ONLY_CPU_FLAVOR_IDS } };

/** Lower-case, whitespace removed: the key under which a whitespace or case variant meets its original. */
function looseKey(value: string): string {
  return value.replace(/\s+/g, "").toLowerCase();
}

/** The snapshot as a set, per kind: the provider and the pack ask for it once per resource. */
const snapshotSets = new Map<PlatformValueKind, ReadonlySet<string>>();

/** The snapshot of `kind` plus `additional`, as a set. */
export function knownValueSet(kind: PlatformValueKind, additional: readonly string[] = []): ReadonlySet<string> {
  if (additional.length > 0) return new Set([...KNOWN_PLATFORM_VALUES[kind], ...additional]);
  let set = snapshotSets.get(kind);
  if (!set) snapshotSets.set(kind, (set = new Set(KNOWN_PLATFORM_VALUES[kind])));
  return set;
}

/**
 * The values of `candidates` that differ from `value` only in case or whitespace (`"nvidia l4"`,
 * `" NVIDIA L4"` → `"NVIDIA L4"`): the one way a near value is found, against this release's
 * snapshot ({@link nearKnownValues}) or the platform's live catalog. Nothing looser on purpose:
 * new GPU names are often one character away from old ones (B200 → B300, H100 → H200), so an
 * edit-distance guess would point at the wrong GPU.
 */
export function nearValues(value: string, candidates: Iterable<string>): string[] {
  const key = looseKey(value);
  return [...candidates].filter((candidate) => candidate !== value && looseKey(candidate) === key);
}

/** The edit distance between two strings (insertions, deletions and substitutions of one character). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The names of `candidates` nearest to `value`, for an error that refuses `value` because the
 * live catalog does not hold it: those {@link nearValues} finds (case or whitespace) when there
 * are any, otherwise up to `limit` names closest by edit distance, compared without case and
 * whitespace, within a quarter of the name's length. Unlike a warning on a value this release does
 * not know, such an error already says the value is wrong, so a near name one character away
 * (`NVIDIA L40X` → `NVIDIA L40S`, `NVIDIA L40`) helps rather than misleads.
 */
export function nearestValues(value: string, candidates: Iterable<string>, limit = 3): string[] {
  const all = [...candidates];
  const same = nearValues(value, all);
  if (same.length > 0) return same;
  const key = looseKey(value);
  const within = Math.max(1, Math.floor(key.length / 4));
  return all
    .map((candidate) => ({ candidate, distance: editDistance(key, looseKey(candidate)) }))
    .filter(({ distance }) => distance <= within)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** Known values (the snapshot of `kind` plus `additional`) near `value`, by {@link nearValues}. */
export function nearKnownValues(kind: PlatformValueKind, value: string, additional: readonly string[] = []): string[] {
  return nearValues(value, knownValueSet(kind, additional));
}

/** One value of an input that is not in the snapshot (plus additions). */
export interface UnknownPlatformValue extends FieldProblem {
  /** The kind of value. */
  kind: PlatformValueKind;
  /** The raw value. */
  raw: string;
  /** Known values it differs from only in case or whitespace. */
  suggestions: string[];
}

/**
 * The values of `input`'s open-value fields (`fields`, e.g. `PLATFORM_VALUE_FIELDS.ServerlessEndpoint`)
 * that are not in the snapshot plus `additional`. Only strings are judged: the shape is the
 * schemas' business. `field` is dotted (`gpuTypeIds.2`), as in the client's and emulator's errors.
 */
export function unknownPlatformValues(
  fields: Readonly<Record<string, PlatformValueKind>>,
  input: Readonly<Record<string, unknown>>,
  additional: AdditionalPlatformValues = {},
): UnknownPlatformValue[] {
  const found: UnknownPlatformValue[] = [];
  for (const [field, kind] of Object.entries(fields)) {
    const value = input[field];
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`${field}.${i}`, v])
      : [[field, value]];
    const known = knownValueSet(kind, additional[kind]);
    for (const [at, v] of entries) {
      if (typeof v !== "string" || known.has(v)) continue;
      found.push({
        field: at,
        value: renderValue(v, at),
        kind,
        raw: v,
        suggestions: nearKnownValues(kind, v, additional[kind]),
        rule: `is not a ${PLATFORM_VALUE_LABELS[kind]} the platform knows`,
      });
    }
  }
  return found;
}

/** ` (did you mean "NVIDIA L4"?)`, or nothing when there is no near value. */
export function suggestionText(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return "";
  return ` (did you mean ${suggestions.map((s) => JSON.stringify(s)).join(" or ")}?)`;
}

import { z } from "zod";
import {
  type AdditionalPlatformValues,
  PLATFORM_VALUE_FIELDS,
  PLATFORM_VALUE_LABELS,
  type PlatformValueKind,
  RESOURCE_KNOWN_VALUES,
  suggestionText,
  unknownPlatformValues,
} from "../sdk/schemas/known-values";
import { resourcesPolicy, ruleFor } from "./define-policy";
import { formatValue, resourceLabel, violation } from "./format";
import { stringList } from "./policy-config";
import {
  type ClusterProps,
  ClusterResource,
  NetworkVolumeResource,
  type NetworkVolumeProps,
  type PodProps,
  PodResource,
  ServerlessEndpointResource,
  type ServerlessEndpointProps,
} from "./resource-types";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const KNOWN_PLATFORM_VALUES_POLICY = "runpod-known-platform-values";

/** The configuration of `runpod-known-platform-values` (its key in `--policy-pack-config`): values to accept besides this release's lists. */
export const KnownPlatformValuesConfigSchema = z
  .object({
    additionalDataCenterIds: stringList(
      "Data center ids to accept as known besides this release's list (for data centers the platform added later).",
    ),
    additionalCudaVersions: stringList(
      "CUDA versions to accept as known besides this release's list (for versions the platform added later).",
    ),
    additionalCpuFlavorIds: stringList(
      "CPU flavor ids to accept as known besides this release's list (for flavors the platform added later).",
    ),
  })
  .strict();

/** The configuration of `runpod-known-platform-values`. */
export type KnownPlatformValuesConfig = z.infer<typeof KnownPlatformValuesConfigSchema>;

/** The setting that admits values of each kind (GPU types: `runpod-gpu-priority-list`'s `additionalGpuTypeIds`). */
const SETTINGS = {
  dataCenter: "additionalDataCenterIds",
  cudaVersion: "additionalCudaVersions",
  cpuFlavor: "additionalCpuFlavorIds",
} as const satisfies Partial<Record<PlatformValueKind, keyof KnownPlatformValuesConfig>>;

/** The kinds of resource that name open values. */
type ValueKind = keyof typeof PLATFORM_VALUE_FIELDS;

/** The fields this policy judges: every open-value field but the GPU types (runpod-gpu-priority-list's). */
function fieldsOf(kind: ValueKind): Record<string, PlatformValueKind> {
  const fields: Record<string, PlatformValueKind> = { ...PLATFORM_VALUE_FIELDS[kind] };
  delete fields.gpuTypeIds;
  delete fields.gpuTypeId;
  return fields;
}

/**
 * The rule: every data center, CUDA version and CPU flavor a resource names is in this release's
 * list or in the team's additions. The provider lets newer values through (the platform decides),
 * so this is where a team that wants only values it has vetted says so. Returns one message per
 * unknown value, naming the resource, the field, the value, the rule and the setting that admits it.
 */
export function checkKnownPlatformValues(
  kind: ValueKind,
  name: string,
  props: ServerlessEndpointProps | NetworkVolumeProps | PodProps | ClusterProps,
  config: KnownPlatformValuesConfig = {},
): string[] {
  // Pods also rent the memory-optimized flavors (cpu3m, cpu5m): known values for pods only.
  const forKind = RESOURCE_KNOWN_VALUES[kind as keyof typeof RESOURCE_KNOWN_VALUES] ?? {};
  const additional: AdditionalPlatformValues = {
    dataCenter: config.additionalDataCenterIds ?? [],
    cudaVersion: config.additionalCudaVersions ?? [],
    cpuFlavor: [...(config.additionalCpuFlavorIds ?? []), ...(forKind.cpuFlavor ?? [])],
  };
  const subject = resourceLabel(kind, name);
  return unknownPlatformValues(fieldsOf(kind), props as Record<string, unknown>, additional).map(
    ({ field, raw, kind: valueKind, suggestions }) => {
      const [property, index] = field.split(".");
      const setting = SETTINGS[valueKind as keyof typeof SETTINGS];
      const rule = `is not a ${PLATFORM_VALUE_LABELS[valueKind]} the platform knows${suggestionText(suggestions)} (if the platform added it, list it in ${setting})`;
      return violation(subject, index === undefined ? field : `${property}[${index}]`, formatValue(raw), rule);
    },
  );
}

/** The policy: data centers, CUDA versions and CPU flavors of endpoints, pods, clusters and volumes are known ones. */
export const knownPlatformValuesPolicy = resourcesPolicy({
  name: KNOWN_PLATFORM_VALUES_POLICY,
  description:
    "Endpoints' and pods' data centers, CUDA versions and CPU flavors, and clusters' and volumes' data centers, are values this release knows or the organisation has listed.",
  enforcementLevel: "mandatory",
  config: KnownPlatformValuesConfigSchema,
  remediationSteps:
    "Use a known value (a case or whitespace variant gets a suggestion), or, for a value the platform added after this release, list it in additionalDataCenterIds, additionalCudaVersions or additionalCpuFlavorIds.",
  rules: [
    ruleFor(ServerlessEndpointResource, (name, props, config: KnownPlatformValuesConfig) =>
      checkKnownPlatformValues("ServerlessEndpoint", name, props, config),
    ),
    ruleFor(NetworkVolumeResource, (name, props, config: KnownPlatformValuesConfig) =>
      checkKnownPlatformValues("NetworkVolume", name, props, config),
    ),
    ruleFor(PodResource, (name, props, config: KnownPlatformValuesConfig) =>
      checkKnownPlatformValues("Pod", name, props, config),
    ),
    ruleFor(ClusterResource, (name, props, config: KnownPlatformValuesConfig) =>
      checkKnownPlatformValues("Cluster", name, props, config),
    ),
  ],
});

import { z } from "zod";
import { POD_DEFAULTS } from "../sdk/schemas";
import { resourcePolicy, ruleFor } from "./define-policy";
import { formatSetting, formatValue, resourceLabel, type ViolationList, violationList } from "./format";
import { withStackOverrides } from "./policy-config";
import {
  isGpuEndpoint,
  isGpuPod,
  type PodProps,
  PodResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { endpointDefaults } from "./stack-api-version";
import { NO_STACK, type StackContext, settingsForStack } from "./stack-context";
import { isSet, rawProp } from "./unknown-values";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const CONTRADICTORY_INPUTS_POLICY = "runpod-contradictory-inputs";

/** The settings of `runpod-contradictory-inputs`; each may differ per stack through `byStack`/`byStackTag`. */
export const ContradictoryInputsSettingsSchema = z.object({
  allowIgnoredFields: z
    .boolean()
    .optional()
    .describe(
      "Accept GPU fields on CPU endpoints and CPU fields on GPU endpoints, which the platform ignores (e.g. when one args object serves both kinds). Default false. networkVolumeId with networkVolumeIds is always refused.",
    ),
});

/** The settings of `runpod-contradictory-inputs`. */
export type ContradictoryInputsSettings = z.infer<typeof ContradictoryInputsSettingsSchema>;

/** The configuration of `runpod-contradictory-inputs` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const ContradictoryInputsConfigSchema = withStackOverrides(ContradictoryInputsSettingsSchema);

/** The configuration of `runpod-contradictory-inputs`. */
export type ContradictoryInputsConfig = z.infer<typeof ContradictoryInputsConfigSchema>;

/**
 * Fields that only mean something on GPU workers. The OpenAPI `computeType`: "If set to CPU,
 * properties related to GPUs such as gpuTypeIds will be ignored", and the reverse for CPU fields.
 */
export const GPU_ONLY_FIELDS = [
  "gpuTypeIds",
  "gpuPools",
  "excludedGpuTypes",
  "gpuCount",
  "allowedCudaVersions",
  "minCudaVersion",
] as const;

/** Fields that only mean something on CPU workers. */
export const CPU_ONLY_FIELDS = ["cpuFlavorIds", "vcpuCount"] as const;

/**
 * The contradictory inputs rule for one endpoint: not both `networkVolumeId` and
 * `networkVolumeIds` (the platform would use one and drop the other), and, unless
 * `allowIgnoredFields`, no GPU field on a CPU endpoint and no CPU field on a GPU endpoint (the
 * platform ignores them, so the program does not describe what runs). A value unknown during
 * preview counts as set; an empty list as unset. Returns one message per violation.
 */
export function checkContradictoryInputs(
  name: string,
  props: ServerlessEndpointProps,
  config: ContradictoryInputsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const subject = resourceLabel("ServerlessEndpoint", name);
  const found = violationList(subject);
  if (isSet(props, "networkVolumeId") && isSet(props, "networkVolumeIds")) {
    const single = formatValue(rawProp(props, "networkVolumeId"));
    found.add(
      "networkVolumeIds",
      formatValue(rawProp(props, "networkVolumeIds")),
      `is set together with networkVolumeId = ${single}; set only one: networkVolumeId for one volume, networkVolumeIds for a multi-region endpoint`,
    );
  }
  selectionAndScalingProblems(found, props);
  if (settingsForStack<ContradictoryInputsSettings>(config, context).values.allowIgnoredFields) return found.messages;
  const fields = { gpu: GPU_ONLY_FIELDS, cpu: CPU_ONLY_FIELDS };
  ignoredFieldProblems(found, props, ["endpoint", endpointDefaults(context).computeType], isGpuEndpoint(props), fields);
  return found.messages;
}

/**
 * Adds a problem for each field of the other compute type than the resource's that `props` sets,
 * which the platform ignores (endpoints and pods alike, each with its own field lists).
 */
function ignoredFieldProblems(
  found: ViolationList,
  props: { computeType?: unknown },
  [noun, platformDefault]: readonly ["endpoint" | "pod", "GPU"],
  gpu: boolean,
  only: { gpu: readonly string[]; cpu: readonly string[] },
): void {
  const ignored = gpu ? only.cpu : only.gpu;
  const [kind, fieldKind] = gpu ? (["GPU", "CPU"] as const) : (["CPU", "GPU"] as const);
  const computeType = formatSetting(props.computeType, platformDefault);
  for (const field of ignored) {
    if (!isSet(props, field)) continue;
    const rule = `is a ${fieldKind} setting on a ${kind} ${noun} (computeType = ${computeType}), which the platform ignores; remove it, or set computeType to "${fieldKind}"`;
    found.add(field, formatValue(rawProp(props, field)), rule);
  }
}

/**
 * Contradictions among v2's inputs (always refused): GPU types and GPU pools together (one
 * selection, named one way), excluded types without pools (nothing to exclude them from), and
 * queue-delay scaling on a load-balancing endpoint (it has no queue; the platform refuses it).
 */
function selectionAndScalingProblems(found: ViolationList, props: ServerlessEndpointProps): void {
  if (isSet(props, "gpuTypeIds") && isSet(props, "gpuPools")) {
    found.add(
      "gpuPools",
      formatValue(rawProp(props, "gpuPools")),
      `is set together with gpuTypeIds = ${formatValue(rawProp(props, "gpuTypeIds"))}; they are one GPU selection: name GPU types, or pools (narrowed by excludedGpuTypes), not both`,
    );
  }
  if (isSet(props, "excludedGpuTypes") && !isSet(props, "gpuPools")) {
    found.add(
      "excludedGpuTypes",
      formatValue(rawProp(props, "excludedGpuTypes")),
      "narrows gpuPools, which is not set: give the pools, or with gpuTypeIds name only the types wanted",
    );
  }
  if (props.type === "LOAD_BALANCER" && props.scalerType === "QUEUE_DELAY") {
    found.add(
      "scalerType",
      formatValue(props.scalerType),
      'a LOAD_BALANCER endpoint has no queue: it scales on REQUEST_COUNT (its default); remove scalerType or set "REQUEST_COUNT"',
    );
  }
}

/** Fields that only mean something on a GPU pod (OpenAPI v1 `PodCreateInput`). */
export const POD_GPU_ONLY_FIELDS = [
  "gpuTypeIds",
  "gpuCount",
  "gpuTypePriority",
  "allowedCudaVersions",
  "minCudaVersion",
  "minRamPerGpu",
  "minVcpuCountPerGpu",
] as const;

/** Fields that only mean something on a CPU pod. */
export const POD_CPU_ONLY_FIELDS = ["cpuFlavorIds", "cpuFlavorPriority", "vcpuCount"] as const;

/**
 * The rule for one pod: unless `allowIgnoredFields`, no GPU field on a CPU pod and no CPU field on
 * a GPU pod (the platform ignores them, so the program does not describe the machine it gets).
 */
export function checkPodContradictoryInputs(
  name: string,
  props: PodProps,
  config: ContradictoryInputsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  if (settingsForStack<ContradictoryInputsSettings>(config, context).values.allowIgnoredFields) return [];
  const found = violationList(resourceLabel("Pod", name));
  const fields = { gpu: POD_GPU_ONLY_FIELDS, cpu: POD_CPU_ONLY_FIELDS };
  ignoredFieldProblems(found, props, ["pod", POD_DEFAULTS.computeType], isGpuPod(props), fields);
  return found.messages;
}

/** The policy: an endpoint's or a pod's inputs do not contradict each other. */
export const contradictoryInputsPolicy = resourcePolicy({
  name: CONTRADICTORY_INPUTS_POLICY,
  description:
    "An endpoint must not set both networkVolumeId and networkVolumeIds, both gpuTypeIds and gpuPools, excludedGpuTypes without gpuPools, queue-delay scaling on a load balancer, GPU fields (gpuTypeIds, gpuPools, excludedGpuTypes, gpuCount, allowedCudaVersions, minCudaVersion) on CPU workers, or CPU fields (cpuFlavorIds, vcpuCount) on GPU workers; a pod no GPU fields on a CPU pod and no CPU fields on a GPU pod.",
  enforcementLevel: "mandatory",
  config: ContradictoryInputsConfigSchema,
  remediationSteps:
    "Keep one of networkVolumeId/networkVolumeIds, and only the fields of the endpoint's or pod's computeType (GPU is the default).",
  resource: ServerlessEndpointResource,
  check: checkContradictoryInputs,
  more: [ruleFor(PodResource, checkPodContradictoryInputs)],
});

import { z } from "zod";
import { resourcePolicy, ruleFor } from "./define-policy";
import { formatSetting, formatValue, isWholeNumber, plural, resourceLabel, violationList } from "./format";
import { nonNegativeInt, stringList, withStackOverrides } from "./policy-config";
import { type ClusterProps, ClusterResource, isGpuPod, type PodProps, PodResource } from "./resource-types";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const POD_LIMITS_POLICY = "runpod-pod-limits";

/** The settings of `runpod-pod-limits`; each may differ per stack through `byStack`/`byStackTag`. */
export const PodLimitsSettingsSchema = z.object({
  maxGpuCount: nonNegativeInt("Most GPUs one pod may have (gpuCount; platform default 1), e.g. 1 for dev stacks."),
  allowedCloudTypes: stringList(
    'Clouds pods may run on: `SECURE` (the platform\'s default), `COMMUNITY`, e.g. `["SECURE"]` for data that must stay in secure data centers.',
  ),
  interruptible: z
    .enum(["required", "forbidden"])
    .optional()
    .describe(
      "`required`: every GPU pod must be interruptible (spot, half price, may be stopped at any time), e.g. for dev stacks; `forbidden`: none may be (production). Unset: either.",
    ),
});

/** The settings of `runpod-pod-limits`. */
export type PodLimitsSettings = z.infer<typeof PodLimitsSettingsSchema>;

/** The configuration of `runpod-pod-limits` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const PodLimitsConfigSchema = withStackOverrides(PodLimitsSettingsSchema);

/** The configuration of `runpod-pod-limits`. */
export type PodLimitsConfig = z.infer<typeof PodLimitsConfigSchema>;

/** The pod's cloud as the platform reads it (unset: SECURE). */
const DEFAULT_CLOUD = "SECURE";

/**
 * The pod limits rule: a GPU pod's `gpuCount` at most `maxGpuCount`, every pod's `cloudType` one of
 * `allowedCloudTypes`, and a GPU pod interruptible when `interruptible` is `required`, not when it
 * is `forbidden` (the platform has no interruptible CPU pods). Unset values take the platform's
 * defaults (one GPU, secure cloud, on demand). Returns one message per violation.
 */
export function checkPodLimits(
  name: string,
  props: PodProps,
  config: PodLimitsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const limits = settingsForStack<PodLimitsSettings>(config, context);
  const { maxGpuCount, allowedCloudTypes, interruptible } = limits.values;
  const found = violationList(resourceLabel("Pod", name));
  const gpu = isGpuPod(props);
  const count: unknown = props.gpuCount ?? 1;
  if (gpu && maxGpuCount !== undefined && isWholeNumber(count) && count > maxGpuCount) {
    found.add(
      "gpuCount",
      formatSetting(props.gpuCount, 1),
      `exceeds the limit of ${plural(maxGpuCount, "GPU")} per pod (${settingLabel(limits, "maxGpuCount")})`,
    );
  }
  const cloud: unknown = props.cloudType ?? DEFAULT_CLOUD;
  if (allowedCloudTypes && typeof cloud === "string" && !allowedCloudTypes.includes(cloud)) {
    found.add(
      "cloudType",
      formatSetting(props.cloudType, DEFAULT_CLOUD),
      `is not an allowed cloud ${formatValue(allowedCloudTypes)} (${settingLabel(limits, "allowedCloudTypes")})`,
    );
  }
  const spot = props.interruptible === true;
  if (gpu && interruptible === "required" && !spot) {
    found.add(
      "interruptible",
      formatSetting(props.interruptible, false),
      `must be true: GPU pods of this stack must be interruptible (${settingLabel(limits, "interruptible")} is "required")`,
    );
  }
  if (interruptible === "forbidden" && spot) {
    found.add(
      "interruptible",
      "true",
      `must not be true: the platform may stop an interruptible pod at any time (${settingLabel(limits, "interruptible")} is "forbidden")`,
    );
  }
  return found.messages;
}

/**
 * The same limits for a cluster, whose members are GPU pods: `gpuCountPerPod` at most
 * `maxGpuCount`; the cloud, which a cluster cannot choose (the platform places clusters on secure
 * cloud), one of `allowedCloudTypes`; and no cluster where GPU pods must be interruptible (a
 * cluster's pods never are). Returns one message per violation.
 */
export function checkClusterLimits(
  name: string,
  props: ClusterProps,
  config: PodLimitsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const limits = settingsForStack<PodLimitsSettings>(config, context);
  const { maxGpuCount, allowedCloudTypes, interruptible } = limits.values;
  const found = violationList(resourceLabel("Cluster", name));
  const count: unknown = props.gpuCountPerPod;
  if (maxGpuCount !== undefined && isWholeNumber(count) && count > maxGpuCount) {
    found.add(
      "gpuCountPerPod",
      formatValue(count),
      `exceeds the limit of ${plural(maxGpuCount, "GPU")} per pod (${settingLabel(limits, "maxGpuCount")})`,
    );
  }
  if (allowedCloudTypes && !allowedCloudTypes.includes(DEFAULT_CLOUD)) {
    found.add(
      "cloud",
      `${DEFAULT_CLOUD} (clusters run on secure cloud)`,
      `is not an allowed cloud ${formatValue(allowedCloudTypes)} (${settingLabel(limits, "allowedCloudTypes")})`,
    );
  }
  if (interruptible === "required") {
    found.add(
      "interruptible",
      "false (a cluster's pods are never interruptible)",
      `must be true: GPU pods of this stack must be interruptible (${settingLabel(limits, "interruptible")} is "required"); use interruptible pods instead of a cluster`,
    );
  }
  return found.messages;
}

/** The policy: pods and clusters within the stack's GPU count, clouds and spot rules. */
export const podLimitsPolicy = resourcePolicy({
  name: POD_LIMITS_POLICY,
  description:
    "A pod's gpuCount (a cluster's gpuCountPerPod) must not exceed the stack's largest, its cloud must be an allowed cloud, and its GPUs must be interruptible (spot) where required, on demand where spot is forbidden.",
  enforcementLevel: "mandatory",
  config: PodLimitsConfigSchema,
  remediationSteps:
    "Lower gpuCount, choose an allowed cloudType, and set interruptible as this stack requires (byStack/byStackTag say which limits apply to which stack).",
  resource: PodResource,
  check: checkPodLimits,
  more: [ruleFor(ClusterResource, checkClusterLimits)],
});

import { z } from "zod";
import { LIMITS } from "../sdk/schemas";
import { resourcePolicy } from "./define-policy";
import { formatValue, isWholeNumber, resourceLabel, violation } from "./format";
import { withStackOverrides } from "./policy-config";
import { type NetworkVolumeProps, NetworkVolumeResource } from "./resource-types";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const VOLUME_SIZE_CAP_POLICY = "runpod-volume-size-cap";

const { min: SIZE_MIN, max: SIZE_MAX } = LIMITS.volumeSizeGb;

/** The cap of `runpod-volume-size-cap`; it may differ per stack through `byStack`/`byStackTag`. */
export const VolumeSizeLimitSchema = z.object({
  maxSizeGb: z
    .int()
    .min(SIZE_MIN)
    .max(SIZE_MAX)
    .optional()
    .describe(
      `Largest size of one network volume, in GB (the platform's own limit, ${SIZE_MAX}, always applies). Volumes cannot shrink.`,
    ),
});

/** The cap of `runpod-volume-size-cap`. */
export type VolumeSizeLimit = z.infer<typeof VolumeSizeLimitSchema>;

/** Settings of `runpod-volume-size-cap`: the cap plus its per-stack overrides. */
export const VolumeSizeCapConfigSchema = withStackOverrides(VolumeSizeLimitSchema);

/** Settings of `runpod-volume-size-cap`. */
export type VolumeSizeCapConfig = z.infer<typeof VolumeSizeCapConfigSchema>;

/**
 * The per-volume size rule: `size` is a whole number of GB within the platform's bounds
 * (0 to 4000) and at most the configured `maxSizeGb`. Returns one message per violation.
 */
export function checkVolumeSize(
  name: string,
  props: NetworkVolumeProps,
  config: VolumeSizeCapConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const subject = resourceLabel("NetworkVolume", name);
  const size: unknown = props.size;
  if (!isWholeNumber(size) || size < SIZE_MIN || size > SIZE_MAX) {
    const rule = `must be a whole number of GB between ${SIZE_MIN} and ${SIZE_MAX} (platform limit)`;
    return [violation(subject, "size", formatValue(size), rule)];
  }
  const limit = settingsForStack<VolumeSizeLimit>(config, context);
  const cap = limit.values.maxSizeGb;
  if (cap !== undefined && size > cap) {
    const rule = `exceeds the cap of ${cap} GB per volume (${settingLabel(limit, "maxSizeGb")}); network volumes cannot shrink`;
    return [violation(subject, "size", formatValue(size), rule)];
  }
  return [];
}

/** The policy: every network volume stays within the platform's and the organisation's size cap. */
export const volumeSizeCapPolicy = resourcePolicy({
  name: VOLUME_SIZE_CAP_POLICY,
  description:
    "A network volume's size must be a whole number of GB within the platform's bounds and at most the configured cap per volume.",
  enforcementLevel: "mandatory",
  config: VolumeSizeCapConfigSchema,
  remediationSteps:
    "Choose a smaller size: network volumes can only grow, so start small and grow the volume when it fills.",
  resource: NetworkVolumeResource,
  check: checkVolumeSize,
});

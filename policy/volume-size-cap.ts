import { z } from "zod";
import { LIMITS } from "../sdk/schemas";
import { resourcePolicy } from "./define-policy";
import { formatValue, isWholeNumber, resourceLabel, violationList } from "./format";
import { withStackOverrides } from "./policy-config";
import { type NetworkVolumeProps, NetworkVolumeResource } from "./resource-types";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const VOLUME_SIZE_CAP_POLICY = "runpod-volume-size-cap";

const { min: SIZE_MIN, max: SIZE_MAX } = LIMITS.volumeSizeGb;

/** The settings of `runpod-volume-size-cap`; each may differ per stack through `byStack`/`byStackTag`. */
export const VolumeSizeCapSettingsSchema = z.object({
  maxSizeGb: z
    .int()
    .min(SIZE_MIN)
    .max(SIZE_MAX)
    .optional()
    .describe(
      `Largest size of one network volume, in GB (the platform's own limit, ${SIZE_MAX}, always applies). Volumes cannot shrink.`,
    ),
});

/** The settings of `runpod-volume-size-cap`. */
export type VolumeSizeCapSettings = z.infer<typeof VolumeSizeCapSettingsSchema>;

/** The configuration of `runpod-volume-size-cap` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const VolumeSizeCapConfigSchema = withStackOverrides(VolumeSizeCapSettingsSchema);

/** The configuration of `runpod-volume-size-cap`. */
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
  const found = violationList(resourceLabel("NetworkVolume", name));
  const size: unknown = props.size;
  if (!isWholeNumber(size) || size < SIZE_MIN || size > SIZE_MAX) {
    const rule = `must be a whole number of GB between ${SIZE_MIN} and ${SIZE_MAX} (platform limit)`;
    return found.add("size", formatValue(size), rule);
  }
  const limit = settingsForStack<VolumeSizeCapSettings>(config, context);
  const cap = limit.values.maxSizeGb;
  if (cap !== undefined && size > cap) {
    const rule = `exceeds the cap of ${cap} GB per volume (${settingLabel(limit, "maxSizeGb")}); network volumes cannot shrink`;
    return found.add("size", formatValue(size), rule);
  }
  return found.messages;
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

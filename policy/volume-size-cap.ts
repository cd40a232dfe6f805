import { z } from "zod";
import { VERSION_BOUNDS } from "../sdk/schemas/version-bounds";
import { resourcePolicy } from "./define-policy";
import { formatValue, isWholeNumber, resourceLabel, violationList } from "./format";
import { withStackOverrides } from "./policy-config";
import { type NetworkVolumeProps, NetworkVolumeResource } from "./resource-types";
import { versionOf } from "./stack-api-version";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const VOLUME_SIZE_CAP_POLICY = "runpod-volume-size-cap";

/** Each management API version's range of a volume's size (v1 0 to 4000 GB, v2 10 to 4096). */
const SIZE = VERSION_BOUNDS.networkVolume!.size!;
const range = (version: "v1" | "v2") => ({ min: SIZE[version]!.min!, max: SIZE[version]!.max! });
/** The widest a cap may be: the larger maximum of the two versions. */
const CAP_MAX = Math.max(range("v1").max, range("v2").max);

/** The settings of `runpod-volume-size-cap`; each may differ per stack through `byStack`/`byStackTag`. */
export const VolumeSizeCapSettingsSchema = z.object({
  maxSizeGb: z
    .int()
    .min(0)
    .max(CAP_MAX)
    .optional()
    .describe(
      `Largest size of one network volume, in GB (the platform's own range always applies: ${range("v2").min} to ${range("v2").max} on management API v2, ${range("v1").min} to ${range("v1").max} on v1). Volumes cannot shrink.`,
    ),
});

/** The settings of `runpod-volume-size-cap`. */
export type VolumeSizeCapSettings = z.infer<typeof VolumeSizeCapSettingsSchema>;

/** The configuration of `runpod-volume-size-cap` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const VolumeSizeCapConfigSchema = withStackOverrides(VolumeSizeCapSettingsSchema);

/** The configuration of `runpod-volume-size-cap`. */
export type VolumeSizeCapConfig = z.infer<typeof VolumeSizeCapConfigSchema>;

/**
 * The per-volume size rule: `size` is a whole number of GB within the bounds of the management
 * API version the stack talks (v2 10 to 4096, v1 0 to 4000) and at most the configured
 * `maxSizeGb`. Returns one message per violation.
 */
export function checkVolumeSize(
  name: string,
  props: NetworkVolumeProps,
  config: VolumeSizeCapConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const found = violationList(resourceLabel("NetworkVolume", name));
  const size: unknown = props.size;
  const version = versionOf(context);
  const { min, max } = range(version);
  if (!isWholeNumber(size) || size < min || size > max) {
    const rule = `must be a whole number of GB between ${min} and ${max} (platform limit on management API ${version})`;
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

import { z } from "zod";
import { stackPolicy } from "./define-policy";
import { isWholeNumber, listContributors, plural, stackLabel, violation } from "./format";
import { nonNegativeInt, withStackOverrides } from "./policy-config";
import { type NamedProps, type NetworkVolumeProps, NetworkVolumeResource } from "./resource-types";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const STACK_VOLUME_SIZE_CAP_POLICY = "runpod-stack-volume-size-cap";

/** The settings of `runpod-stack-volume-size-cap`; each may differ per stack through `byStack`/`byStackTag`. */
export const StackVolumeSizeCapSettingsSchema = z.object({
  maxTotalSizeGb: nonNegativeInt(
    "Largest total size of the stack's network volumes, in GB. Unset: the policy does not apply.",
  ),
});

/** The settings of `runpod-stack-volume-size-cap`. */
export type StackVolumeSizeCapSettings = z.infer<typeof StackVolumeSizeCapSettingsSchema>;

/** The configuration of `runpod-stack-volume-size-cap` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const StackVolumeSizeCapConfigSchema = withStackOverrides(StackVolumeSizeCapSettingsSchema);

/** The configuration of `runpod-stack-volume-size-cap`. */
export type StackVolumeSizeCapConfig = z.infer<typeof StackVolumeSizeCapConfigSchema>;

/**
 * The per-stack size rule: the sizes of the stack's network volumes add up to at most
 * `maxTotalSizeGb`. Sizes that are not whole numbers are left out (`runpod-volume-size-cap`
 * reports them). Returns no message when no cap applies.
 */
export function checkStackVolumeSize(
  volumes: readonly NamedProps<NetworkVolumeProps>[],
  config: StackVolumeSizeCapConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const limit = settingsForStack<StackVolumeSizeCapSettings>(config, context);
  const cap = limit.values.maxTotalSizeGb;
  if (cap === undefined) return [];
  const sized = volumes
    .map(({ name, props }) => ({ name, size: props.size }))
    .filter((v): v is { name: string; size: number } => isWholeNumber(v.size) && v.size >= 0);
  const total = sized.reduce((sum, v) => sum + v.size, 0);
  if (total <= cap) return [];
  const contributors = [...sized].sort((a, b) => b.size - a.size).map((v) => `"${v.name}" ${v.size} GB`);
  return [
    violation(
      stackLabel(context.stackName),
      `size summed over ${plural(sized.length, "network volume")}`,
      `${total} GB (${listContributors(contributors)})`,
      `exceeds the cap of ${cap} GB per stack (${settingLabel(limit, "maxTotalSizeGb")})`,
    ),
  ];
}

/** The policy: the stack's network volumes together stay within a size cap. */
export const stackVolumeSizeCapPolicy = stackPolicy({
  name: STACK_VOLUME_SIZE_CAP_POLICY,
  description: "The sizes of the stack's network volumes must add up to at most the configured cap per stack.",
  enforcementLevel: "advisory",
  config: StackVolumeSizeCapConfigSchema,
  remediationSteps: "Make volumes smaller or share one volume between endpoints, or raise the cap for this stack.",
  notApplicable: (config, context) =>
    settingsForStack<StackVolumeSizeCapSettings>(config, context).values.maxTotalSizeGb === undefined
      ? "no cap (maxTotalSizeGb) is configured for this stack"
      : undefined,
  check: (stack, config, context) => checkStackVolumeSize(stack.of(NetworkVolumeResource), config, context),
});

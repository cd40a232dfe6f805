import { z } from "zod";
import { nonNegativeInt, stringList, withStackOverrides } from "./policy-config";
import { type StackSettings, settingLabel } from "./stack-context";

/*
 * The settings of runpod-gpu-priority-list (gpu-priority-list.ts), which its rules for lists
 * (endpoints, pods), pools (gpu-pools-rule.ts) and clusters' single GPU type all read.
 */

/** The settings of `runpod-gpu-priority-list`; each may differ per stack through `byStack`/`byStackTag`. */
export const GpuPriorityListSettingsSchema = z.object({
  additionalGpuTypeIds: stringList(
    "GPU type ids to accept as known besides the platform's OpenAPI list (for types the platform added later).",
  ),
  allowed: stringList("If set, every entry of gpuTypeIds must be one of these GPU types."),
  denied: stringList("No entry of gpuTypeIds may be one of these GPU types."),
  minFallbacks: nonNegativeInt(
    "Least number of distinct GPU types after the first choice (default 0): a single GPU type often has no capacity.",
  ),
  preferredOrder: stringList(
    "The organisation's ranking of GPU types, best first. Entries of gpuTypeIds that appear here must follow this order; others are not constrained. The platform honours the order on management API v1 only (v2 rents by pool, with no order): a team on v2 may leave it unset.",
  ),
  additionalGpuPools: stringList(
    "GPU pools to accept as known besides this release's (for pools the platform added later), each with no known GPU types: list the types of a new pool in gpuTypeIds to have allowed/denied judge them.",
  ),
});

/** The settings of `runpod-gpu-priority-list`. */
export type GpuPriorityListSettings = z.infer<typeof GpuPriorityListSettingsSchema>;

/** The configuration of `runpod-gpu-priority-list` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const GpuPriorityListConfigSchema = withStackOverrides(GpuPriorityListSettingsSchema);

/** The configuration of `runpod-gpu-priority-list`. */
export type GpuPriorityListConfig = z.infer<typeof GpuPriorityListConfigSchema>;

/** ` (allowed from byStack "dev*" for stack "dev")` when a per-stack override set `key`, else nothing. */
export function overrideNote(
  settings: StackSettings<GpuPriorityListSettings>,
  key: keyof GpuPriorityListSettings,
): string {
  return settings.sources[key] ? ` (${settingLabel(settings, key)})` : "";
}

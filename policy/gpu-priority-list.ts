import { Secret } from "@pulumi/policy/policy";
import { nearKnownValues, suggestionText } from "../sdk/schemas/known-values";
import { GPU_TYPE_IDS } from "../sdk/schemas/platform-enums";
import { resourcePolicy, ruleFor } from "./define-policy";
import { formatValue, plural, resourceLabel, violationList } from "./format";
import { checkGpuPools } from "./gpu-pools-rule";
import {
  type GpuPriorityListConfig,
  type GpuPriorityListSettings,
  GpuPriorityListConfigSchema,
  overrideNote,
} from "./gpu-priority-settings";
import {
  type ClusterProps,
  ClusterResource,
  isGpuEndpoint,
  isGpuPod,
  type PodProps,
  PodResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { NO_STACK, type StackContext, type StackSettings, settingLabel, settingsForStack } from "./stack-context";

export {
  type GpuPriorityListConfig,
  GpuPriorityListConfigSchema,
  type GpuPriorityListSettings,
  GpuPriorityListSettingsSchema,
} from "./gpu-priority-settings";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const GPU_PRIORITY_LIST_POLICY = "runpod-gpu-priority-list";

const DUPLICATE_RULE = "each GPU type may appear once (remediation keeps the first occurrence)";

/**
 * The GPU priority list rule: for a GPU endpoint, `gpuTypeIds` is a non-empty list of distinct GPU
 * types the platform knows, within `allowed`, outside `denied`, with at least `minFallbacks` types
 * after the first, and in `preferredOrder`. Returns one message per violation (none for CPU endpoints).
 */
export function checkGpuPriorityList(
  name: string,
  props: ServerlessEndpointProps,
  config: GpuPriorityListConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  if (!isGpuEndpoint(props)) return [];
  if (props.gpuPools !== undefined && props.gpuTypeIds === undefined) {
    const settings = settingsForStack<GpuPriorityListSettings>(config, context);
    return checkGpuPools(violationList(resourceLabel("ServerlessEndpoint", name)), props, settings);
  }
  return gpuListProblems("ServerlessEndpoint", name, props.gpuTypeIds, config, context);
}

/**
 * The same rule for a GPU pod's `gpuTypeIds` (the types it may be placed on, in priority order).
 * Returns one message per violation (none for CPU pods).
 */
export function checkPodGpuPriorityList(
  name: string,
  props: PodProps,
  config: GpuPriorityListConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  if (!isGpuPod(props)) return [];
  return gpuListProblems("Pod", name, props.gpuTypeIds, config, context);
}

/**
 * What is wrong with one GPU type a resource may rent: unknown to this release (and not in
 * `additionalGpuTypeIds`), outside `allowed`, or `denied`. One rule per problem.
 */
function gpuTypeRules(entry: string, settings: StackSettings<GpuPriorityListSettings>): string[] {
  const values = settings.values;
  const rules: string[] = [];
  const known = new Set<string>([...GPU_TYPE_IDS, ...(values.additionalGpuTypeIds ?? [])]);
  if (!known.has(entry)) {
    const near = suggestionText(nearKnownValues("gpuType", entry, values.additionalGpuTypeIds));
    rules.push(
      `is not a GPU type the platform knows${near} (if the platform added it, list it in additionalGpuTypeIds)`,
    );
  }
  if (values.allowed && !values.allowed.includes(entry)) {
    rules.push(
      `is not one of the allowed GPU types ${formatValue(values.allowed)}${overrideNote(settings, "allowed")}`,
    );
  }
  if (values.denied?.includes(entry)) rules.push(`is a denied GPU type${overrideNote(settings, "denied")}`);
  return rules;
}

/**
 * The same rule for a cluster's one GPU type (`gpuTypeId`): known, allowed, not denied. A cluster
 * has a single type by design, so `minFallbacks` and `preferredOrder` do not apply to it.
 */
export function checkClusterGpuType(
  name: string,
  props: ClusterProps,
  config: GpuPriorityListConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const settings = settingsForStack<GpuPriorityListSettings>(config, context);
  const found = violationList(resourceLabel("Cluster", name));
  const type: unknown = props.gpuTypeId;
  if (typeof type !== "string") return found.add("gpuTypeId", formatValue(type), "must be a GPU type id (a string)");
  for (const rule of gpuTypeRules(type, settings)) found.add("gpuTypeId", formatValue(type), rule);
  return found.messages;
}

function gpuListProblems(
  kind: "ServerlessEndpoint" | "Pod",
  name: string,
  list: unknown,
  config: GpuPriorityListConfig,
  context: StackContext,
): string[] {
  const settings = settingsForStack<GpuPriorityListSettings>(config, context);
  const values = settings.values;
  const found = violationList(resourceLabel(kind, name));
  const noun = kind === "Pod" ? "GPU pod" : "GPU endpoint";
  if (!Array.isArray(list)) {
    const rule =
      list === undefined
        ? `must list at least one GPU type for a ${noun} (GPU types in order of preference)${kind === "Pod" ? "" : ", or name GPU pools in gpuPools"}`
        : "must be a list of GPU type ids";
    return found.add("gpuTypeIds", formatValue(list), rule);
  }
  if (list.length === 0) {
    return found.add("gpuTypeIds", "[]", `must list at least one GPU type for a ${noun}`);
  }
  const rendered = formatValue(list);
  const indexesOf = new Map<string, number[]>();
  list.forEach((entry: unknown, i) => {
    if (typeof entry !== "string") {
      found.add(`gpuTypeIds[${i}]`, formatValue(entry), "must be a GPU type id (a string)");
      return;
    }
    indexesOf.set(entry, [...(indexesOf.get(entry) ?? []), i]);
  });

  for (const [entry, indexes] of indexesOf) {
    if (indexes.length > 1) {
      const where = `indexes ${indexes.join(", ")}`;
      found.add("gpuTypeIds", rendered, `lists "${entry}" ${indexes.length} times (${where}); ${DUPLICATE_RULE}`);
    }
  }

  for (const [entry, [i]] of indexesOf) {
    for (const rule of gpuTypeRules(entry, settings)) found.add(`gpuTypeIds[${i}]`, formatValue(entry), rule);
  }

  const distinct = [...indexesOf.keys()];
  const minFallbacks = values.minFallbacks ?? 0;
  const fallbacks = Math.max(distinct.length - 1, 0);
  if (fallbacks < minFallbacks) {
    found.add(
      "gpuTypeIds",
      rendered,
      `has ${plural(fallbacks, "fallback")} after the first choice, at least ${minFallbacks} required (${settingLabel(settings, "minFallbacks")}): a single GPU type often has no capacity`,
    );
  }

  const orderProblem = preferredOrderProblem(
    distinct,
    values.preferredOrder ?? [],
    settingLabel(settings, "preferredOrder"),
  );
  if (orderProblem) found.add("gpuTypeIds", rendered, orderProblem);
  return found.messages;
}

/**
 * Checks that the ranked entries of `list` (those in `ranking`) appear in ranking order. Returns
 * the rule that was broken, naming the first misplaced pair and the expected list, or undefined.
 */
export function preferredOrderProblem(
  list: readonly string[],
  ranking: readonly string[],
  setting = "preferredOrder",
): string | undefined {
  const rank = new Map<string, number>();
  ranking.forEach((gpu, i) => {
    if (!rank.has(gpu)) rank.set(gpu, i);
  });
  const ranked = list.filter((gpu) => rank.has(gpu));
  const sorted = [...ranked].sort((a, b) => rank.get(a)! - rank.get(b)!);
  const at = ranked.findIndex((gpu, i) => gpu !== sorted[i]);
  if (at < 0) return undefined;
  const misplaced = ranked[at]!;
  const better = sorted[at]!;
  let next = 0;
  const expected = list.map((gpu) => (rank.has(gpu) ? sorted[next++]! : gpu));
  return `is not in the preferred order: "${better}" is ranked above "${misplaced}" but listed after it; expected ${formatValue(expected)} (${setting})`;
}

/** `gpuTypeIds` without duplicates (first occurrence kept), or undefined when nothing needs fixing. */
export function dedupeGpuTypeIds(props: ServerlessEndpointProps): string[] | undefined {
  if (!isGpuEndpoint(props) || !Array.isArray(props.gpuTypeIds)) return undefined;
  const list = [...props.gpuTypeIds];
  const deduped = list.filter((gpu, i) => list.indexOf(gpu) === i);
  return deduped.length === list.length ? undefined : deduped;
}

/**
 * The remediation: returns the props with duplicate GPU types removed (first occurrence kept), or
 * undefined when there is nothing to fix. The copy takes the other properties' raw values through
 * their descriptors, so, under the engine, values unknown during preview (and `__provider`) pass
 * through untouched instead of tripping @pulumi/policy's unknown-value check; a secret list stays secret.
 */
export function remediateGpuPriorityList<T extends ServerlessEndpointProps>(props: T): T | undefined {
  const fixed = dedupeGpuTypeIds(props);
  if (fixed === undefined) return undefined;
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(props)) as T;
  const wasSecret = Object.getOwnPropertyDescriptor(props, "gpuTypeIds")?.value instanceof Secret;
  (copy as Record<string, unknown>).gpuTypeIds = wasSecret ? new Secret(fixed) : fixed;
  return copy;
}

/** The policy: checks GPU priority lists of GPU endpoints and GPU pods; its remediation removes an endpoint's duplicates. */
export const gpuPriorityListPolicy = resourcePolicy({
  name: GPU_PRIORITY_LIST_POLICY,
  description:
    "A GPU endpoint's or GPU pod's gpuTypeIds must be a non-empty list of distinct, known GPU types that the organisation allows, with enough fallbacks, in its preferred order; or an endpoint's gpuPools (v2) known pools whose types, minus excludedGpuTypes, the organisation allows, enough of them; a cluster's gpuTypeId a known, allowed type.",
  enforcementLevel: "mandatory",
  config: GpuPriorityListConfigSchema,
  remediationSteps:
    "List the GPU types once each, best first, choosing known and allowed types; with enforcement level `remediate` the pack removes duplicates itself.",
  resource: ServerlessEndpointResource,
  notApplicable: (props) => (isGpuEndpoint(props) ? undefined : "the endpoint uses CPU workers"),
  check: checkGpuPriorityList,
  remediate: remediateGpuPriorityList,
  more: [ruleFor(PodResource, checkPodGpuPriorityList), ruleFor(ClusterResource, checkClusterGpuType)],
});

import { Secret } from "@pulumi/policy/policy";
import { z } from "zod";
import { nearKnownValues, suggestionText } from "../sdk/schemas/known-values";
import { serverlessPools } from "../sdk/schemas/platform-catalog";
import { GPU_TYPE_IDS } from "../sdk/schemas/platform-enums";
import { resourcePolicy, ruleFor } from "./define-policy";
import { formatValue, plural, resourceLabel, type ViolationList, violationList } from "./format";
import { nonNegativeInt, stringList, withStackOverrides } from "./policy-config";
import {
  isGpuEndpoint,
  isGpuPod,
  type PodProps,
  PodResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { NO_STACK, type StackContext, type StackSettings, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const GPU_PRIORITY_LIST_POLICY = "runpod-gpu-priority-list";

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
function overrideNote(settings: StackSettings<GpuPriorityListSettings>, key: keyof GpuPriorityListSettings): string {
  return settings.sources[key] ? ` (${settingLabel(settings, key)})` : "";
}

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

  const known = new Set<string>([...GPU_TYPE_IDS, ...(values.additionalGpuTypeIds ?? [])]);
  const allowed = values.allowed ? new Set(values.allowed) : undefined;
  const denied = new Set(values.denied ?? []);
  for (const [entry, [i]] of indexesOf) {
    const field = `gpuTypeIds[${i}]`;
    const value = formatValue(entry);
    if (!known.has(entry)) {
      const near = suggestionText(nearKnownValues("gpuType", entry, config.additionalGpuTypeIds));
      found.add(
        field,
        value,
        `is not a GPU type the platform knows${near} (if the platform added it, list it in additionalGpuTypeIds)`,
      );
    }
    if (allowed && !allowed.has(entry)) {
      found.add(
        field,
        value,
        `is not one of the allowed GPU types ${formatValue(values.allowed)}${overrideNote(settings, "allowed")}`,
      );
    }
    if (denied.has(entry)) {
      found.add(field, value, `is a denied GPU type${overrideNote(settings, "denied")}`);
    }
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
 * The rule for an endpoint that names GPU pools (`gpuPools`, v2) instead of types: known pools
 * (this release's, or `additionalGpuPools`), known excluded types, and the types the pools rent
 * (their types minus `excludedGpuTypes`, from this release's catalog) judged like a list: within
 * `allowed`, outside `denied` (naming the pool and how to exclude the type), at least
 * `minFallbacks` after the first. Pools have no order, so `preferredOrder` does not apply.
 */
function checkGpuPools(
  found: ViolationList,
  props: ServerlessEndpointProps,
  settings: StackSettings<GpuPriorityListSettings>,
): string[] {
  const values = settings.values;
  const pools: unknown = props.gpuPools;
  if (!Array.isArray(pools) || pools.length === 0) {
    return found.add("gpuPools", formatValue(pools), "must name at least one GPU pool");
  }
  const catalog = serverlessPools();
  const extraPools = new Set(values.additionalGpuPools ?? []);
  const excluded: unknown = props.excludedGpuTypes ?? [];
  const excludedSet = new Set(Array.isArray(excluded) ? excluded.filter((t) => typeof t === "string") : []);
  const known = new Set<string>([...GPU_TYPE_IDS, ...(values.additionalGpuTypeIds ?? [])]);
  [...excludedSet].forEach((type, i) => {
    if (!known.has(type)) {
      found.add(
        `excludedGpuTypes[${i}]`,
        formatValue(type),
        "is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)",
      );
    }
  });
  const rented: { type: string; pool: string }[] = [];
  pools.forEach((pool: unknown, i) => {
    if (typeof pool !== "string") return;
    const types = catalog.get(pool);
    if (types === undefined) {
      if (!extraPools.has(pool)) {
        found.add(
          `gpuPools[${i}]`,
          formatValue(pool),
          "is not a GPU pool this release knows (if the platform added it, list it in additionalGpuPools)",
        );
      }
      return;
    }
    for (const type of types) if (!excludedSet.has(type)) rented.push({ type, pool });
  });
  const allowed = values.allowed ? new Set(values.allowed) : undefined;
  const denied = new Set(values.denied ?? []);
  for (const { type, pool } of rented) {
    const how = `; take it out with excludedGpuTypes, or drop the pool`;
    if (allowed && !allowed.has(type)) {
      found.add(
        "gpuPools",
        formatValue(pools),
        `pool "${pool}" rents "${type}", which is not one of the allowed GPU types ${formatValue(values.allowed)}${overrideNote(settings, "allowed")}${how}`,
      );
    }
    if (denied.has(type)) {
      found.add(
        "gpuPools",
        formatValue(pools),
        `pool "${pool}" rents "${type}", a denied GPU type${overrideNote(settings, "denied")}${how}`,
      );
    }
  }
  const minFallbacks = values.minFallbacks ?? 0;
  const fallbacks = Math.max(rented.length - 1, 0);
  const unknownPools = pools.some((p) => typeof p === "string" && !catalog.has(p));
  if (!unknownPools && fallbacks < minFallbacks) {
    found.add(
      "gpuPools",
      formatValue(pools),
      `rents ${plural(rented.length, "GPU type")} (pools minus excludedGpuTypes), at least ${minFallbacks + 1} required (${settingLabel(settings, "minFallbacks")}): a single GPU type often has no capacity`,
    );
  }
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
    "A GPU endpoint's or GPU pod's gpuTypeIds must be a non-empty list of distinct, known GPU types that the organisation allows, with enough fallbacks, in its preferred order; or an endpoint's gpuPools (v2) known pools whose types, minus excludedGpuTypes, the organisation allows, enough of them.",
  enforcementLevel: "mandatory",
  config: GpuPriorityListConfigSchema,
  remediationSteps:
    "List the GPU types once each, best first, choosing known and allowed types; with enforcement level `remediate` the pack removes duplicates itself.",
  resource: ServerlessEndpointResource,
  notApplicable: (props) => (isGpuEndpoint(props) ? undefined : "the endpoint uses CPU workers"),
  check: checkGpuPriorityList,
  remediate: remediateGpuPriorityList,
  more: [ruleFor(PodResource, checkPodGpuPriorityList)],
});

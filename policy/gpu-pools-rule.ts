import { serverlessPools } from "../sdk/schemas/platform-catalog";
import { GPU_TYPE_IDS } from "../sdk/schemas/platform-enums";
import { formatValue, plural, type ViolationList } from "./format";
import { type GpuPriorityListSettings, overrideNote } from "./gpu-priority-settings";
import type { ServerlessEndpointProps } from "./resource-types";
import { type StackSettings, settingLabel } from "./stack-context";

/**
 * The rule for an endpoint that names GPU pools (`gpuPools`, v2) instead of types: known pools
 * (this release's, or `additionalGpuPools`), known excluded types, and the types the pools rent
 * (their types minus `excludedGpuTypes`, from this release's catalog) judged like a list: within
 * `allowed`, outside `denied` (naming the pool and how to exclude the type), at least
 * `minFallbacks` after the first. Pools have no order, so `preferredOrder` does not apply.
 */
export function checkGpuPools(
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

import { CPU_FLAVOR_IDS, GPU_TYPE_IDS, LIMITS } from "../sdk/schemas";
import { serverlessPools } from "../sdk/schemas/platform-catalog";
import { countOrDefault, formatValue, resourceLabel, violation } from "./format";
import { isGpuEndpoint, type NamedProps, type ServerlessEndpointProps } from "./resource-types";
import { type ApiVersionContext, endpointDefaults } from "./stack-api-version";
import { NO_STACK, settingLabel, type StackSettings } from "./stack-context";

/*
 * What serverless endpoints cost per hour, for runpod-stack-cost-ceiling: workers × units per
 * worker × the price of the dearest type each may rent, from the team's price tables (unlike pods
 * and clusters, stack-cost-pods.ts, endpoints are counted only when the team prices them).
 */

/** The price settings of the ceiling that endpoints read. */
export interface EndpointPrices {
  gpuPricesPerHour?: Readonly<Record<string, number>> | undefined;
  cpuPricesPerVcpuHour?: Readonly<Record<string, number>> | undefined;
}

/** How one kind of endpoint is priced. */
interface Pricing {
  readonly table: Readonly<Record<string, number>>;
  readonly tableName: "gpuPricesPerHour" | "cpuPricesPerVcpuHour";
  /** The list of types in priority order, and every type the platform may rent when it is unset. */
  readonly typesField: "gpuTypeIds" | "cpuFlavorIds";
  readonly everyType: readonly string[];
  readonly typeNoun: string;
  /** What a worker holds several of, and the platform's bound for it (its default is the stack's version's). */
  readonly unitField: "gpuCount" | "vcpuCount";
  readonly unitMin: number;
  readonly unitNoun: string;
}

/** What one endpoint costs per hour, per worker and in total. */
export interface EndpointCost {
  readonly name: string;
  /** Effective workersMin and workersMax (platform defaults 0 and 3). */
  readonly workersMin: number;
  readonly workersMax: number;
  /** GPUs or vCPUs per worker, e.g. `2 GPUs`. */
  readonly units: number;
  readonly unitNoun: string;
  /** Dollars per hour of one unit of the dearest type the endpoint may rent, and that type. */
  readonly unitPrice: number;
  readonly dearest: string;
}

/** An endpoint's cost, or why it cannot be bounded, or undefined when its kind is not priced. */
export type CostOrProblem = { readonly cost: EndpointCost } | { readonly problem: string } | undefined;

/** How GPU and CPU endpoints are priced (besides the table, which is configuration). */
const KINDS: Readonly<Record<"GPU" | "CPU", Omit<Pricing, "table">>> = {
  GPU: {
    tableName: "gpuPricesPerHour",
    typesField: "gpuTypeIds",
    everyType: GPU_TYPE_IDS,
    typeNoun: "GPU type",
    unitField: "gpuCount",
    unitMin: LIMITS.gpuCountMin,
    unitNoun: "GPU",
  },
  CPU: {
    tableName: "cpuPricesPerVcpuHour",
    typesField: "cpuFlavorIds",
    everyType: CPU_FLAVOR_IDS,
    typeNoun: "CPU flavor",
    unitField: "vcpuCount",
    unitMin: LIMITS.vcpuCountMin,
    unitNoun: "vCPU",
  },
};

function pricingOf(props: ServerlessEndpointProps, rules: StackSettings<EndpointPrices>): Pricing | undefined {
  const kind = KINDS[isGpuEndpoint(props) ? "GPU" : "CPU"];
  const table = rules.values[kind.tableName];
  return table ? { ...kind, table } : undefined;
}

/**
 * One endpoint's hourly cost: workers × units per worker × the price of the dearest type in its
 * list (workers may land on any type of the list, so the cap must hold for the dearest). An
 * unset list means any type the platform has. A type without a price makes the cost unbounded:
 * that is reported rather than skipped, since skipping it would let any cost through.
 */
export function endpointCost(
  endpoint: NamedProps<ServerlessEndpointProps>,
  rules: StackSettings<EndpointPrices>,
  context: ApiVersionContext = NO_STACK,
): CostOrProblem {
  const { name, props } = endpoint;
  const pricing = pricingOf(props, rules);
  if (!pricing) return undefined;
  const list: unknown = props[pricing.typesField];
  if (list !== undefined && !Array.isArray(list)) return undefined; // the provider's check reports the shape
  const listed = [...new Set((list ?? []).filter((t): t is string => typeof t === "string"))];
  const pooled = pricing.unitField === "gpuCount" && list === undefined ? typesOfPools(props) : undefined;
  if (pooled && "problem" in pooled) {
    return {
      problem: violation(
        resourceLabel("ServerlessEndpoint", name),
        "gpuPools",
        formatValue(props.gpuPools),
        pooled.problem,
      ),
    };
  }
  const candidates = pooled?.types ?? (listed.length > 0 ? listed : pricing.everyType);
  const unpriced = candidates.filter((t) => pricing.table[t] === undefined);
  if (unpriced.length > 0) {
    const subject = resourceLabel("ServerlessEndpoint", name);
    const rule =
      listed.length > 0
        ? `${unpriced.map((t) => `"${t}"`).join(", ")} ${unpriced.length === 1 ? "has" : "have"} no price in ${settingLabel(rules, pricing.tableName)}, so the endpoint's cost has no bound; add a price for each ${pricing.typeNoun} it may rent, or remove the unpriced ones`
        : `lets the platform rent any ${pricing.typeNoun}, and not all have a price in ${settingLabel(rules, pricing.tableName)}, so the endpoint's cost has no bound; list the ${pricing.typeNoun}s it may rent`;
    return { problem: violation(subject, pricing.typesField, formatValue(list), rule) };
  }
  let dearest = candidates[0]!;
  for (const t of candidates) if (pricing.table[t]! > pricing.table[dearest]!) dearest = t;
  const defaults = endpointDefaults(context);
  return {
    cost: {
      name,
      workersMin: countOrDefault(props.workersMin, LIMITS.workersMin, defaults.workersMin),
      workersMax: countOrDefault(props.workersMax, LIMITS.workersMin, defaults.workersMax),
      units: countOrDefault(props[pricing.unitField], pricing.unitMin, defaults[pricing.unitField]),
      unitNoun: pricing.unitNoun,
      unitPrice: pricing.table[dearest]!,
      dearest,
    },
  };
}

/**
 * The GPU types an endpoint's `gpuPools` (v2) rent, from this release's catalog, minus
 * `excludedGpuTypes`; undefined without pools; a problem for a pool the catalog does not know
 * (its types, and so its price, are unknown).
 */
function typesOfPools(props: ServerlessEndpointProps): { types: string[] } | { problem: string } | undefined {
  if (!Array.isArray(props.gpuPools) || props.gpuPools.length === 0) return undefined;
  const catalog = serverlessPools();
  const excluded = new Set(Array.isArray(props.excludedGpuTypes) ? props.excludedGpuTypes : []);
  const unknown = props.gpuPools.filter((p) => !catalog.has(p));
  if (unknown.length > 0) {
    return {
      problem: `${unknown.map((p) => `"${p}"`).join(", ")} ${unknown.length === 1 ? "is not a pool" : "are not pools"} of this release's catalog, so the GPU types (and prices) the endpoint may rent are unknown; name the types in gpuTypeIds instead`,
    };
  }
  const types = props.gpuPools.flatMap((p) => catalog.get(p) ?? []).filter((t) => !excluded.has(t));
  return { types: [...new Set(types)] };
}

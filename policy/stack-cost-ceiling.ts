import { z } from "zod";
import { CPU_FLAVOR_IDS, ENDPOINT_DEFAULTS, GPU_TYPE_IDS, LIMITS } from "../sdk/schemas";
import { serverlessPools } from "../sdk/schemas/platform-catalog";
import { type StackResources, stackPolicy } from "./define-policy";
import { countOrDefault, formatValue, listContributors, plural, resourceLabel, stackLabel, violation } from "./format";
import { withStackOverrides } from "./policy-config";
import {
  isGpuEndpoint,
  type NamedProps,
  type NetworkVolumeProps,
  NetworkVolumeResource,
  type PodProps,
  PodResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { type HourlyItem, podHourlyCost, volumeHourlyCost } from "./stack-cost-pods";
import { NO_STACK, type StackContext, type StackSettings, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const STACK_COST_CEILING_POLICY = "runpod-stack-cost-ceiling";

const priceTable = (description: string) => z.record(z.string(), z.number().min(0)).optional().describe(description);
const dollarsPerHour = (description: string) => z.number().min(0).optional().describe(description);

/** The settings of `runpod-stack-cost-ceiling`; each may differ per stack through `byStack`/`byStackTag`. */
export const StackCostCeilingSettingsSchema = z.object({
  gpuPricesPerHour: priceTable(
    'Dollars per hour of one GPU, by GPU type id, e.g. { "NVIDIA L4": 0.48 }. Unset: GPU endpoints are not counted. A GPU type an endpoint may rent without a price here is reported.',
  ),
  cpuPricesPerVcpuHour: priceTable(
    'Dollars per hour of one vCPU, by CPU flavor id (cpu3c, cpu3g, cpu5c, cpu5g), e.g. { "cpu3c": 0.03 }. Unset: CPU endpoints are not counted.',
  ),
  maxAlwaysOnPerHour: dollarsPerHour(
    "Most the stack may cost per hour with no traffic: workersMin workers of each endpoint, billed even when idle.",
  ),
  maxWorstCasePerHour: dollarsPerHour(
    "Most the stack may cost per hour at full scale: workersMax workers of each endpoint, on the dearest type it may rent.",
  ),
  podGpuPricesPerHour: priceTable(
    "Dollars per hour of one GPU of a pod, by GPU type id. Unset types take this release's catalog price of the pod's cloud (halved for an interruptible pod). Running pods count in both sums.",
  ),
  podCpuPricesPerVcpuHour: priceTable(
    "Dollars per hour of one vCPU of a CPU pod, by CPU flavor id (cpu3c, cpu3g, cpu3m, cpu5c, cpu5g, cpu5m). Unset flavors take this release's catalog price.",
  ),
  volumePricesPerGbMonth: priceTable(
    'Dollars per GB-month of network volume storage, by storage tier (v2 `type`; a volume without one is STANDARD), e.g. { "STANDARD": 0.07 }. Unset tiers take this release\'s catalog price ($0.07 STANDARD, $0.14 HIGH_PERFORMANCE); a tier in neither is reported. Volumes count in both sums.',
  ),
});

/** The settings of `runpod-stack-cost-ceiling`. */
export type StackCostCeilingSettings = z.infer<typeof StackCostCeilingSettingsSchema>;

/** The configuration of `runpod-stack-cost-ceiling` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const StackCostCeilingConfigSchema = withStackOverrides(StackCostCeilingSettingsSchema);

/** The configuration of `runpod-stack-cost-ceiling`. */
export type StackCostCeilingConfig = z.infer<typeof StackCostCeilingConfigSchema>;

/** How one kind of endpoint is priced. */
interface Pricing {
  readonly table: Readonly<Record<string, number>>;
  readonly tableName: "gpuPricesPerHour" | "cpuPricesPerVcpuHour";
  /** The list of types in priority order, and every type the platform may rent when it is unset. */
  readonly typesField: "gpuTypeIds" | "cpuFlavorIds";
  readonly everyType: readonly string[];
  readonly typeNoun: string;
  /** What a worker holds several of, and the platform's bounds for it. */
  readonly unitField: "gpuCount" | "vcpuCount";
  readonly unitMin: number;
  readonly unitDefault: number;
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
type CostOrProblem = { readonly cost: EndpointCost } | { readonly problem: string } | undefined;

/** How GPU and CPU endpoints are priced (besides the table, which is configuration). */
const KINDS: Readonly<Record<"GPU" | "CPU", Omit<Pricing, "table">>> = {
  GPU: {
    tableName: "gpuPricesPerHour",
    typesField: "gpuTypeIds",
    everyType: GPU_TYPE_IDS,
    typeNoun: "GPU type",
    unitField: "gpuCount",
    unitMin: LIMITS.gpuCountMin,
    unitDefault: ENDPOINT_DEFAULTS.gpuCount,
    unitNoun: "GPU",
  },
  CPU: {
    tableName: "cpuPricesPerVcpuHour",
    typesField: "cpuFlavorIds",
    everyType: CPU_FLAVOR_IDS,
    typeNoun: "CPU flavor",
    unitField: "vcpuCount",
    unitMin: LIMITS.vcpuCountMin,
    unitDefault: ENDPOINT_DEFAULTS.vcpuCount,
    unitNoun: "vCPU",
  },
};

function pricingOf(
  props: ServerlessEndpointProps,
  rules: StackSettings<StackCostCeilingSettings>,
): Pricing | undefined {
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
  rules: StackSettings<StackCostCeilingSettings>,
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
  return {
    cost: {
      name,
      workersMin: countOrDefault(props.workersMin, LIMITS.workersMin, ENDPOINT_DEFAULTS.workersMin),
      workersMax: countOrDefault(props.workersMax, LIMITS.workersMin, ENDPOINT_DEFAULTS.workersMax),
      units: countOrDefault(props[pricing.unitField], pricing.unitMin, pricing.unitDefault),
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

/** `$7.96`: cents always shown, up to four decimals for small prices, float noise rounded away. */
export function formatDollars(amount: number): string {
  const rounded = Math.round(amount * 10_000) / 10_000;
  const text = rounded.toFixed(4).replace(/0{1,2}$/, "");
  return `$${text}`;
}

/** Sums compare at a ten-thousandth of a cent, so 3 × $0.10 (0.30000000000000004) is not above a cap of $0.30. */
const EPSILON = 1e-6;

const CAPS = {
  maxAlwaysOnPerHour: { label: "always-on cost", workers: "workersMin" },
  maxWorstCasePerHour: { label: "worst-case cost", workers: "workersMax" },
} as const;

function capProblem(
  key: keyof typeof CAPS,
  costs: readonly EndpointCost[],
  fixed: readonly HourlyItem[],
  unpriced: number,
  rules: StackSettings<StackCostCeilingSettings>,
  context: StackContext,
): string | undefined {
  const cap = rules.values[key];
  if (cap === undefined) return undefined;
  const { label, workers } = CAPS[key];
  const items = [
    ...costs.map((c) => ({
      amount: c[workers] * c.units * c.unitPrice,
      text: `"${c.name}" ${plural(c[workers], "worker")} × ${plural(c.units, c.unitNoun)} × ${formatDollars(c.unitPrice)} (${c.dearest})`,
    })),
    // Running pods and volumes are billed every hour, whatever the traffic.
    ...fixed.map((f) => ({ amount: f.amount, text: f.detail })),
  ];
  const total = items.reduce((sum, i) => sum + i.amount, 0);
  if (total <= cap + EPSILON) return undefined;
  const contributors = items
    .filter((i) => i.amount > 0)
    .sort((a, b) => b.amount - a.amount)
    .map(({ text, amount }) => `${text} = ${formatDollars(amount)}`);
  const left =
    unpriced > 0
      ? `; ${plural(unpriced, fixed.length > 0 ? "resource" : "endpoint")} without prices not included (see ${unpriced === 1 ? "its" : "their"} own message)`
      : "";
  const rule = `${workers} × units per worker × $/hour of the dearest type each may rent`;
  const pods = fixed.filter((f) => f.kind === "pod").length;
  const volumes = fixed.length - pods;
  const over =
    fixed.length === 0
      ? `${label} (${rule}) summed over ${plural(costs.length, "endpoint")}`
      : `${label} summed over ${[
          ...(costs.length > 0 ? [`${plural(costs.length, "endpoint")} (${rule})`] : []),
          ...(pods > 0 ? [`${plural(pods, "running pod")} (units × $/hour of the dearest type each may rent)`] : []),
          ...(volumes > 0 ? [`${plural(volumes, "network volume")} (GB × $/GB-month / 730)`] : []),
        ].join(", ")}`;
  return violation(
    stackLabel(context.stackName),
    over,
    `${formatDollars(total)}/hour (${listContributors(contributors)})`,
    `exceeds the cap of ${formatDollars(cap)}/hour (${settingLabel(rules, key)})${left}`,
  );
}

/**
 * The stack cost ceiling rule: with prices configured, the always-on cost (workersMin) and the
 * worst-case cost (workersMax) per hour of the stack's endpoints, each on the dearest type it
 * may rent, stay within `maxAlwaysOnPerHour` and `maxWorstCasePerHour`. Endpoints that may rent
 * an unpriced type are reported and left out of the sums. Returns no message when no price or no
 * cap applies.
 */
export function checkStackCostCeiling(
  endpoints: readonly NamedProps<ServerlessEndpointProps>[],
  config: StackCostCeilingConfig = {},
  context: StackContext = NO_STACK,
  others: PodsAndVolumes = {},
): string[] {
  const rules = settingsForStack<StackCostCeilingSettings>(config, context);
  if (notApplicableReason(rules, others) !== undefined) return [];
  const results = endpoints.map((e) => endpointCost(e, rules));
  const fixedResults = [
    ...(others.pods ?? []).map((p) => podHourlyCost(p, rules)),
    ...(others.volumes ?? []).map((v) => volumeHourlyCost(v, rules)),
  ];
  const problems = [...results, ...fixedResults].flatMap((r) => (r && "problem" in r ? [r.problem] : []));
  const costs = results.flatMap((r) => (r && "cost" in r ? [r.cost] : []));
  const fixed = fixedResults.flatMap((r) => (r && "item" in r ? [r.item] : []));
  const caps = (Object.keys(CAPS) as (keyof typeof CAPS)[]).flatMap(
    (key) => capProblem(key, costs, fixed, problems.length, rules, context) ?? [],
  );
  return [...problems, ...caps];
}

/** The stack's pods and network volumes, which the ceiling prices from the catalog by default. */
export interface PodsAndVolumes {
  readonly pods?: readonly NamedProps<PodProps>[];
  readonly volumes?: readonly NamedProps<NetworkVolumeProps>[];
}

function notApplicableReason(
  rules: StackSettings<StackCostCeilingSettings>,
  others: PodsAndVolumes,
): string | undefined {
  const { gpuPricesPerHour, cpuPricesPerVcpuHour, maxAlwaysOnPerHour, maxWorstCasePerHour } = rules.values;
  const catalogPriced = (others.pods?.length ?? 0) + (others.volumes?.length ?? 0) > 0;
  if (!gpuPricesPerHour && !cpuPricesPerVcpuHour && !catalogPriced) {
    return "no prices (gpuPricesPerHour, cpuPricesPerVcpuHour) are configured for this stack";
  }
  if (maxAlwaysOnPerHour === undefined && maxWorstCasePerHour === undefined) {
    return "no cost cap (maxAlwaysOnPerHour, maxWorstCasePerHour) is configured for this stack";
  }
  return undefined;
}

function podsAndVolumes(stack: StackResources): PodsAndVolumes {
  return { pods: stack.of(PodResource), volumes: stack.of(NetworkVolumeResource) };
}

/** The policy: the stack's endpoints stay within an hourly cost ceiling. */
export const stackCostCeilingPolicy = stackPolicy({
  name: STACK_COST_CEILING_POLICY,
  description:
    "The stack's always-on cost (workersMin of each priced endpoint, running pods, network volumes) and worst-case cost (workersMax on the dearest type each endpoint may rent, running pods, network volumes) per hour must stay within the configured caps; pods and volumes are priced from the catalog unless the configuration prices them.",
  enforcementLevel: "advisory",
  config: StackCostCeilingConfigSchema,
  remediationSteps:
    "Lower workersMin/workersMax or gpuCount of the dearest endpoints, stop pods you do not use (desiredStatus: EXITED), drop expensive GPU types from the lists, price every type they may rent, or raise the caps for this stack.",
  notApplicable: (config, context, stack) =>
    notApplicableReason(settingsForStack<StackCostCeilingSettings>(config, context), podsAndVolumes(stack)),
  check: (stack, config, context) =>
    checkStackCostCeiling(stack.of(ServerlessEndpointResource), config, context, podsAndVolumes(stack)),
});

import { z } from "zod";
import { type StackResources, stackPolicy } from "./define-policy";
import { listContributors, plural, stackLabel, violation } from "./format";
import { withStackOverrides } from "./policy-config";
import { type EndpointCost, endpointCost } from "./stack-cost-endpoints";
import {
  type ClusterProps,
  ClusterResource,
  type NamedProps,
  type NetworkVolumeProps,
  NetworkVolumeResource,
  type PodProps,
  PodResource,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
} from "./resource-types";
import { clusterHourlyCost, type HourlyItem, podHourlyCost, volumeHourlyCost } from "./stack-cost-pods";
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
    "Dollars per hour of one GPU of a pod or of a cluster's pod, by GPU type id. Unset types take this release's catalog price of the pod's cloud (halved for an interruptible pod; clusters run on secure cloud). Running pods and clusters count in both sums.",
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
    // Running pods, clusters and volumes are billed every hour, whatever the traffic.
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
  const clusters = fixed.filter((f) => f.kind === "cluster").length;
  const volumes = fixed.length - pods - clusters;
  const over =
    fixed.length === 0
      ? `${label} (${rule}) summed over ${plural(costs.length, "endpoint")}`
      : `${label} summed over ${[
          ...(costs.length > 0 ? [`${plural(costs.length, "endpoint")} (${rule})`] : []),
          ...(pods > 0 ? [`${plural(pods, "running pod")} (units × $/hour of the dearest type each may rent)`] : []),
          ...(clusters > 0 ? [`${plural(clusters, "cluster")} (pods × GPUs per pod × $/hour of its GPU type)`] : []),
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
  const results = endpoints.map((e) => endpointCost(e, rules, context));
  const fixedResults = [
    ...(others.pods ?? []).map((p) => podHourlyCost(p, rules)),
    ...(others.clusters ?? []).map((c) => clusterHourlyCost(c, rules)),
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

/** The stack's pods, clusters and network volumes, which the ceiling prices from the catalog by default. */
export interface PodsAndVolumes {
  readonly pods?: readonly NamedProps<PodProps>[];
  readonly clusters?: readonly NamedProps<ClusterProps>[];
  readonly volumes?: readonly NamedProps<NetworkVolumeProps>[];
}

function notApplicableReason(
  rules: StackSettings<StackCostCeilingSettings>,
  others: PodsAndVolumes,
): string | undefined {
  const { gpuPricesPerHour, cpuPricesPerVcpuHour, maxAlwaysOnPerHour, maxWorstCasePerHour } = rules.values;
  const catalogPriced = (others.pods?.length ?? 0) + (others.clusters?.length ?? 0) + (others.volumes?.length ?? 0) > 0;
  if (!gpuPricesPerHour && !cpuPricesPerVcpuHour && !catalogPriced) {
    return "no prices (gpuPricesPerHour, cpuPricesPerVcpuHour) are configured for this stack";
  }
  if (maxAlwaysOnPerHour === undefined && maxWorstCasePerHour === undefined) {
    return "no cost cap (maxAlwaysOnPerHour, maxWorstCasePerHour) is configured for this stack";
  }
  return undefined;
}

function podsAndVolumes(stack: StackResources): PodsAndVolumes {
  return { pods: stack.of(PodResource), clusters: stack.of(ClusterResource), volumes: stack.of(NetworkVolumeResource) };
}

/** The policy: the stack's endpoints stay within an hourly cost ceiling. */
export const stackCostCeilingPolicy = stackPolicy({
  name: STACK_COST_CEILING_POLICY,
  description:
    "The stack's always-on cost (workersMin of each priced endpoint, running pods, clusters, network volumes) and worst-case cost (workersMax on the dearest type each endpoint may rent, running pods, clusters, network volumes) per hour must stay within the configured caps; pods, clusters and volumes are priced from the catalog unless the configuration prices them.",
  enforcementLevel: "advisory",
  config: StackCostCeilingConfigSchema,
  remediationSteps:
    "Lower workersMin/workersMax or gpuCount of the dearest endpoints, stop pods you do not use (desiredStatus: EXITED), shrink or remove clusters, drop expensive GPU types from the lists, price every type they may rent, or raise the caps for this stack.",
  notApplicable: (config, context, stack) =>
    notApplicableReason(settingsForStack<StackCostCeilingSettings>(config, context), podsAndVolumes(stack)),
  check: (stack, config, context) =>
    checkStackCostCeiling(stack.of(ServerlessEndpointResource), config, context, podsAndVolumes(stack)),
});

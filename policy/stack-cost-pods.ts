import {
  CPU_CATALOG,
  GPU_CATALOG,
  HOURS_PER_MONTH,
  INTERRUPTIBLE_PRICE_FACTOR,
  VOLUME_PRICE_PER_GB_MONTH,
} from "../sdk/schemas/platform-catalog";
import { countOrDefault, formatValue, resourceLabel, violation } from "./format";
import { type ClusterProps, isGpuPod, type NamedProps, type NetworkVolumeProps, type PodProps } from "./resource-types";
import { settingLabel, type StackSettings } from "./stack-context";

/*
 * What running pods, clusters and network volumes cost per hour, for runpod-stack-cost-ceiling.
 * Unlike an endpoint's workers, a running pod, a cluster and a volume are billed every hour
 * whatever the traffic, so each counts in both the always-on and the worst-case sum. Their prices default to
 * this release's catalog (sdk/schemas/platform-catalog.ts: a pod's cloud price per GPU, half for
 * an interruptible pod, its flavor's price per vCPU, $0.07/$0.14 per GB-month of volume), which a
 * team overrides with its own tables (negotiated prices, a newer catalog). A stopped pod
 * (`desiredStatus: "EXITED"`) costs nothing.
 */

/** The price settings of the ceiling that pods and volumes read. */
export interface PodAndVolumePrices {
  podGpuPricesPerHour?: Readonly<Record<string, number>> | undefined;
  podCpuPricesPerVcpuHour?: Readonly<Record<string, number>> | undefined;
  volumePricesPerGbMonth?: Readonly<Record<string, number>> | undefined;
}

/** One item of the stack's hourly cost: its name and the arithmetic as words. */
export interface HourlyItem {
  readonly kind: "pod" | "cluster" | "volume";
  readonly name: string;
  readonly amount: number;
  /** `"trainer" pod 2 GPUs × $0.40 (NVIDIA A40, SECURE)`: how the amount was reached. */
  readonly detail: string;
}

/** An item, or why the cost has no bound, or undefined when it costs nothing now. */
export type ItemOrProblem = { readonly item: HourlyItem } | { readonly problem: string } | undefined;

const catalogGpu = new Map(GPU_CATALOG.map((g) => [g.id as string, g]));
const catalogCpu = new Map(CPU_CATALOG.map((c) => [c.id, c]));

const money = (n: number) => `$${(Math.round(n * 10_000) / 10_000).toFixed(4).replace(/0{1,2}$/, "")}`;

/**
 * A running pod's dollars per hour: GPUs (or vCPUs) × the price of the dearest type of its list
 * (the platform may place it on any of them), on its cloud, halved when interruptible.
 */
export function podHourlyCost(pod: NamedProps<PodProps>, rules: StackSettings<PodAndVolumePrices>): ItemOrProblem {
  const { name, props } = pod;
  if (props.desiredStatus === "EXITED") return undefined;
  const gpu = isGpuPod(props);
  const field = gpu ? "gpuTypeIds" : "cpuFlavorIds";
  const table = gpu ? rules.values.podGpuPricesPerHour : rules.values.podCpuPricesPerVcpuHour;
  const cloud = props.cloudType === "COMMUNITY" ? "community" : "secure";
  const catalogPrice = (type: string): number | undefined =>
    gpu ? catalogGpu.get(type)?.price[cloud] : catalogCpu.get(type)?.price.securePerVcpu;
  const list: unknown = props[field];
  if (list !== undefined && !Array.isArray(list)) return undefined; // the provider's check reports the shape
  const listed = [...new Set((list ?? []).filter((t): t is string => typeof t === "string"))];
  const candidates = listed.length > 0 ? listed : gpu ? [...catalogGpu.keys()] : [...catalogCpu.keys()];
  const priceOf = (type: string) => table?.[type] ?? catalogPrice(type);
  const unpriced = candidates.filter((t) => priceOf(t) === undefined);
  if (unpriced.length > 0) {
    const setting = settingLabel(rules, gpu ? "podGpuPricesPerHour" : "podCpuPricesPerVcpuHour");
    const rule = `${unpriced.map((t) => `"${t}"`).join(", ")} ${unpriced.length === 1 ? "has" : "have"} no price in this release's catalog or in ${setting}, so the pod's cost has no bound; add a price`;
    return { problem: violation(resourceLabel("Pod", name), field, formatValue(list), rule) };
  }
  let dearest = candidates[0]!;
  for (const t of candidates) if (priceOf(t)! > priceOf(dearest)!) dearest = t;
  const units = gpu ? countOrDefault(props.gpuCount, 1, 1) : countOrDefault(props.vcpuCount, 1, 2);
  const spot = props.interruptible === true ? INTERRUPTIBLE_PRICE_FACTOR : 1;
  const unitPrice = priceOf(dearest)! * spot;
  const noun = gpu ? (units === 1 ? "GPU" : "GPUs") : units === 1 ? "vCPU" : "vCPUs";
  const how = [dearest, ...(gpu ? [cloud.toUpperCase()] : []), ...(spot < 1 ? ["interruptible"] : [])].join(", ");
  return {
    item: {
      kind: "pod",
      name,
      amount: units * unitPrice,
      detail: `"${name}" pod ${units} ${noun} × ${money(unitPrice)} (${how})`,
    },
  };
}

/**
 * A cluster's dollars per hour: pods × GPUs per pod × the price of its one GPU type (the team's
 * `podGpuPricesPerHour`, else this release's catalog), on secure cloud, where clusters run. A
 * cluster has no stopped state: it costs from creation to deletion.
 */
export function clusterHourlyCost(
  cluster: NamedProps<ClusterProps>,
  rules: StackSettings<PodAndVolumePrices>,
): ItemOrProblem {
  const { name, props } = cluster;
  const type: unknown = props.gpuTypeId;
  if (typeof type !== "string") return undefined; // the provider's check reports the shape
  const price = rules.values.podGpuPricesPerHour?.[type] ?? catalogGpu.get(type)?.price.secure;
  if (price === undefined) {
    const setting = settingLabel(rules, "podGpuPricesPerHour");
    const rule = `has no price in this release's catalog or in ${setting}, so the cluster's cost has no bound; add a price`;
    return { problem: violation(resourceLabel("Cluster", name), "gpuTypeId", formatValue(type), rule) };
  }
  const pods = countOrDefault(props.podCount, 2, 2);
  const gpus = countOrDefault(props.gpuCountPerPod, 1, 1);
  return {
    item: {
      kind: "cluster",
      name,
      amount: pods * gpus * price,
      detail: `"${name}" cluster ${pods} pods × ${gpus} ${gpus === 1 ? "GPU" : "GPUs"} × ${money(price)} (${type}, SECURE)`,
    },
  };
}

/** A network volume's dollars per hour: its size × its tier's price per GB-month / 730. */
export function volumeHourlyCost(
  volume: NamedProps<NetworkVolumeProps & { type?: string }>,
  rules: StackSettings<PodAndVolumePrices>,
): ItemOrProblem {
  const { name, props } = volume;
  if (typeof props.size !== "number" || props.size <= 0) return undefined;
  const tier = typeof props.type === "string" ? props.type : "STANDARD";
  const perGbMonth = rules.values.volumePricesPerGbMonth?.[tier] ?? VOLUME_PRICE_PER_GB_MONTH[tier];
  if (perGbMonth === undefined) {
    // A tier the platform added since this release: its cost has no bound until the team prices it.
    const setting = settingLabel(rules, "volumePricesPerGbMonth");
    const rule = `storage tier "${tier}" has no price in this release's catalog or in ${setting}, so the volume's cost has no bound; add a price per GB-month for it`;
    return { problem: violation(resourceLabel("NetworkVolume", name), "type", formatValue(props.type), rule) };
  }
  return {
    item: {
      kind: "volume",
      name,
      amount: (props.size * perGbMonth) / HOURS_PER_MONTH,
      detail: `"${name}" volume ${props.size} GB × ${money(perGbMonth)}/GB-month (${tier}) / ${HOURS_PER_MONTH} h`,
    },
  };
}

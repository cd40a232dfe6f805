import { formatValue, resourceLabel, violation } from "./format";
import type { NamedProps, NetworkVolumeProps } from "./resource-types";

/*
 * What the stack's network volumes cost per hour in the cost ceiling (issue 28: storage tiers).
 * The platform prices storage per GB-month, by tier (v2 `type`: STANDARD, HIGH_PERFORMANCE, or a
 * tier added since); a volume without `type` gets its data center's primary tier, STANDARD.
 */

/** Hours in a billing month (365 × 24 / 12), to turn per-GB-month prices into per-hour costs. */
export const HOURS_PER_MONTH = 730;

/** The tier a volume without `type` gets. */
export const DEFAULT_VOLUME_TIER = "STANDARD";

/** What one volume costs per hour. */
export interface VolumeCost {
  readonly name: string;
  readonly sizeGb: number;
  readonly tier: string;
  /** Dollars per GB-month of its tier. */
  readonly pricePerGbMonth: number;
  /** Dollars per hour. */
  readonly perHour: number;
}

/**
 * One volume's hourly cost from `prices` (dollars per GB-month by tier), or a problem naming the
 * tier without a price (its cost would have no bound), or undefined when the size is not a number
 * (the provider's check reports it).
 */
export function volumeCost(
  volume: NamedProps<NetworkVolumeProps>,
  prices: Readonly<Record<string, number>>,
  pricesLabel: string,
): { cost: VolumeCost } | { problem: string } | undefined {
  const { name, props } = volume;
  if (typeof props.size !== "number" || !Number.isFinite(props.size)) return undefined;
  const tier = typeof props.type === "string" ? props.type : DEFAULT_VOLUME_TIER;
  const price = prices[tier];
  if (price === undefined) {
    const rule = `storage tier "${tier}" has no price in ${pricesLabel}, so the volume's cost has no bound; add a price per GB-month for it`;
    return { problem: violation(resourceLabel("NetworkVolume", name), "type", formatValue(props.type ?? tier), rule) };
  }
  return {
    cost: {
      name,
      sizeGb: props.size,
      tier,
      pricePerGbMonth: price,
      perHour: (props.size * price) / HOURS_PER_MONTH,
    },
  };
}

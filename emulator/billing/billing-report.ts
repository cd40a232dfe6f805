import type { BillingWindow } from "./billing-buckets";
import { bucketsOf, overlapMs } from "./billing-buckets";
import { amountFor } from "./prices";
import type { UsageRecord, UsageSegment } from "./usage-record";

/*
 * The billing arithmetic, billed from the emulator clock by the second: each span of
 * usage contributes its rate times the time it overlaps each bucket, grouped as the caller says.
 * Pure: records, a window and `now` in, sums out.
 */

/** What one group spent in one bucket. */
export interface GroupTotals {
  /** Dollars. */
  amount: number;
  /** Milliseconds billed. */
  ms: number;
  /** Dollars per component (`gpu`, `cpu`, `standard`, `highPerformance`). */
  byComponent: Record<string, number>;
  /** The largest size each volume had in the bucket, by volume (for `diskSpaceBilledGb`). */
  gbByResource: Map<string, { gb: number; highPerformance: boolean }>;
}

/** Buckets (by start) of groups (by key) of totals. */
export type BillingTable = Map<number, Map<string, GroupTotals>>;

/** The group a span counts toward, or undefined to leave it out (a filter). */
export type GroupOf = (record: UsageRecord, segment: UsageSegment) => string | undefined;

function emptyTotals(): GroupTotals {
  return { amount: 0, ms: 0, byComponent: {}, gbByResource: new Map() };
}

/** Sums `records` into the window's buckets, grouped by `groupOf`; only groups that were billed time appear. */
export function billingTable(
  records: Iterable<UsageRecord>,
  window: BillingWindow,
  now: number,
  groupOf: GroupOf,
): BillingTable {
  const buckets = bucketsOf(window);
  const table: BillingTable = new Map(buckets.map(([start]) => [start, new Map()]));
  for (const record of records) {
    for (const segment of record.segments) {
      if (segment.start >= window.end || (segment.end ?? now) <= window.start) continue;
      const group = groupOf(record, segment);
      if (group === undefined) continue;
      // Only the buckets the span overlaps: from the first that ends after it starts.
      const end = Math.min(segment.end ?? now, now, window.end);
      for (let i = firstBucketEndingAfter(buckets, segment.start); i < buckets.length; i++) {
        const [from, to] = buckets[i]!;
        if (from >= end) break;
        const ms = overlapMs(segment, from, to, Math.min(now, window.end));
        if (ms <= 0) continue;
        const groups = table.get(from)!;
        const totals = groups.get(group) ?? emptyTotals();
        const amount = amountFor(segment.ratePerHour, ms);
        totals.amount += amount;
        totals.ms += ms;
        totals.byComponent[segment.component] = (totals.byComponent[segment.component] ?? 0) + amount;
        if (segment.gb !== undefined) {
          const held = totals.gbByResource.get(record.resourceId);
          const highPerformance = segment.component === "highPerformance";
          if (!held || segment.gb > held.gb)
            totals.gbByResource.set(record.resourceId, { gb: segment.gb, highPerformance });
        }
        groups.set(group, totals);
      }
    }
  }
  return table;
}

/** The index of the first bucket whose end is after `t` (binary search over buckets in order). */
function firstBucketEndingAfter(buckets: readonly [number, number][], t: number): number {
  let lo = 0;
  let hi = buckets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (buckets[mid]![1] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Dollars as answered: rounded to a millionth, so float noise does not show. */
export function money(amount: number): number {
  return Math.round(amount * 1_000_000) / 1_000_000;
}

/** A component's dollars in a group's totals (0 when none). */
export function component(totals: GroupTotals | undefined, name: string): number {
  return money(totals?.byComponent[name] ?? 0);
}

/** Gigabytes billed in a group's bucket: the volumes' largest sizes, summed (all, or one tier). */
export function gigabytes(totals: GroupTotals, highPerformanceOnly = false): number {
  let gb = 0;
  for (const held of totals.gbByResource.values()) if (!highPerformanceOnly || held.highPerformance) gb += held.gb;
  return gb;
}

import type { BillingOperations } from "../../sdk/management/neutral/api";
import type { BillingBucketSize, BillingRecord, NetworkVolumeBillingRecord } from "../../sdk/schemas/billing";
import type { BilledType, StackResource } from "./stack-reader";

/*
 * What a stack's resources were billed: one billing read per resource (its id as the filter), the
 * records summed per bucket. Pure arithmetic apart from the reads, which go through the client's
 * version-neutral `billing` (v2: /v2/billing/pods, /v2/billing/serverless,
 * /v2/billing/network-volumes; v1: /billing/pods, /billing/endpoints, /billing/networkvolumes).
 */

/** What one resource cost in the window. */
export interface ResourceSpend {
  type: BilledType;
  name: string;
  id: string;
  /** US dollars in the window. */
  amount: number;
  /** US dollars per bucket, by the bucket's start (ISO 8601, UTC). */
  byBucket: Record<string, number>;
  /**
   * `account` when the platform cannot bill this resource apart (v1 bills all network volumes of
   * an account together): the row holds the account's volumes, not only this stack's.
   */
  scope?: "account";
}

/** The stack's spend over a window. */
export interface SpendReport {
  stack: string;
  /** Start and end of the window asked for (ISO 8601); the platform snaps them to whole buckets. */
  since: string;
  until: string;
  currency: "USD";
  bucket: BillingBucketSize;
  /** Every bucket start with a record, in time order. */
  buckets: string[];
  total: number;
  resources: ResourceSpend[];
}

/** What a billing window asks for. */
export interface SpendWindow {
  since: number;
  /** Undefined: up to now, as the platform's clock says. */
  until: number | undefined;
  bucket: BillingBucketSize;
}

/** Amounts as printed and stored: whole millionths of a dollar, so float noise does not show. */
export function roundAmount(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

/** Records summed per bucket (bucket starts normalized to ISO 8601 UTC). */
export function sumByBucket(records: readonly { time: string; amount: number }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) {
    const ms = Date.parse(r.time);
    const key = Number.isNaN(ms) ? r.time : new Date(ms).toISOString();
    out[key] = roundAmount((out[key] ?? 0) + r.amount);
  }
  return out;
}

/** A resource's row from its bucket sums. */
export function resourceSpend(resource: StackResource, byBucket: Record<string, number>): ResourceSpend {
  const amount = roundAmount(Object.values(byBucket).reduce((sum, a) => sum + a, 0));
  return { ...resource, amount, byBucket };
}

/** The report of `rows`: buckets in time order and the total. */
export function spendReport(stack: string, window: SpendWindow, now: number, rows: ResourceSpend[]): SpendReport {
  const buckets = [...new Set(rows.flatMap((r) => Object.keys(r.byBucket)))].sort();
  return {
    stack,
    since: new Date(window.since).toISOString(),
    until: new Date(window.until ?? now).toISOString(),
    currency: "USD",
    bucket: window.bucket,
    buckets,
    total: roundAmount(rows.reduce((sum, r) => sum + r.amount, 0)),
    resources: rows,
  };
}

/** Reads the billing of each resource; `version` decides how network volumes can be read. */
export async function readSpend(
  billing: BillingOperations,
  version: "v1" | "v2",
  resources: readonly StackResource[],
  window: SpendWindow,
): Promise<ResourceSpend[]> {
  const base = {
    bucketSize: window.bucket,
    startTime: new Date(window.since).toISOString(),
    ...(window.until !== undefined ? { endTime: new Date(window.until).toISOString() } : {}),
  };
  const rows: ResourceSpend[] = [];
  const volumes = resources.filter((r) => r.type === "NetworkVolume");
  for (const r of resources) {
    let records: readonly (BillingRecord | NetworkVolumeBillingRecord)[];
    if (r.type === "Pod") {
      records = (await billing.pods({ ...base, grouping: "podId", podId: r.id })).filter(
        (x) => (x.podId ?? r.id) === r.id,
      );
    } else if (r.type === "ServerlessEndpoint") {
      const all = await billing.endpoints({ ...base, grouping: "endpointId", endpointId: r.id });
      records = all.filter((x) => (x.endpointId ?? r.id) === r.id);
    } else if (version === "v2") {
      records = await billing.networkVolumes({ ...base, networkVolumeId: r.id });
    } else continue;
    rows.push(resourceSpend(r, sumByBucket(records)));
  }
  if (version === "v1" && volumes.length > 0) {
    // v1 has no per-volume billing: one row for the account's volumes, said to be so.
    const records = await billing.networkVolumes(base);
    const names = volumes.map((v) => v.name).join(", ");
    const row = resourceSpend(
      { type: "NetworkVolume", name: `all network volumes (${names} and any others)`, id: "*" },
      sumByBucket(records),
    );
    rows.push({ ...row, scope: "account" });
  }
  return rows;
}

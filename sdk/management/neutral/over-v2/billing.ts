import { validateForVersion } from "../../../request-validation";
import {
  type BillingRecord,
  type EndpointBillingQuery,
  EndpointBillingQuerySchema,
  type NetworkVolumeBillingQuery,
  NetworkVolumeBillingQuerySchema,
  type NetworkVolumeBillingRecord,
  type PodBillingQuery,
  PodBillingQuerySchema,
} from "../../../schemas";
import type * as V2 from "../../../schemas/v2";
import type { CallOptions } from "../../../transport";
import type { BillingOperations } from "../api";
import type { BillingV2 } from "../../v2/billing";

/** v2's pod billing records in v1's shape: one record per pod and bucket (`time` is the bucket's start). */
export function podBillingFromV2(answer: V2.ListPodBillingResponse): BillingRecord[] {
  return answer.records.map((r) => ({ time: r.startTime, amount: r.totalAmount, podId: r.podId }));
}

/** v2's serverless billing records in v1's shape (`/billing/endpoints`): one record per endpoint and bucket. */
export function endpointBillingFromV2(answer: V2.ListServerlessBillingResponse): BillingRecord[] {
  return answer.records.map((r) => ({ time: r.startTime, amount: r.totalAmount, endpointId: r.serverlessId }));
}

/**
 * v2's per-volume storage records in v1's shape: one record per bucket, the volumes summed (v1's
 * `/billing/networkvolumes` has no per-volume records), the high-performance share apart. v2
 * reports no gigabytes, so `diskSpaceBilledGb` is absent.
 */
export function volumeBillingFromV2(answer: V2.ListNetworkVolumeBillingResponse): NetworkVolumeBillingRecord[] {
  const byBucket = new Map<string, NetworkVolumeBillingRecord>();
  for (const r of answer.records) {
    const record = byBucket.get(r.startTime) ?? { time: r.startTime, amount: 0, highPerformanceStorageAmount: 0 };
    record.amount += r.totalAmount;
    record.highPerformanceStorageAmount! += r.highPerformanceAmount;
    byBucket.set(r.startTime, record);
  }
  return [...byBucket.values()].sort((a, b) => a.time.localeCompare(b.time));
}

/**
 * The version-neutral billing reads on management API v2: v1's `/billing/pods`,
 * `/billing/endpoints` (serverless endpoints: v2's `/v2/billing/serverless`; v2's
 * `/v2/billing/endpoints` bills the platform's public endpoints) and `/billing/networkvolumes`,
 * answered in v1's record shape. What v2 cannot group or filter by is refused before sending
 * (`VERSION_ONLY_FIELDS`).
 */
export class NeutralBillingOverV2 implements BillingOperations {
  constructor(private readonly v2: BillingV2) {}

  async pods(query: PodBillingQuery = {}, options?: CallOptions): Promise<BillingRecord[]> {
    const q = validateForVersion(PodBillingQuerySchema, query, "read pod billing", "podBilling", "v2");
    const answer = await this.v2.pods(
      { startTime: q.startTime, endTime: q.endTime, bucketSize: q.bucketSize, lastN: q.lastN, podId: q.podId },
      options,
    );
    return podBillingFromV2(answer);
  }

  async endpoints(query: EndpointBillingQuery = {}, options?: CallOptions): Promise<BillingRecord[]> {
    const q = validateForVersion(EndpointBillingQuerySchema, query, "read endpoint billing", "endpointBilling", "v2");
    const answer = await this.v2.serverless(
      {
        startTime: q.startTime,
        endTime: q.endTime,
        bucketSize: q.bucketSize,
        lastN: q.lastN,
        serverlessId: q.endpointId,
      },
      options,
    );
    return endpointBillingFromV2(answer);
  }

  async networkVolumes(
    query: NetworkVolumeBillingQuery = {},
    options?: CallOptions,
  ): Promise<NetworkVolumeBillingRecord[]> {
    const q = validateForVersion(
      NetworkVolumeBillingQuerySchema,
      query,
      "read network volume billing",
      "networkVolumeBilling",
      "v2",
    );
    return volumeBillingFromV2(await this.v2.networkVolumes(q, options));
  }
}

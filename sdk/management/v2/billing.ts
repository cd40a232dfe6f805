import type { z } from "zod";
import { validateRequest } from "../../request-validation";
import { NetworkVolumeBillingQuerySchema } from "../../schemas/billing";
import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { sendOnVersion } from "../management-resource";

/** A per-kind billing read: the window, and the kind's id filter. */
export interface PodBillingQueryV2 extends V2.BillingWindowQuery {
  /** Only this pod. */
  podId?: string | undefined;
}
/** The serverless billing window and endpoint filter. */
export interface ServerlessBillingQueryV2 extends V2.BillingWindowQuery {
  /** Only this serverless endpoint. */
  serverlessId?: string | undefined;
}
/** The network volume billing window and volume filter. */
export interface NetworkVolumeBillingQueryV2 extends V2.BillingWindowQuery {
  /** Only this network volume. */
  networkVolumeId?: string | undefined;
}
/** The cluster billing window and cluster filter. */
export interface ClusterBillingQueryV2 extends V2.BillingWindowQuery {
  /** Only this cluster. */
  clusterId?: string | undefined;
}

/**
 * Billing of management API v2 (`/v2/billing/...`), in v2's own shapes (`{records, metadata}`):
 * aggregated across everything (`all`), and per kind (`pods`, `serverless`, `endpoints`: the
 * platform's public endpoints, `networkVolumes`, `clusters`), each with its id filter. A window is
 * `startTime`/`endTime` or `lastN` buckets, never both (refused before sending).
 */
export class BillingV2 {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/billing`: every resource's spend per bucket, broken out by component. */
  all(query: V2.BillingWindowQuery = {}, options?: CallOptions): Promise<V2.ListBillingResponse> {
    return this.read("all", "", query, V2.ListBillingResponseSchema, options);
  }

  /** `GET /v2/billing/pods`: per pod per bucket. */
  pods(query: PodBillingQueryV2 = {}, options?: CallOptions): Promise<V2.ListPodBillingResponse> {
    return this.read("pods", "/pods", query, V2.ListPodBillingResponseSchema, options);
  }

  /** `GET /v2/billing/serverless`: per serverless endpoint per bucket. */
  serverless(query: ServerlessBillingQueryV2 = {}, options?: CallOptions): Promise<V2.ListServerlessBillingResponse> {
    return this.read("serverless", "/serverless", query, V2.ListServerlessBillingResponseSchema, options);
  }

  /** `GET /v2/billing/endpoints`: the platform's public endpoints (not your serverless endpoints: see `serverless`). */
  endpoints(query: V2.BillingWindowQuery = {}, options?: CallOptions): Promise<V2.ListEndpointBillingResponse> {
    return this.read("endpoints", "/endpoints", query, V2.ListEndpointBillingResponseSchema, options);
  }

  /** `GET /v2/billing/network-volumes`: per volume per bucket, standard and high-performance storage. */
  networkVolumes(
    query: NetworkVolumeBillingQueryV2 = {},
    options?: CallOptions,
  ): Promise<V2.ListNetworkVolumeBillingResponse> {
    return this.read("networkVolumes", "/network-volumes", query, V2.ListNetworkVolumeBillingResponseSchema, options);
  }

  /** `GET /v2/billing/clusters`: per cluster per bucket. */
  clusters(query: ClusterBillingQueryV2 = {}, options?: CallOptions): Promise<V2.ListClusterBillingResponse> {
    return this.read("clusters", "/clusters", query, V2.ListClusterBillingResponseSchema, options);
  }

  private async read<T>(
    operation: string,
    path: string,
    query: V2.BillingWindowQuery & Partial<Record<"podId" | "serverlessId" | "networkVolumeId" | "clusterId", string>>,
    schema: z.ZodType<T>,
    options: CallOptions | undefined,
  ): Promise<T> {
    const { startTime, endTime, bucketSize, lastN, ...filters } = query;
    // The window rules are the same as the version-neutral query's (dates, lastN alone).
    validateRequest(
      NetworkVolumeBillingQuerySchema,
      { startTime, endTime, bucketSize, lastN },
      `read ${operation} billing`,
    );
    return sendOnVersion(this.transport, "v2", `v2.billing.${operation}`, {
      method: "GET",
      path: `/billing${path}`,
      query: { startTime, endTime, bucketSize, lastN, ...filters },
      idempotent: true,
      schema,
      options,
    });
  }
}

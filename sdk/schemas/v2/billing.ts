import { z } from "zod";

/*
 * Billing of management API v2 (`/v2/billing` aggregated, and per kind: `/pods`, `/serverless`,
 * `/endpoints` (the platform's public endpoints), `/network-volumes`, `/clusters`). Every answer is
 * `{records, metadata}`: records are time buckets (half-open `[startTime, endTime)`) with amounts in
 * USD, one per resource per bucket on the per-kind routes; metadata echoes the resolved query and
 * totals. OpenAPI v2 `Billing*` components.
 */

const money = z.number();
const range = { startTime: z.string(), endTime: z.string() };

/** Amounts of the aggregated record and totals (OpenAPI v2 `BillingAmounts`). */
export const BillingAmountsSchema = z.object({
  totalAmount: money,
  podGpuAmount: money,
  podCpuAmount: money,
  podDiskAmount: money,
  serverlessGpuAmount: money,
  serverlessCpuAmount: money,
  serverlessDiskAmount: money,
  serverlessFeeAmount: money,
  storageStandardAmount: money,
  storageHighPerformanceAmount: money,
  endpointAmount: money,
  clusterGpuAmount: money,
  clusterDiskAmount: money,
  clusterNetworkingAmount: money,
});
/** Amounts across every billable resource. */
export type BillingAmounts = z.infer<typeof BillingAmountsSchema>;

/** Pod amounts (OpenAPI v2 `PodBillingAmounts`). */
export const PodBillingAmountsSchema = z.object({
  totalAmount: money,
  gpuAmount: money,
  cpuAmount: money,
  diskAmount: money,
});
/** Serverless amounts (OpenAPI v2 `ServerlessBillingAmounts`). */
export const ServerlessBillingAmountsSchema = PodBillingAmountsSchema.extend({ feeAmount: money });
/** Public endpoint amounts (OpenAPI v2 `EndpointBillingAmounts`). */
export const EndpointBillingAmountsSchema = z.object({ totalAmount: money });
/** Network volume amounts (OpenAPI v2 `NetworkVolumeBillingAmounts`). */
export const NetworkVolumeBillingAmountsSchema = z.object({
  totalAmount: money,
  standardAmount: money,
  highPerformanceAmount: money,
});
/** Cluster amounts (OpenAPI v2 `ClusterBillingAmounts`: GPU-only). */
export const ClusterBillingAmountsSchema = z.object({
  totalAmount: money,
  gpuAmount: money,
  diskAmount: money,
  networkingAmount: money,
});

/** The resolved query echoed in metadata (OpenAPI v2 `BillingQuery` and the per-kind ones). */
export const BillingQueryEchoSchema = z.object({
  ...range,
  bucketSize: z.string(),
  podId: z.string().nullable().optional(),
  serverlessId: z.string().nullable().optional(),
  networkVolumeId: z.string().nullable().optional(),
  clusterId: z.string().nullable().optional(),
});

/** A billing answer: records and metadata with the kind's amounts and, per kind, the count of distinct resources. */
function billingResponse<A extends z.ZodRawShape, K extends z.ZodRawShape, C extends z.ZodRawShape>(
  amounts: z.ZodObject<A>,
  recordKey: K,
  count: C,
) {
  return z.object({
    records: z.array(z.object({ ...range, ...recordKey, ...amounts.shape })),
    metadata: z.object({
      query: BillingQueryEchoSchema,
      recordCount: z.number().int(),
      ...count,
      totals: amounts,
    }),
  });
}

/** `GET /v2/billing` (OpenAPI v2 `ListBillingResponse`). */
export const ListBillingResponseSchema = billingResponse(BillingAmountsSchema, {}, {});
/** `GET /v2/billing/pods` (OpenAPI v2 `ListPodBillingResponse`). */
export const ListPodBillingResponseSchema = billingResponse(
  PodBillingAmountsSchema,
  { podId: z.string() },
  { uniquePodCount: z.number().int() },
);
/** `GET /v2/billing/serverless` (OpenAPI v2 `ListServerlessBillingResponse`). */
export const ListServerlessBillingResponseSchema = billingResponse(
  ServerlessBillingAmountsSchema,
  { serverlessId: z.string() },
  { uniqueServerlessCount: z.number().int() },
);
/** `GET /v2/billing/endpoints` (OpenAPI v2 `ListEndpointBillingResponse`: the platform's public endpoints). */
export const ListEndpointBillingResponseSchema = billingResponse(EndpointBillingAmountsSchema, {}, {});
/** `GET /v2/billing/network-volumes` (OpenAPI v2 `ListNetworkVolumeBillingResponse`). */
export const ListNetworkVolumeBillingResponseSchema = billingResponse(
  NetworkVolumeBillingAmountsSchema,
  { networkVolumeId: z.string() },
  { uniqueNetworkVolumeCount: z.number().int() },
);
/** `GET /v2/billing/clusters` (OpenAPI v2 `ListClusterBillingResponse`). */
export const ListClusterBillingResponseSchema = billingResponse(
  ClusterBillingAmountsSchema,
  { clusterId: z.string() },
  { uniqueClusterCount: z.number().int() },
);

/** The aggregated billing answer. */
export type ListBillingResponse = z.infer<typeof ListBillingResponseSchema>;
/** The pod billing answer. */
export type ListPodBillingResponse = z.infer<typeof ListPodBillingResponseSchema>;
/** The serverless billing answer. */
export type ListServerlessBillingResponse = z.infer<typeof ListServerlessBillingResponseSchema>;
/** The public endpoint billing answer. */
export type ListEndpointBillingResponse = z.infer<typeof ListEndpointBillingResponseSchema>;
/** The network volume billing answer. */
export type ListNetworkVolumeBillingResponse = z.infer<typeof ListNetworkVolumeBillingResponseSchema>;
/** The cluster billing answer. */
export type ListClusterBillingResponse = z.infer<typeof ListClusterBillingResponseSchema>;

/** The window of a v2 billing read (OpenAPI v2 `BillingStartTime`, `BillingEndTime`, `BillingBucketSize`, `BillingLastN`). */
export interface BillingWindowQuery {
  /** Start (RFC 3339), snapped down to its bucket. Default: 30 days ago. */
  startTime?: string | undefined;
  /** End (RFC 3339, exclusive), snapped up to its bucket's end. Default: now. */
  endTime?: string | undefined;
  /** Bucket length. Default `day`. */
  bucketSize?: "hour" | "day" | "week" | "month" | "year" | undefined;
  /** The last N buckets, ending with the current one; not with `startTime`/`endTime`. */
  lastN?: number | undefined;
}

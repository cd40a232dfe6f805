import { z } from "zod";
import { platformId } from "./platform-values";

/*
 * Billing of management API v1 (`/billing/pods`, `/billing/endpoints`, `/billing/networkvolumes`;
 * OpenAPI v1 `BillingRecord`, `NetworkVolumeBillingRecord` and the three operations' query
 * parameters), which are also the version-neutral billing shapes (`client.billing`): v1's names,
 * plus what only v2 has (`lastN`, a network volume filter).
 */

/** Lengths of a billing time bucket (OpenAPI `bucketSize`, both versions). */
export const BILLING_BUCKET_SIZES = ["hour", "day", "week", "month", "year"] as const;
/** A bucket length. */
export type BillingBucketSize = (typeof BILLING_BUCKET_SIZES)[number];

/** An RFC 3339 date-time with a zone (`2026-06-01T00:00:00Z`), as both OpenAPIs write `format: date-time`. */
export const dateTime = z.iso.datetime({
  offset: true,
  error: 'must be an RFC 3339 date-time with a zone, such as "2026-06-01T00:00:00Z"',
});

/** The window and granularity every billing query has. */
const windowFields = {
  bucketSize: z.enum(BILLING_BUCKET_SIZES, { error: `must be one of ${BILLING_BUCKET_SIZES.join(", ")}` }),
  startTime: dateTime,
  endTime: dateTime,
  /** v2 only: the last N buckets, ending with the current one (instead of startTime/endTime). */
  lastN: z.number().int("must be a whole number").min(1, "must be at least 1"),
};

/** `startTime` before `endTime`, and `lastN` not with either (OpenAPI v2 `lastN`: "mutually exclusive"). */
function windowRules(q: { startTime?: string; endTime?: string; lastN?: number }, ctx: z.RefinementCtx): void {
  if (q.startTime !== undefined && q.endTime !== undefined && Date.parse(q.startTime) >= Date.parse(q.endTime)) {
    ctx.addIssue({ code: "custom", path: ["endTime"], message: "must be after startTime" });
  }
  if (q.lastN !== undefined && (q.startTime !== undefined || q.endTime !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["lastN"],
      message: "cannot be combined with startTime or endTime: give one or the other",
    });
  }
}

/** Query of `GET /billing/pods` (OpenAPI v1 parameters; `grouping` defaults to `gpuTypeId` on v1). */
export const PodBillingQuerySchema = z
  .object({
    ...windowFields,
    grouping: z.enum(["podId", "gpuTypeId"], { error: "must be one of podId, gpuTypeId" }),
    podId: z.string().min(1, "must not be empty"),
    gpuTypeId: platformId("gpuType"),
  })
  .partial()
  .superRefine(windowRules);
/** Query of the pod billing read. */
export type PodBillingQuery = z.infer<typeof PodBillingQuerySchema>;

/** Query of `GET /billing/endpoints` (serverless endpoints; OpenAPI v1 parameters; `grouping` defaults to `endpointId`). */
export const EndpointBillingQuerySchema = z
  .object({
    ...windowFields,
    grouping: z.enum(["endpointId", "podId", "gpuTypeId"], { error: "must be one of endpointId, podId, gpuTypeId" }),
    endpointId: z.string().min(1, "must not be empty"),
    gpuTypeId: z.array(platformId("gpuType")),
    dataCenterId: z.array(platformId("dataCenter")),
    imageName: z.string().min(1, "must not be empty"),
    templateId: z.string().min(1, "must not be empty"),
  })
  .partial()
  .superRefine(windowRules);
/** Query of the serverless endpoint billing read. */
export type EndpointBillingQuery = z.infer<typeof EndpointBillingQuerySchema>;

/** Query of `GET /billing/networkvolumes` (OpenAPI v1: the window only; `networkVolumeId` is v2's). */
export const NetworkVolumeBillingQuerySchema = z
  .object({ ...windowFields, networkVolumeId: z.string().min(1, "must not be empty") })
  .partial()
  .superRefine(windowRules);
/** Query of the network volume billing read. */
export type NetworkVolumeBillingQuery = z.infer<typeof NetworkVolumeBillingQuerySchema>;

/**
 * One bucket of one group (OpenAPI v1 `BillingRecord`): `amount` in USD, `time` the bucket's
 * start, and the group's key (`podId`, `gpuTypeId` or `endpointId`, after `grouping`).
 */
export const BillingRecordSchema = z.object({
  amount: z.number(),
  time: z.string(),
  diskSpaceBilledGb: z.number().int().optional(),
  timeBilledMs: z.number().int().optional(),
  endpointId: z.string().optional(),
  gpuTypeId: z.string().optional(),
  podId: z.string().optional(),
});
/** A billing record (pods, serverless endpoints). */
export type BillingRecord = z.infer<typeof BillingRecordSchema>;
/** `GET /billing/pods` and `GET /billing/endpoints`. */
export const BillingRecordListSchema = z.array(BillingRecordSchema);

/** One bucket of network volume storage (OpenAPI v1 `NetworkVolumeBillingRecord`). */
export const NetworkVolumeBillingRecordSchema = z.object({
  amount: z.number(),
  time: z.string(),
  diskSpaceBilledGb: z.number().int().optional(),
  highPerformanceStorageAmount: z.number().optional(),
  highPerformanceStorageDiskSpaceBilledGb: z.number().int().optional(),
});
/** A network volume billing record. */
export type NetworkVolumeBillingRecord = z.infer<typeof NetworkVolumeBillingRecordSchema>;
/** `GET /billing/networkvolumes`. */
export const NetworkVolumeBillingRecordListSchema = z.array(NetworkVolumeBillingRecordSchema);

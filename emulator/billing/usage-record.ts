import { z } from "zod";

/*
 * What the emulator bills, as it happened: per billed resource, the spans of time it ran (or was
 * stored) at a rate. Kept per account in the `usage` collection, so a restart with a state file
 * keeps every dollar already spent: a closed span is final, an open one (a running pod, a stored
 * volume) goes on from where it was. Serverless workers are not persisted while they run (jobs
 * are not): their spans are written when they stop, which every worker does on a clean shutdown.
 */

/** The kinds of billed resource (the v2 billing routes' kinds, less the platform's public endpoints). */
export const USAGE_KINDS = ["pod", "serverless", "networkVolume", "cluster"] as const;
/** A kind of billed resource. */
export type UsageKind = (typeof USAGE_KINDS)[number];

/** What a span's money is for: the components of v2's billing amounts. */
export const USAGE_COMPONENTS = ["gpu", "cpu", "standard", "highPerformance"] as const;

/** A span of time at one rate, in epoch milliseconds of platform time; `end` absent while it runs. */
export const UsageSegmentSchema = z.object({
  start: z.number(),
  end: z.number().optional(),
  ratePerHour: z.number(),
  component: z.enum(USAGE_COMPONENTS),
  /** The pod, serverless worker or cluster member that ran. */
  podId: z.string().optional(),
  /** The GPU type it ran on, for grouping by GPU type. */
  gpuTypeId: z.string().optional(),
  /** Gigabytes stored (network volumes). */
  gb: z.number().optional(),
});
/** A span of billed time. */
export type UsageSegment = z.infer<typeof UsageSegmentSchema>;

/** Everything billed for one resource: `id` is `kind:resourceId`. */
export const UsageRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(USAGE_KINDS),
  resourceId: z.string(),
  /** Facts billing filters by (v1's serverless filters: template, image, data centers). */
  attributes: z
    .object({
      templateId: z.string().optional(),
      imageName: z.string().optional(),
      dataCenterIds: z.array(z.string()).optional(),
    })
    .optional(),
  segments: z.array(UsageSegmentSchema),
});
/** The usage of one resource. */
export type UsageRecord = z.infer<typeof UsageRecordSchema>;

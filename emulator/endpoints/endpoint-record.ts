import { z } from "zod";
import * as V2 from "../../sdk/schemas/v2";

/*
 * A serverless endpoint as the emulator keeps it: v2's answer (OpenAPI v2 `Endpoint`) in v2's
 * names and nesting, one record answered in both dialects. v1's routes translate at their edge
 * (endpoint-v1.ts, through the record as v1 names it: endpoint-v1-view.ts).
 */

/** The GPU side of a GPU endpoint: v2's `gpu`, whose pools are absent while v1's GPU types select (`v1.gpuTypeIds`). */
const EndpointGpuRecordSchema = z.object({
  count: z.number().int(),
  pools: z.array(z.string()).optional(),
  excludedTypes: z.array(z.string()).optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().optional(),
});

/** One release of a stored endpoint: a change of its container settings (endpoint-releases.ts). */
const EndpointReleaseSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  createdAt: z.string(),
  diff: z.array(z.object({ field: z.string(), old: z.unknown(), new: z.unknown() })),
});

/**
 * What v1 wrote that v2's fields do not hold (each absent unless it differs from what v1 reads
 * off the v2 fields): the GPU types v1 named (v2 reads them as the pools holding them), v1's
 * single `networkVolumeId` (v2's `networkVolumes` reads it as the first of them), and settings of
 * the other compute family, which v1 accepts and answers back (a GPU endpoint's `cpuFlavorIds` and
 * `vcpuCount`, a CPU endpoint's `gpuCount` and CUDA versions; a CPU endpoint that named no flavor
 * keeps its `vcpuCount` here, its `cpu` being empty).
 */
export const EndpointV1FieldsSchema = z.object({
  gpuTypeIds: z.array(z.string()).optional(),
  networkVolumeId: z.string().optional(),
  gpuCount: z.number().int().optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().optional(),
  cpuFlavorIds: z.array(z.string()).optional(),
  vcpuCount: z.number().int().optional(),
});
/** The names of {@link EndpointV1FieldsSchema}. */
export const V1_ONLY_FIELDS = Object.keys(EndpointV1FieldsSchema.shape) as (keyof EndpointV1Fields)[];
/** What v1 wrote that v2's fields do not hold. */
export type EndpointV1Fields = z.infer<typeof EndpointV1FieldsSchema>;

/**
 * What the emulator keeps of an endpoint: v2's fields (a GPU endpoint has `gpu`, a CPU one `cpu`;
 * `workers.idleTimeout` is kept even where v2's answer omits it), the container settings it holds
 * itself (through v2; `env` always), and what only the emulator keeps:
 *
 * - `templateId`, the template a v1 endpoint is linked to: its container settings are read from
 *   it (v2 copies a template's settings once and keeps no link; a record with its own `image` has
 *   none);
 * - `userId`, `version` (grows with every change, as v1 answers it) and `releases`, one per change
 *   of the container settings, oldest first (environment values never enter them);
 * - `v1`: what v1 wrote that v2's fields do not hold.
 */
export const EndpointRecordSchema = V2.EndpointSchema.omit({ requestUrls: true, gpu: true, cpu: true }).extend({
  type: z.string(),
  templateId: z.string().optional(),
  env: z.record(z.string(), z.string()),
  registry: z.string().optional(),
  gpu: EndpointGpuRecordSchema.optional(),
  cpu: z.array(z.object({ id: z.string(), vcpuCount: z.number().int() })).optional(),
  workers: z.object({ min: z.number().int(), max: z.number().int(), idleTimeout: z.number().int() }),
  networkVolumes: z.array(z.string()).optional(),
  userId: z.string(),
  version: z.number().int(),
  releases: z.array(EndpointReleaseSchema).optional(),
  v1: EndpointV1FieldsSchema.optional(),
});
/** A stored endpoint. */
export type EndpointRecord = z.infer<typeof EndpointRecordSchema>;
/** One release of a stored endpoint. */
export type EndpointRelease = NonNullable<EndpointRecord["releases"]>[number];

/** The fields of an endpoint's container settings, whose changes make a release. */
export const CONTAINER_FIELDS = ["templateId", "image", "args", "disk", "ports", "env", "registry"] as const;

/** The scaler's value, whichever its type: seconds of queue delay or requests per worker. */
export function scalerValueOf(r: Pick<EndpointRecord, "scaling">): number {
  return (r.scaling.type === "REQUEST_COUNT" ? r.scaling.requestCount : r.scaling.queueDelay) ?? 0;
}

/** A CPU endpoint's vCPUs per worker: its first configuration's, or what v1 set when it named no flavor. */
export function vcpuCountOf(r: Pick<EndpointRecord, "cpu" | "v1">): number | undefined {
  return r.cpu?.[0]?.vcpuCount ?? r.v1?.vcpuCount;
}

/** The network volumes an endpoint's workers mount: v1's `networkVolumeId` and the list, once each. */
export function networkVolumesOf(r: Pick<EndpointRecord, "networkVolumes" | "v1">): string[] {
  const single = r.v1?.networkVolumeId;
  return [...new Set([...(single ? [single] : []), ...(r.networkVolumes ?? [])])];
}

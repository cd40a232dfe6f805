import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { ENDPOINT_DEFAULTS, EndpointSchema } from "../../sdk/schemas";
import {
  type EndpointRecord,
  EndpointRecordSchema,
  type EndpointV1Fields,
  scalerValueOf,
  V1_ONLY_FIELDS,
} from "./endpoint-record";

/*
 * An endpoint record in v1's names: what v1's routes write and read (endpoint-v1.ts), and what
 * state files before version 2 kept. The two forms hold the same facts: the view of a record
 * brought back is the record, and a view brought to a record and back is the view.
 */

/** The record in v1's names (v1's `Endpoint` fields, with what v2 wrote under v2's own names). */
export const EndpointV1ViewSchema = EndpointSchema.extend({
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().int().optional(),
  ports: z.array(z.string()).optional(),
  registry: z.string().optional(),
  cpu: z.array(z.object({ id: z.string(), vcpuCount: z.number().int() })).optional(),
  releases: EndpointRecordSchema.shape.releases,
});
/** An endpoint record in v1's names. */
export type EndpointV1View = z.infer<typeof EndpointV1ViewSchema>;

/** v1's flash-boot setting of a v2 mode: `OFF` and `FLASHBOOT` as v1's booleans, priority flash boot as itself. */
export function flashbootSetting(mode: string): boolean | string {
  return mode === "OFF" ? false : mode === "FLASHBOOT" ? true : mode;
}

/** v2's flash-boot mode of a setting (`true`, `false`, or a mode). */
export function flashbootModeOf(setting: boolean | string | undefined): string {
  if (typeof setting === "string") return setting;
  return setting ? "FLASHBOOT" : "OFF";
}

/** The record in v1's names, read off its v2 fields alone (no `v1` fields applied). */
function viewOfV2Fields(r: EndpointRecord): EndpointV1View {
  const own = <K extends keyof EndpointV1View>(key: K, value: EndpointV1View[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    computeType: r.cpu !== undefined ? "CPU" : "GPU",
    ...own("templateId", r.templateId),
    ...own("gpuCount", r.gpu?.count),
    ...own("gpuPools", r.gpu?.pools),
    ...own("excludedGpuTypes", r.gpu?.excludedTypes),
    ...own("cpuFlavorIds", r.cpu?.length ? [...new Set(r.cpu.map((c) => c.id))] : undefined),
    ...own("vcpuCount", r.cpu?.[0]?.vcpuCount),
    ...own("cpu", r.cpu?.length ? r.cpu : undefined),
    workersMin: r.workers.min,
    workersMax: r.workers.max,
    idleTimeout: r.workers.idleTimeout,
    scalerType: r.scaling.type,
    scalerValue: scalerValueOf(r),
    executionTimeoutMs: r.timeout,
    flashboot: flashbootSetting(r.flashboot),
    ...own("networkVolumeIds", r.networkVolumes),
    dataCenterIds: r.dataCenterIds,
    ...own("allowedCudaVersions", r.gpu?.allowedCudaVersions),
    ...own("minCudaVersion", r.gpu?.minCudaVersion),
    ...own("image", r.image),
    ...own("args", r.args),
    ...own("disk", r.disk),
    ...own("ports", r.ports),
    ...own("registry", r.registry),
    env: r.env,
    createdAt: r.createdAt,
    userId: r.userId,
    version: r.version,
    ...own("releases", r.releases),
  };
}

/** The record in v1's names. */
export function v1ViewOf(r: EndpointRecord): EndpointV1View {
  return { ...viewOfV2Fields(r), ...r.v1 };
}

/**
 * The record a view in v1's names is (a v1 write, or a record of a state file before version 2):
 * v2's fields, and in `v1` what they cannot hold. Fields a view leaves out take the OpenAPI
 * defaults.
 */
export function recordOfV1View(view: EndpointV1View): EndpointRecord {
  const d = ENDPOINT_DEFAULTS;
  const own = <K extends keyof EndpointRecord>(key: K, value: EndpointRecord[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  const scalerType = view.scalerType ?? d.scalerType;
  const scalerValue = view.scalerValue ?? d.scalerValue;
  const compute: Pick<EndpointRecord, "gpu" | "cpu"> =
    view.computeType === "CPU"
      ? { cpu: view.cpu ?? (view.cpuFlavorIds ?? []).map((id) => ({ id, vcpuCount: view.vcpuCount ?? d.vcpuCount })) }
      : {
          gpu: {
            count: view.gpuCount ?? d.gpuCount,
            ...(view.gpuPools === undefined ? {} : { pools: view.gpuPools }),
            ...(view.excludedGpuTypes === undefined ? {} : { excludedTypes: view.excludedGpuTypes }),
            ...(view.allowedCudaVersions === undefined ? {} : { allowedCudaVersions: view.allowedCudaVersions }),
            ...(view.minCudaVersion === undefined ? {} : { minCudaVersion: view.minCudaVersion }),
          },
        };
  const record: EndpointRecord = {
    id: view.id,
    name: view.name ?? view.id,
    type: view.type ?? "QUEUE",
    ...own("templateId", view.templateId),
    ...own("image", view.image),
    ...own("args", view.args),
    ...own("disk", view.disk),
    ...own("ports", view.ports),
    ...own("registry", view.registry),
    env: view.env ?? {},
    ...compute,
    workers: {
      min: view.workersMin ?? d.workersMin,
      max: view.workersMax ?? d.workersMax,
      idleTimeout: view.idleTimeout ?? d.idleTimeout,
    },
    scaling:
      scalerType === "REQUEST_COUNT"
        ? { type: scalerType, requestCount: scalerValue }
        : { type: scalerType, queueDelay: scalerValue },
    dataCenterIds: view.dataCenterIds ?? [],
    ...own("networkVolumes", view.networkVolumeIds),
    timeout: view.executionTimeoutMs ?? d.executionTimeoutMs,
    flashboot: flashbootModeOf(view.flashboot ?? d.flashboot),
    createdAt: view.createdAt ?? new Date(0).toISOString(),
    userId: view.userId ?? "",
    version: view.version ?? 0,
    ...own("releases", view.releases),
  };
  const derived = viewOfV2Fields(record);
  const v1: EndpointV1Fields = {};
  for (const field of V1_ONLY_FIELDS) {
    const value = view[field];
    if (value !== undefined && !isDeepStrictEqual(value, derived[field])) Object.assign(v1, { [field]: value });
  }
  return Object.keys(v1).length ? { ...record, v1 } : record;
}

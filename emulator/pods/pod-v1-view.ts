import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { argsToStartCommand, POD_DEFAULTS, startCommandToArgs } from "../../sdk/schemas";
import { PlatformCatalog } from "../platform/platform-catalog";
import {
  cpuMemoryGb,
  gpuAllocation,
  PodLogLineSchema,
  type PodRecord,
  type PodV1Fields,
  PodV1FieldsSchema,
} from "./pod-record";

/*
 * A pod record in v1's names: what v1's routes read and write (pod-routes.ts of api/v1/,
 * pod-update.ts, pod-render.ts), and what state files before version 3 kept. The two forms hold
 * the same facts: the view of a record brought back is the record, and a view brought to a record
 * and back is the view.
 */

/** Where a pod runs, in v1's names: its GPUs (or vCPUs) in one data center. */
const PlacementSchema = z.object({
  dataCenterId: z.string(),
  gpuTypeId: z.string().optional(),
  gpuCount: z.number().int().optional(),
  cpuFlavorId: z.string().optional(),
  vcpuCount: z.number().int().optional(),
});

/**
 * The record in v1's names (the pod record of state files before version 3). `vcpuCount` and
 * `memoryInGb` are the allocation, absent in those files: their pods ran on the standard machine.
 */
export const PodV1ViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(["RUNNING", "EXITED"]),
  imageName: z.string(),
  env: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
  containerDiskInGb: z.number().int(),
  volumeInGb: z.number().int(),
  volumeMountPath: z.string(),
  networkVolumeId: z.string().optional(),
  containerRegistryAuthId: z.string().optional(),
  dockerEntrypoint: z.array(z.string()),
  dockerStartCmd: z.array(z.string()),
  templateId: z.string().optional(),
  cloudType: z.enum(["SECURE", "COMMUNITY"]),
  interruptible: z.boolean(),
  locked: z.boolean(),
  globalNetworking: z.boolean(),
  cudaVersion: z.string().nullable(),
  placement: PlacementSchema,
  vcpuCount: z.number().int().optional(),
  memoryInGb: z.number().optional(),
  costPerHr: z.number(),
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  lastStatusChange: z.string(),
  containerError: z.string().optional(),
  containerDiskWipes: z.number().int(),
  clusterId: z.string().optional(),
  clusterRank: z.number().int().optional(),
  logs: z.array(PodLogLineSchema),
});
/** A pod record in v1's names. */
export type PodV1View = z.infer<typeof PodV1ViewSchema>;

/** The names of {@link PodV1FieldsSchema}. */
const V1_ONLY_FIELDS = Object.keys(PodV1FieldsSchema.shape) as (keyof PodV1Fields)[];

/**
 * v1's pod volume, mount path and network volume as v2's `mounts` (a network volume, else a pod
 * volume of more than 0 GB, else none), with what `mounts` cannot hold in `v1`: the path of a pod
 * with no mount, a volume size beside a network volume.
 */
export function mountsOfV1(
  volumeInGb: number,
  volumeMountPath: string,
  networkVolumeId: string | undefined,
): { mounts: PodRecord["mounts"]; v1: Pick<PodV1Fields, "volumeInGb" | "volumeMountPath"> } {
  const mounts: PodRecord["mounts"] =
    networkVolumeId !== undefined
      ? { network: [{ volumeId: networkVolumeId, path: volumeMountPath }] }
      : volumeInGb > 0
        ? { persistent: { size: volumeInGb, path: volumeMountPath } }
        : {};
  const derived = v1MountsOf(mounts);
  return {
    mounts,
    v1: {
      ...(volumeInGb === derived.volumeInGb ? {} : { volumeInGb }),
      ...(volumeMountPath === derived.volumeMountPath ? {} : { volumeMountPath }),
    },
  };
}

/** v1's pod volume and mount path as v2's `mounts` read (no mount: no volume, the default path). */
function v1MountsOf(mounts: PodRecord["mounts"]): { volumeInGb: number; volumeMountPath: string } {
  const path = mounts.persistent?.path ?? mounts.network?.[0]?.path;
  return { volumeInGb: mounts.persistent?.size ?? 0, volumeMountPath: path ?? POD_DEFAULTS.volumeMountPath };
}

/** The record in v1's names. */
export function v1ViewOf(r: PodRecord): PodV1View {
  const own = <K extends keyof PodV1View>(key: K, value: PodV1View[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  const mounts = v1MountsOf(r.mounts);
  const allocation = r.gpu ?? r.cpu;
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    imageName: r.image,
    env: r.env,
    ports: r.ports,
    containerDiskInGb: r.disk,
    volumeInGb: r.v1?.volumeInGb ?? mounts.volumeInGb,
    volumeMountPath: r.v1?.volumeMountPath ?? mounts.volumeMountPath,
    ...own("networkVolumeId", r.mounts.network?.[0]?.volumeId),
    ...own("containerRegistryAuthId", r.registry ?? undefined),
    dockerEntrypoint: r.v1?.dockerEntrypoint ?? [],
    dockerStartCmd: argsToStartCommand(r.args),
    ...own("templateId", r.template ?? undefined),
    cloudType: r.cloud,
    interruptible: r.v1?.interruptible ?? false,
    locked: r.locked,
    globalNetworking: r.globalNetworking.enabled,
    cudaVersion: r.cudaVersion,
    placement: r.gpu
      ? { dataCenterId: r.dataCenterId, gpuTypeId: r.gpu.id, gpuCount: r.gpu.count }
      : { dataCenterId: r.dataCenterId, cpuFlavorId: r.cpu?.id ?? "", vcpuCount: r.cpu?.vcpuCount ?? 0 },
    ...own("vcpuCount", allocation?.vcpuCount),
    ...own("memoryInGb", allocation?.memory),
    costPerHr: r.pricePerHour,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    lastStatusChange: r.lastStatusChange,
    ...own("containerError", r.containerError),
    containerDiskWipes: r.containerDiskWipes,
    ...own("clusterId", r.cluster?.id),
    ...own("clusterRank", r.cluster?.rank),
    logs: r.logs,
  };
}

/** The allocation of a view: as it says, or (state files before version 3) the standard machine's. */
function allocationOf(view: PodV1View, catalog: PlatformCatalog | undefined): { vcpuCount: number; memory: number } {
  if (view.vcpuCount !== undefined && view.memoryInGb !== undefined)
    return { vcpuCount: view.vcpuCount, memory: view.memoryInGb };
  const p = view.placement;
  if (p.gpuTypeId !== undefined) return gpuAllocation("standard", p.gpuCount ?? 1);
  const vcpuCount = p.vcpuCount ?? 0;
  return { vcpuCount, memory: cpuMemoryGb(catalog ?? new PlatformCatalog(), p.cpuFlavorId ?? "", vcpuCount) };
}

/**
 * The record a view in v1's names is (a v1 write, or a record of a state file before version 3):
 * v2's fields, and in `v1` what they cannot hold. A view without its allocation (those files)
 * reads a CPU flavor's RAM per vCPU from `catalog`, by default this release's.
 */
export function recordOfV1View(view: PodV1View, catalog?: PlatformCatalog): PodRecord {
  const own = <K extends keyof PodRecord>(key: K, value: PodRecord[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  const p = view.placement;
  const allocation = allocationOf(view, catalog);
  const { mounts } = mountsOfV1(view.volumeInGb, view.volumeMountPath, view.networkVolumeId);
  const record: PodRecord = {
    id: view.id,
    name: view.name,
    status: view.status,
    image: view.imageName,
    args: startCommandToArgs(view.dockerStartCmd),
    disk: view.containerDiskInGb,
    env: view.env,
    ports: view.ports,
    registry: view.containerRegistryAuthId ?? null,
    mounts,
    cloud: view.cloudType,
    dataCenterId: p.dataCenterId,
    ...(p.gpuTypeId !== undefined
      ? { gpu: { id: p.gpuTypeId, count: p.gpuCount ?? 1, ...allocation } }
      : { cpu: { id: p.cpuFlavorId ?? "", ...allocation } }),
    cudaVersion: view.cudaVersion,
    template: view.templateId ?? null,
    locked: view.locked,
    globalNetworking: { enabled: view.globalNetworking },
    ...own("cluster", view.clusterId === undefined ? undefined : { id: view.clusterId, rank: view.clusterRank ?? 0 }),
    createdAt: view.createdAt,
    startedAt: view.startedAt,
    pricePerHour: view.costPerHr,
    lastStatusChange: view.lastStatusChange,
    ...own("containerError", view.containerError),
    containerDiskWipes: view.containerDiskWipes,
    logs: view.logs,
  };
  const derived = v1ViewOf(record);
  const v1: PodV1Fields = {};
  for (const field of V1_ONLY_FIELDS) {
    const value = view[field];
    if (!isDeepStrictEqual(value, derived[field])) Object.assign(v1, { [field]: value });
  }
  return Object.keys(v1).length ? { ...record, v1 } : record;
}

/** Makes `pod` the record `next` (the same object, as the collection holds it), keys `next` lacks removed. */
export function replaceRecord(pod: PodRecord, next: PodRecord): void {
  for (const key of Object.keys(pod) as (keyof PodRecord)[]) if (!(key in next)) delete pod[key];
  Object.assign(pod, next);
}

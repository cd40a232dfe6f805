import { POD_DEFAULTS } from "../../sdk/schemas";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { podCost } from "./pod-lifecycle";
import type { MachineSize } from "../capacity/capacity";
import { cpuMemoryGb, gpuAllocation, type PodRecord, type PodV1Fields } from "./pod-record";

/*
 * What sets one new pod apart from another: the rest of its record is the same for every pod
 * just created. A field left out takes the platform's default as the shared schemas declare it
 * ({@link POD_DEFAULTS}), so a default is written once for the client and the emulator.
 */

/** A new pod, in the record's names (v2's). */
export interface NewPod {
  id: string;
  name: string;
  image: string;
  env: Record<string, string>;
  ports: string[];
  /** Default none (`""`). */
  args?: string | undefined;
  /** Default {@link POD_DEFAULTS}`.containerDiskInGb`. */
  disk?: number | undefined;
  mounts: PodRecord["mounts"];
  /** Default {@link POD_DEFAULTS}`.cloudType`. */
  cloud?: PodRecord["cloud"] | undefined;
  /** Default {@link POD_DEFAULTS}`.locked`. */
  locked?: boolean | undefined;
  /** Default {@link POD_DEFAULTS}`.globalNetworking`. */
  globalNetworking?: boolean | undefined;
  /** The CUDA version its host reports; null for a CPU pod. */
  cudaVersion: string | null;
  dataCenterId: string;
  /** Its GPUs (a GPU pod), in machines of size `machine` (default standard). */
  gpu?: { id: string; count: number } | undefined;
  machine?: MachineSize | undefined;
  /** Its vCPUs (a CPU pod). */
  cpu?: { id: string; vcpuCount: number } | undefined;
  registry?: string | undefined;
  /** The template it keeps a link to (v1 creates only). */
  template?: string | undefined;
  /** The cluster it is a member of, and its rank there. */
  cluster?: { id: string; rank: number } | undefined;
  /** What v1 wrote that v2's fields do not hold (pod-record.ts). */
  v1?: PodV1Fields | undefined;
}

/**
 * The record of a pod created at `now`: RUNNING on its placement since `now`, its allocation
 * from its machine (a GPU pod) or its flavor (a CPU pod), priced from the catalog
 * (`pricePerHour`), no log lines yet, its disk never wiped. Pure: reserving its units, logging
 * and metering it are the caller's, which differ between a pod and a cluster's member.
 */
export function newPodRecord(pod: NewPod, now: number, catalog: PlatformCatalog): PodRecord {
  const record: PodRecord = {
    id: pod.id,
    name: pod.name,
    status: "RUNNING",
    image: pod.image,
    args: pod.args ?? "",
    disk: pod.disk ?? POD_DEFAULTS.containerDiskInGb,
    env: pod.env,
    ports: pod.ports,
    registry: pod.registry ?? null,
    mounts: pod.mounts,
    cloud: pod.cloud ?? POD_DEFAULTS.cloudType,
    dataCenterId: pod.dataCenterId,
    cudaVersion: pod.cudaVersion,
    template: pod.template ?? null,
    locked: pod.locked ?? POD_DEFAULTS.locked,
    globalNetworking: { enabled: pod.globalNetworking ?? POD_DEFAULTS.globalNetworking },
    createdAt: now,
    startedAt: now,
    pricePerHour: 0,
    lastStatusChange: `Rented by User: ${new Date(now).toISOString()}`,
    containerDiskWipes: 0,
    logs: [],
  };
  // Optional parts only when present: a stored record has no keys holding undefined.
  if (pod.gpu) record.gpu = { ...pod.gpu, ...gpuAllocation(pod.machine ?? "standard", pod.gpu.count) };
  else if (pod.cpu) record.cpu = { ...pod.cpu, memory: cpuMemoryGb(catalog, pod.cpu.id, pod.cpu.vcpuCount) };
  if (pod.cluster !== undefined) record.cluster = pod.cluster;
  if (pod.v1 !== undefined && Object.keys(pod.v1).length) record.v1 = pod.v1;
  record.pricePerHour = podCost(catalog, record);
  return record;
}

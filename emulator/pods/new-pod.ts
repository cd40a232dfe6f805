import { POD_DEFAULTS } from "../../sdk/schemas";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { podCost } from "./pod-lifecycle";
import type { PodPlacement, PodRecord } from "./pod-record";

/**
 * What sets one new pod apart from another: the rest of its record is the same for every pod
 * just created. A field left out takes the platform's default as the shared schemas declare it
 * ({@link POD_DEFAULTS}), so a default is written once for the client and the emulator.
 */
export interface NewPod {
  id: string;
  name: string;
  imageName: string;
  env: Record<string, string>;
  ports: string[];
  /** Default {@link POD_DEFAULTS}`.containerDiskInGb`. */
  containerDiskInGb?: number | undefined;
  /** The pod's own volume; 0 for none (a network volume takes its place). */
  volumeInGb: number;
  /** Default {@link POD_DEFAULTS}`.volumeMountPath`. */
  volumeMountPath?: string | undefined;
  /** Default none. */
  dockerEntrypoint?: string[] | undefined;
  /** Default none. */
  dockerStartCmd?: string[] | undefined;
  /** Default {@link POD_DEFAULTS}`.cloudType`. */
  cloudType?: PodRecord["cloudType"] | undefined;
  /** Default {@link POD_DEFAULTS}`.interruptible`. */
  interruptible?: boolean | undefined;
  /** Default {@link POD_DEFAULTS}`.locked`. */
  locked?: boolean | undefined;
  /** Default {@link POD_DEFAULTS}`.globalNetworking`. */
  globalNetworking?: boolean | undefined;
  /** The CUDA version its host reports; null for a CPU pod. */
  cudaVersion: string | null;
  placement: PodPlacement;
  networkVolumeId?: string | undefined;
  containerRegistryAuthId?: string | undefined;
  /** The template it keeps a link to (v1 creates only). */
  templateId?: string | undefined;
  /** The cluster it is a member of, and its rank there. */
  clusterId?: string | undefined;
  clusterRank?: number | undefined;
}

/**
 * The record of a pod created at `now`: RUNNING on its placement since `now`, priced from the
 * catalog (`costPerHr`), no log lines yet, its disk never wiped. Pure: reserving its units,
 * logging and metering it are the caller's, which differ between a pod and a cluster's member.
 */
export function newPodRecord(pod: NewPod, now: number, catalog: PlatformCatalog): PodRecord {
  const record: PodRecord = {
    id: pod.id,
    name: pod.name,
    status: "RUNNING",
    imageName: pod.imageName,
    env: pod.env,
    ports: pod.ports,
    containerDiskInGb: pod.containerDiskInGb ?? POD_DEFAULTS.containerDiskInGb,
    volumeInGb: pod.volumeInGb,
    volumeMountPath: pod.volumeMountPath ?? POD_DEFAULTS.volumeMountPath,
    dockerEntrypoint: pod.dockerEntrypoint ?? [],
    dockerStartCmd: pod.dockerStartCmd ?? [],
    cloudType: pod.cloudType ?? POD_DEFAULTS.cloudType,
    interruptible: pod.interruptible ?? POD_DEFAULTS.interruptible,
    locked: pod.locked ?? POD_DEFAULTS.locked,
    globalNetworking: pod.globalNetworking ?? POD_DEFAULTS.globalNetworking,
    cudaVersion: pod.cudaVersion,
    placement: pod.placement,
    costPerHr: 0,
    createdAt: now,
    startedAt: now,
    lastStatusChange: `Rented by User: ${new Date(now).toISOString()}`,
    containerDiskWipes: 0,
    logs: [],
  };
  // Optional links only when present: a stored record has no keys holding undefined.
  if (pod.networkVolumeId !== undefined) record.networkVolumeId = pod.networkVolumeId;
  if (pod.containerRegistryAuthId !== undefined) record.containerRegistryAuthId = pod.containerRegistryAuthId;
  if (pod.templateId !== undefined) record.templateId = pod.templateId;
  if (pod.clusterId !== undefined) record.clusterId = pod.clusterId;
  if (pod.clusterRank !== undefined) record.clusterRank = pod.clusterRank;
  record.costPerHr = podCost(catalog, record);
  return record;
}

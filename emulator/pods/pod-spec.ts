import type { PlacementPriority, PodCreateBodyV1 } from "../../sdk/schemas";
import { argsToStartCommand, POD_DEFAULTS } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";

/*
 * What a pod create asks for, whichever version it came through: v1's `PodCreateInput` and v2's
 * `CreatePodRequest` both become one `PodSpec`, which pod-lifecycle.ts places and stores. `fields`
 * names each input as the request did, so an error names the field the caller sent.
 */

/** The names a request gives the inputs an error may name. */
export interface SpecFields {
  gpuTypes: string;
  gpuCount: string;
  cpuFlavors: string;
  vcpuCount: string;
  dataCenters: string;
  networkVolume: string;
  template: string;
  registry: string;
  image: string;
  cuda: string;
  minRamPerGpu: string;
  minVcpuPerGpu: string;
}

/** v1's names. */
export const V1_FIELDS: SpecFields = {
  gpuTypes: "gpuTypeIds",
  gpuCount: "gpuCount",
  cpuFlavors: "cpuFlavorIds",
  vcpuCount: "vcpuCount",
  dataCenters: "dataCenterIds",
  networkVolume: "networkVolumeId",
  template: "templateId",
  registry: "containerRegistryAuthId",
  image: "imageName",
  cuda: "allowedCudaVersions",
  minRamPerGpu: "minRAMPerGPU",
  minVcpuPerGpu: "minVCPUPerGPU",
};

/** v2's names. */
export const V2_FIELDS: SpecFields = {
  gpuTypes: "gpu.id",
  gpuCount: "gpu.count",
  cpuFlavors: "cpu.id",
  vcpuCount: "cpu.vcpuCount",
  dataCenters: "dataCenterIds",
  networkVolume: "mounts.network.0.volumeId",
  template: "templateId",
  registry: "registry",
  image: "image",
  cuda: "gpu.allowedCudaVersions",
  minRamPerGpu: "gpu.minRamPerGpu",
  minVcpuPerGpu: "gpu.minVcpuCountPerGpu",
};

/** A pod create, in one shape. Container fields may still come from the template. */
export interface PodSpec {
  name: string;
  imageName?: string | undefined;
  env?: Record<string, string> | undefined;
  ports?: string[] | undefined;
  containerDiskInGb?: number | null | undefined;
  volumeInGb?: number | null | undefined;
  volumeMountPath?: string | undefined;
  networkVolumeId?: string | undefined;
  containerRegistryAuthId?: string | undefined;
  dockerEntrypoint?: string[] | undefined;
  dockerStartCmd?: string[] | undefined;
  templateId?: string | undefined;
  /** Whether the pod keeps a link to its template (v1 does; v2 does not). */
  keepTemplate: boolean;
  computeType: "GPU" | "CPU";
  cloudType: "SECURE" | "COMMUNITY";
  interruptible: boolean;
  locked: boolean;
  globalNetworking: boolean;
  gpuTypeIds: string[];
  gpuCount: number;
  cpuFlavorIds: string[];
  vcpuCount: number;
  dataCenterIds: string[];
  countryCodes: string[];
  gpuTypePriority: PlacementPriority;
  cpuFlavorPriority: PlacementPriority;
  dataCenterPriority: PlacementPriority;
  allowedCudaVersions: string[];
  minCudaVersion?: string | undefined;
  startSsh: boolean;
  startJupyter: boolean;
  /** Placement filters: least GB of RAM and vCPUs per GPU of the machine (v1's `minRAMPerGPU` and `minVCPUPerGPU`, v2's `gpu.minRamPerGpu` and `gpu.minVcpuCountPerGpu`). */
  minRamPerGpu?: number | undefined;
  minVcpuPerGpu?: number | undefined;
  /** v1's bandwidth filters (`minDiskBandwidthMBps`, ...), by name. */
  machineFilters: Record<string, number>;
  fields: SpecFields;
}

/** A v1 create (`POST /v1/pods`) as a spec, v1's defaults applied. */
export function specFromV1(input: PodCreateBodyV1): PodSpec {
  const machineFilters: Record<string, number> = {};
  for (const name of ["minDiskBandwidthMBps", "minDownloadMbps", "minUploadMbps"] as const) {
    if (input[name] !== undefined) machineFilters[name] = input[name];
  }
  return {
    name: input.name ?? POD_DEFAULTS.name,
    imageName: input.imageName,
    env: input.env,
    ports: input.ports,
    containerDiskInGb: input.containerDiskInGb,
    volumeInGb: input.networkVolumeId !== undefined ? 0 : input.volumeInGb,
    volumeMountPath: input.volumeMountPath,
    networkVolumeId: input.networkVolumeId,
    containerRegistryAuthId: input.containerRegistryAuthId || undefined,
    dockerEntrypoint: input.dockerEntrypoint,
    dockerStartCmd: input.dockerStartCmd,
    templateId: input.templateId,
    keepTemplate: true,
    computeType: input.computeType ?? POD_DEFAULTS.computeType,
    cloudType: input.cloudType ?? POD_DEFAULTS.cloudType,
    interruptible: input.interruptible ?? false,
    locked: input.locked ?? false,
    globalNetworking: input.globalNetworking ?? false,
    gpuTypeIds: input.gpuTypeIds ?? [],
    gpuCount: input.gpuCount ?? POD_DEFAULTS.gpuCount,
    cpuFlavorIds: input.cpuFlavorIds ?? [],
    vcpuCount: input.vcpuCount ?? POD_DEFAULTS.vcpuCount,
    dataCenterIds: input.dataCenterIds ?? [],
    countryCodes: (input.countryCodes ?? []).map((c) => c.toUpperCase()),
    gpuTypePriority: input.gpuTypePriority ?? POD_DEFAULTS.gpuTypePriority,
    cpuFlavorPriority: input.cpuFlavorPriority ?? POD_DEFAULTS.cpuFlavorPriority,
    dataCenterPriority: input.dataCenterPriority ?? POD_DEFAULTS.dataCenterPriority,
    allowedCudaVersions: input.allowedCudaVersions ?? [],
    minCudaVersion: undefined,
    startSsh: false,
    startJupyter: false,
    // v1 allows 0: no filter.
    minRamPerGpu: input.minRAMPerGPU || undefined,
    minVcpuPerGpu: input.minVCPUPerGPU || undefined,
    machineFilters,
    fields: V1_FIELDS,
  };
}

/**
 * A v2 create (`POST /v2/pods`) as a spec: one named GPU type or CPU flavor (v2 does not fall
 * back), the data centers as preferences the scheduler picks among by availability, no link kept
 * to the template.
 */
export function specFromV2(body: V2.CreatePodRequest): PodSpec {
  const network = body.mounts?.network?.[0];
  const persistent = body.mounts?.persistent;
  return {
    name: body.name,
    imageName: body.image,
    env: body.env,
    ports: body.ports,
    containerDiskInGb: body.disk,
    // v2's mounts are explicit: no mount is no pod volume.
    volumeInGb: persistent?.size ?? (body.templateId !== undefined ? undefined : 0),
    volumeMountPath: persistent?.path ?? network?.path,
    networkVolumeId: network?.volumeId,
    containerRegistryAuthId: body.registry ?? undefined,
    dockerEntrypoint: [],
    dockerStartCmd: body.args !== undefined ? argsToStartCommand(body.args) : undefined,
    templateId: body.templateId,
    keepTemplate: false,
    computeType: body.cpu ? "CPU" : "GPU",
    cloudType: body.cloud ?? "SECURE",
    interruptible: false,
    locked: false,
    globalNetworking: body.globalNetworking ?? false,
    gpuTypeIds: body.gpu ? [body.gpu.id] : [],
    gpuCount: body.gpu?.count ?? 1,
    cpuFlavorIds: body.cpu ? [body.cpu.id] : [],
    vcpuCount: body.cpu?.vcpuCount ?? POD_DEFAULTS.vcpuCount,
    dataCenterIds: body.dataCenterIds ?? [],
    countryCodes: [],
    gpuTypePriority: "custom",
    cpuFlavorPriority: "custom",
    dataCenterPriority: "availability",
    allowedCudaVersions: body.gpu?.allowedCudaVersions ?? [],
    minCudaVersion: body.gpu?.minCudaVersion,
    startSsh: body.startSsh ?? false,
    startJupyter: body.startJupyter ?? false,
    minRamPerGpu: body.gpu?.minRamPerGpu,
    minVcpuPerGpu: body.gpu?.minVcpuCountPerGpu,
    machineFilters: {},
    fields: V2_FIELDS,
  };
}

/**
 * Enumerations of the management API, taken from the platform's OpenAPI description
 * (`management-api-v1.openapi.json`, version 0.1.0): a snapshot as of this release.
 *
 * GPU types, data centers, CUDA versions and CPU flavors grow on the platform between our
 * releases, so their types are open: "a value this release knows, or any string".
 * Editors still complete the known values; a `string[]` read from stack config compiles. The
 * request schemas judge only their shape (platform-values.ts); membership is the platform's call,
 * the emulator's for its snapshot, and the policy pack's where a team narrows the lists.
 * `ComputeType` and `ScalerType` stay closed: the API defines exactly those values.
 */

/**
 * "Any string" that keeps a union's literal members visible to editors: `string` alone would
 * absorb them, `string & {}` does not, and every `string` is still assignable to it.
 */
type AnyOtherString = string & {};

/** GPU types an endpoint may rent, in the OpenAPI's order (`EndpointCreateInput.gpuTypeIds` plus `GPUTypeId`). */
export const GPU_TYPE_IDS = [
  "NVIDIA GeForce RTX 4090",
  "NVIDIA A40",
  "NVIDIA RTX A5000",
  "NVIDIA GeForce RTX 5090",
  "NVIDIA H100 80GB HBM3",
  "NVIDIA GeForce RTX 3090",
  "NVIDIA RTX A4500",
  "NVIDIA L40S",
  "NVIDIA H200",
  "NVIDIA L4",
  "NVIDIA RTX 6000 Ada Generation",
  "NVIDIA A100-SXM4-80GB",
  "NVIDIA RTX 4000 Ada Generation",
  "NVIDIA RTX A6000",
  "NVIDIA A100 80GB PCIe",
  "NVIDIA RTX 2000 Ada Generation",
  "NVIDIA RTX A4000",
  "NVIDIA RTX PRO 6000 Blackwell Server Edition",
  "NVIDIA H100 PCIe",
  "NVIDIA H100 NVL",
  "NVIDIA L40",
  "NVIDIA B200",
  "NVIDIA GeForce RTX 3080 Ti",
  "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
  "NVIDIA GeForce RTX 3080",
  "NVIDIA GeForce RTX 3070",
  "AMD Instinct MI300X OAM",
  "NVIDIA GeForce RTX 4080 SUPER",
  "Tesla V100-PCIE-16GB",
  "Tesla V100-SXM2-32GB",
  "NVIDIA RTX 5000 Ada Generation",
  "NVIDIA GeForce RTX 4070 Ti",
  "NVIDIA RTX 4000 SFF Ada Generation",
  "NVIDIA GeForce RTX 3090 Ti",
  "NVIDIA RTX A2000",
  "NVIDIA GeForce RTX 4080",
  "NVIDIA A30",
  "NVIDIA GeForce RTX 5080",
  "Tesla V100-FHHL-16GB",
  "NVIDIA H200 NVL",
  "Tesla V100-SXM2-16GB",
  "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
  "NVIDIA A5000 Ada",
  "Tesla V100-PCIE-32GB",
  "NVIDIA  RTX A4500",
  "NVIDIA  A30",
  "NVIDIA GeForce RTX 3080TI",
  "Tesla T4",
  "NVIDIA RTX A30",
  "NVIDIA A100-SXM4-40GB",
] as const;
/** A GPU type id in this release's snapshot. */
export type KnownGpuTypeId = (typeof GPU_TYPE_IDS)[number];
/** A GPU type id: one this release knows (completed by editors) or a newer one the platform added. */
export type GpuTypeId = KnownGpuTypeId | AnyOtherString;

/** Data centers where serverless workers can run (`EndpointCreateInput.dataCenterIds`). */
export const DATA_CENTER_IDS = [
  "EU-RO-1",
  "CA-MTL-1",
  "EU-SE-1",
  "US-IL-1",
  "EUR-IS-1",
  "EU-CZ-1",
  "US-TX-3",
  "EUR-IS-2",
  "US-KS-2",
  "US-GA-2",
  "US-WA-1",
  "US-TX-1",
  "CA-MTL-3",
  "EU-NL-1",
  "US-TX-4",
  "US-CA-2",
  "US-NC-1",
  "OC-AU-1",
  "US-DE-1",
  "EUR-IS-3",
  "CA-MTL-2",
  "AP-JP-1",
  "EUR-NO-1",
  "EU-FR-1",
  "US-KS-3",
  "US-GA-1",
] as const;
/** A data center id in this release's snapshot. */
export type KnownDataCenterId = (typeof DATA_CENTER_IDS)[number];
/** A data center id: one this release knows (completed by editors) or a newer one the platform added. */
export type DataCenterId = KnownDataCenterId | AnyOtherString;

/** CUDA versions accepted by `allowedCudaVersions` and `minCudaVersion`. */
export const CUDA_VERSIONS = [
  "13.0",
  "12.9",
  "12.8",
  "12.7",
  "12.6",
  "12.5",
  "12.4",
  "12.3",
  "12.2",
  "12.1",
  "12.0",
  "11.8",
] as const;
/** A CUDA version in this release's snapshot. */
export type KnownCudaVersion = (typeof CUDA_VERSIONS)[number];
/** A CUDA version: one this release knows (completed by editors) or a newer one the platform added. */
export type CudaVersion = KnownCudaVersion | AnyOtherString;

/** CPU flavors of CPU endpoints (`cpuFlavorIds`). */
export const CPU_FLAVOR_IDS = ["cpu3c", "cpu3g", "cpu5c", "cpu5g"] as const;
/** A CPU flavor id in this release's snapshot. */
export type KnownCpuFlavorId = (typeof CPU_FLAVOR_IDS)[number];
/** A CPU flavor id: one this release knows (completed by editors) or a newer one the platform added. */
export type CpuFlavorId = KnownCpuFlavorId | AnyOtherString;

/**
 * CPU flavors only pods rent: the memory-optimized `cpu3m` and `cpu5m` (OpenAPI v1
 * `PodCreateInput.cpuFlavorIds`), which serverless endpoints cannot use.
 */
export const POD_ONLY_CPU_FLAVOR_IDS = ["cpu3m", "cpu5m"] as const;
/** A CPU flavor of a pod: one of the endpoints' flavors, a pod-only one, or a newer one the platform added. */
export type PodCpuFlavorId = KnownCpuFlavorId | (typeof POD_ONLY_CPU_FLAVOR_IDS)[number] | AnyOtherString;

/** Kinds of worker compute. */
export const COMPUTE_TYPES = ["GPU", "CPU"] as const;
/** `GPU` or `CPU`. */
export type ComputeType = (typeof COMPUTE_TYPES)[number];

/** Autoscaling strategies. */
export const SCALER_TYPES = ["QUEUE_DELAY", "REQUEST_COUNT"] as const;
/** `QUEUE_DELAY` or `REQUEST_COUNT`. */
export type ScalerType = (typeof SCALER_TYPES)[number];

/** Template categories (OpenAPI `TemplateCreateInput.category`): a closed set, like `ComputeType`. */
export const TEMPLATE_CATEGORIES = ["NVIDIA", "AMD", "CPU"] as const;
/** `NVIDIA`, `AMD` or `CPU`. */
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** How requests reach a serverless endpoint (v2 OpenAPI `EndpointType`): a managed queue, or the workers' own HTTP servers. */
export const ENDPOINT_TYPES = ["QUEUE", "LOAD_BALANCER"] as const;
/** `QUEUE` or `LOAD_BALANCER`. */
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

/** Flash-boot modes (v2 OpenAPI `FlashBoot`). */
export const FLASHBOOT_MODES = ["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"] as const;
/** `OFF`, `FLASHBOOT` or `PRIORITY_FLASHBOOT`. */
export type FlashBootMode = (typeof FLASHBOOT_MODES)[number];

/**
 * Serverless GPU pools as of this release (v2 `gpu.pools`; `GET /v2/catalog/gpus` lists each GPU
 * type's pool). Open, like GPU types: a pool the platform adds is usable the same day.
 */
export const GPU_POOL_IDS = [
  "AMPERE_16",
  "AMPERE_24",
  "ADA_24",
  "ADA_32_PRO",
  "AMPERE_48",
  "ADA_48_PRO",
  "AMPERE_80",
  "ADA_80_PRO",
  "HOPPER_141",
  "BLACKWELL_96",
  "BLACKWELL_180",
] as const;
/** A pool the platform has as of this release (`GPU_POOL_IDS`). */
export type KnownGpuPoolId = (typeof GPU_POOL_IDS)[number];
/** A GPU pool: a known one, or any string (pools grow). */
export type GpuPoolId = KnownGpuPoolId | AnyOtherString;

/** Network volume storage tiers as of this release (v2 `NetworkVolumeType`); open, like pools. */
export const NETWORK_VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;
/** A tier the platform has as of this release (`NETWORK_VOLUME_TYPES`). */
export type KnownNetworkVolumeType = (typeof NETWORK_VOLUME_TYPES)[number];
/** A storage tier: a known one, or any string. */
export type NetworkVolumeType = KnownNetworkVolumeType | AnyOtherString;

/**
 * Instant cluster types as of this release (v2 `ClusterType`): TRAINING (generic distributed
 * training), SLURM (a managed Slurm controller and compute nodes), RAY (a managed Ray head and
 * workers), APPLICATION (a general multi-node application). Open, like storage tiers: a type the
 * platform adds is usable the same day, and the platform judges it.
 */
export const CLUSTER_TYPES = ["TRAINING", "SLURM", "RAY", "APPLICATION"] as const;
/** A type of {@link CLUSTER_TYPES}. */
export type KnownClusterType = (typeof CLUSTER_TYPES)[number];
/** A cluster type: a known one, or any string. */
export type ClusterType = KnownClusterType | AnyOtherString;

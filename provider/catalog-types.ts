import type { CudaVersion, DataCenterId, GpuTypeId } from "../sdk/schemas/platform-enums";

/*
 * The arguments and results of the catalog functions (catalog.ts), as plain types: a program that
 * type-checks its calls never type-checks zod's declarations. catalog-functions.ts checks at
 * compile time that each result type is the one the client's schema reads from the wire.
 */

/** Availability products (OpenAPI v2 `Product`; CPU flavors know `POD` and `SERVERLESS` only). */
export type CatalogProduct = "POD" | "CLUSTER" | "SERVERLESS";

/**
 * Filters of `getGpuTypes` (`GET /v2/catalog/gpus`). Every filter but `include` applies to
 * availability, so it needs `include: ["AVAILABILITY"]` and a `product`, as the platform requires.
 */
export interface GetGpuTypesArgs {
  /** `["AVAILABILITY"]`: add each type's availability, per data center, and its CUDA versions. */
  include?: "AVAILABILITY"[];
  /** Availability for which products (required with `include`): `POD`, `CLUSTER`, `SERVERLESS`. */
  product?: CatalogProduct[];
  /** GPUs per pod or worker the availability is for (default 1). */
  count?: number;
  /** Cloud the availability is for: `SECURE` (the platform's default) or `COMMUNITY`. */
  cloud?: "SECURE" | "COMMUNITY";
  /** Only data centers in these countries (ISO 3166-1 alpha-2, upper case); types found in none drop out. */
  countryCodes?: string[];
  /** Only machines with exactly these CUDA versions (`major.minor`); not with `minCudaVersion`. */
  cudaVersions?: CudaVersion[];
  /** Only machines with at least this CUDA version (`12` or `12.4`); not with `cudaVersions`. */
  minCudaVersion?: string;
}

/** Filters of `getCpuFlavors` (`GET /v2/catalog/cpus`). */
export interface GetCpuFlavorsArgs {
  /** `["AVAILABILITY"]`: add each flavor's availability, per data center. */
  include?: "AVAILABILITY"[];
  /** Availability for which products (required with `include`): `POD`, `SERVERLESS`. */
  product?: ("POD" | "SERVERLESS")[];
  /** vCPUs the availability is for: a power of two, at least 2 (needs `include`). */
  vcpuCount?: number;
}

/** Filters of `getDataCenters` (`GET /v2/catalog/datacenters`); filters of different names combine with AND. */
export interface GetDataCentersArgs {
  /** Add per-resource availability: `GPU_AVAILABILITY`, `CPU_AVAILABILITY`. */
  include?: ("GPU_AVAILABILITY" | "CPU_AVAILABILITY")[];
  /** Only data centers in one of these regions (e.g. `EUROPE`, `NORTH_AMERICA`). */
  regions?: string[];
  /** Only data centers offering every one of these storage tiers (`STANDARD`, `HIGH_PERFORMANCE`). */
  networkVolumeTypes?: string[];
  /** Only data centers holding every one of these certifications (e.g. `GDPR`, `SOC_2_TYPE_2`). */
  compliance?: string[];
  /** Only data centers that do (true) or do not (false) support global networking. */
  globalNetwork?: boolean;
}

/** How available something is in one data center (OpenAPI v2 `DataCenterAvailability`). */
export interface CatalogAvailability {
  /** The data center's (or resource's) id. */
  id: string;
  /** Its display name. */
  name: string;
  /** `NONE`, `LOW`, `MEDIUM` or `HIGH` (open: read as the platform writes it). */
  availability: string;
}

/** A GPU type (OpenAPI v2 `GpuType`). */
export interface CatalogGpuType {
  /** The id pods, clusters and endpoints name (`gpuTypeIds`, `gpuTypeId`). */
  id: GpuTypeId;
  /** Short display name, e.g. `RTX 4090`. */
  name: string;
  /** The serverless GPU pool holding it, or null when serverless cannot rent it. */
  pool: string | null;
  /** `NVIDIA`, `AMD` or `UNKNOWN`. */
  manufacturer: string;
  /** GPU memory in GB. */
  memory: number;
  /** Offered on secure cloud. */
  secure: boolean;
  /** Offered on community cloud. */
  community: boolean;
  /** Dollars per hour of one GPU: pods per cloud, and serverless workers of its pool. */
  price: { secure: number; community: number; serverless?: number };
  /** The most GPUs of this type one pod may have, per cloud. */
  maxCount: { secure: number; community: number };
  /** Overall availability for the requested products (with `include: ["AVAILABILITY"]`). */
  availability?: string;
  /** Availability in each data center (with `include`). */
  dataCenters?: CatalogAvailability[];
  /** The CUDA versions offered, and whether each is available (with `include`). */
  cudaVersions?: { version: string; available: boolean }[];
}

/** A CPU flavor (OpenAPI v2 `CpuType`). */
export interface CatalogCpuFlavor {
  /** The id pods and endpoints name (`cpuFlavorIds`), e.g. `cpu5c`. */
  id: string;
  /** Display name, e.g. `Compute-Optimized`. */
  name: string;
  /** CPU generation group, e.g. `Gen 5`. */
  group: string;
  /** The vCPU counts an instance may have. */
  vcpu: { min: number; max: number };
  /** GB of RAM per vCPU. */
  ramGbPerVcpu: number;
  /** Dollars per hour of one vCPU: secure pods, serverless workers. */
  price: { securePerVcpu: number; serverlessPerVcpu: number };
  /** Overall availability for the requested products (with `include`). */
  availability?: string;
  /** Availability in each data center (with `include`). */
  dataCenters?: CatalogAvailability[];
}

/** A data center (OpenAPI v2 `DataCenter`). */
export interface CatalogDataCenter {
  /** The id resources name (`dataCenterIds`, `dataCenterId`), e.g. `EU-RO-1`. */
  id: DataCenterId;
  /** Display name. */
  name: string;
  /** Continental region, e.g. `EUROPE`. */
  region: string;
  /** Whether it supports global networking. */
  globalNetwork: boolean;
  /** The network volume storage tiers it offers (empty: none). */
  networkVolumeTypes: string[];
  /** Its compliance certifications. */
  compliance: string[];
  /** Availability of each GPU type it offers (with `include: ["GPU_AVAILABILITY"]`). */
  gpuAvailability?: CatalogAvailability[];
  /** Availability of each CPU flavor it offers (with `include: ["CPU_AVAILABILITY"]`). */
  cpuAvailability?: CatalogAvailability[];
}

/** The result of `getGpuTypes`. */
export interface GetGpuTypesResult {
  /** The GPU types the platform lists, with the filters applied. */
  gpuTypes: CatalogGpuType[];
}

/** The result of `getCpuFlavors`. */
export interface GetCpuFlavorsResult {
  /** The CPU flavors the platform lists. */
  cpuFlavors: CatalogCpuFlavor[];
}

/** The result of `getDataCenters`. */
export interface GetDataCentersResult {
  /** The data centers the platform lists, with the filters applied. */
  dataCenters: CatalogDataCenter[];
}

/** Each catalog function's arguments and result, by name: the names the provider plugin serves them under. */
export interface CatalogFunctions {
  /** `GET /v2/catalog/gpus`. */
  getGpuTypes: { args: GetGpuTypesArgs; result: GetGpuTypesResult };
  /** `GET /v2/catalog/cpus`. */
  getCpuFlavors: { args: GetCpuFlavorsArgs; result: GetCpuFlavorsResult };
  /** `GET /v2/catalog/datacenters`. */
  getDataCenters: { args: GetDataCentersArgs; result: GetDataCentersResult };
}

/** The name of a catalog function. */
export type CatalogFunctionName = keyof CatalogFunctions;

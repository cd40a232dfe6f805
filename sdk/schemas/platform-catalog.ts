import type { KnownGpuPoolId, KnownGpuTypeId } from "./platform-enums";

/**
 * This release's snapshot of the platform's GPU catalog (what `GET /v2/catalog/gpus` answers
 * without availability): for each GPU type its serverless pool, memory, prices and the most GPUs
 * one pod may have. One table, read by the emulator (its catalog, pod prices, billing), by the
 * resources (which pool holds a GPU type, at preview, without a request) and by the policy pack
 * (default prices). The live catalog is the authority: a type or pool the platform adds after
 * this release is read from it, never refused for being absent here.
 *
 * Prices are US dollars per GPU-hour: pods on secure and community cloud, and serverless workers
 * (flex price). Types with no `pool` cannot serve serverless endpoints. No zod here: the resource
 * classes load this module.
 */
export interface GpuCatalogEntry {
  /** The GPU type id (`gpuTypeIds`, pods' `gpu.id`). */
  id: KnownGpuTypeId;
  /** Short display name. */
  name: string;
  /** The serverless GPU pool holding this type (v2 `gpu.pools`), or null when serverless cannot rent it. */
  pool: string | null;
  /** Manufacturer (OpenAPI `GpuManufacturer`). */
  manufacturer: "NVIDIA" | "AMD";
  /** GPU memory in GB. */
  memory: number;
  /** Dollars per GPU-hour. */
  price: { secure: number; community: number; serverless?: number };
  /** The most GPUs of this type one pod may have, per cloud. */
  maxCount: { secure: number; community: number };
}

type Row = [
  id: KnownGpuTypeId,
  name: string,
  // A pool of this release's list (platform-enums.ts), so the two cannot disagree.
  pool: KnownGpuPoolId | null,
  memory: number,
  secure: number,
  community: number,
  serverless: number | undefined,
];

// id, display name, serverless pool, memory GB, $/h secure, $/h community, $/h serverless.
const ROWS: readonly Row[] = [
  ["NVIDIA RTX A4000", "RTX A4000", "AMPERE_16", 16, 0.25, 0.17, 0.58],
  ["NVIDIA RTX A4500", "RTX A4500", "AMPERE_16", 20, 0.34, 0.19, 0.58],
  ["NVIDIA RTX 4000 Ada Generation", "RTX 4000 Ada", "AMPERE_16", 20, 0.26, 0.2, 0.58],
  ["NVIDIA RTX 2000 Ada Generation", "RTX 2000 Ada", "AMPERE_16", 16, 0.24, 0.14, 0.58],
  ["NVIDIA L4", "L4", "AMPERE_24", 24, 0.43, 0.28, 0.68],
  ["NVIDIA RTX A5000", "RTX A5000", "AMPERE_24", 24, 0.27, 0.16, 0.68],
  ["NVIDIA GeForce RTX 3090", "RTX 3090", "AMPERE_24", 24, 0.46, 0.22, 0.68],
  ["NVIDIA GeForce RTX 4090", "RTX 4090", "ADA_24", 24, 0.44, 0.31, 1.1],
  ["NVIDIA GeForce RTX 5090", "RTX 5090", "ADA_32_PRO", 32, 0.94, 0.69, 1.58],
  ["NVIDIA A40", "A40", "AMPERE_48", 48, 0.4, 0.35, 1.22],
  ["NVIDIA RTX A6000", "RTX A6000", "AMPERE_48", 48, 0.49, 0.33, 1.22],
  ["NVIDIA L40", "L40", "ADA_48_PRO", 48, 0.99, 0.69, 1.91],
  ["NVIDIA L40S", "L40S", "ADA_48_PRO", 48, 0.86, 0.79, 1.91],
  ["NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada", "ADA_48_PRO", 48, 0.77, 0.74, 1.91],
  ["NVIDIA A100 80GB PCIe", "A100 PCIe", "AMPERE_80", 80, 1.64, 1.19, 2.72],
  ["NVIDIA A100-SXM4-80GB", "A100 SXM", "AMPERE_80", 80, 1.74, 1.39, 2.72],
  ["NVIDIA H100 PCIe", "H100 PCIe", "ADA_80_PRO", 80, 2.39, 1.99, 4.18],
  ["NVIDIA H100 80GB HBM3", "H100 SXM", "ADA_80_PRO", 80, 2.69, 2.39, 4.18],
  ["NVIDIA H100 NVL", "H100 NVL", "ADA_80_PRO", 94, 2.79, 2.59, 4.18],
  ["NVIDIA H200", "H200 SXM", "HOPPER_141", 141, 3.59, 3.59, 5.58],
  ["NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000", "BLACKWELL_96", 96, 1.84, 1.69, 4.0],
  ["NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000 WK", "BLACKWELL_96", 96, 1.84, 1.69, 4.0],
  ["NVIDIA B200", "B200", "BLACKWELL_180", 180, 5.99, 5.98, 8.64],
  ["NVIDIA GeForce RTX 3080 Ti", "RTX 3080 Ti", null, 12, 0.27, 0.18, undefined],
  ["NVIDIA GeForce RTX 3080", "RTX 3080", null, 10, 0.25, 0.17, undefined],
  ["NVIDIA GeForce RTX 3070", "RTX 3070", null, 8, 0.2, 0.13, undefined],
  ["AMD Instinct MI300X OAM", "MI300X", null, 192, 2.49, 2.49, undefined],
  ["NVIDIA GeForce RTX 4080 SUPER", "RTX 4080 SUPER", null, 16, 0.38, 0.28, undefined],
  ["NVIDIA GeForce RTX 4080", "RTX 4080", null, 16, 0.36, 0.27, undefined],
  ["NVIDIA GeForce RTX 4070 Ti", "RTX 4070 Ti", null, 12, 0.3, 0.2, undefined],
  ["NVIDIA GeForce RTX 5080", "RTX 5080", null, 16, 0.5, 0.38, undefined],
  ["NVIDIA GeForce RTX 3090 Ti", "RTX 3090 Ti", null, 24, 0.5, 0.27, undefined],
  ["NVIDIA RTX 5000 Ada Generation", "RTX 5000 Ada", null, 32, 0.77, 0.63, undefined],
  ["NVIDIA RTX 4000 SFF Ada Generation", "RTX 4000 Ada SFF", null, 20, 0.3, 0.21, undefined],
  ["NVIDIA RTX A2000", "RTX A2000", null, 6, 0.2, 0.12, undefined],
  ["NVIDIA A30", "A30", null, 24, 0.4, 0.32, undefined],
  ["NVIDIA H200 NVL", "H200 NVL", null, 143, 3.39, 3.39, undefined],
  ["NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "RTX PRO 6000 Max-Q", null, 96, 1.79, 1.64, undefined],
  ["NVIDIA A5000 Ada", "A5000 Ada", null, 32, 0.7, 0.6, undefined],
  ["NVIDIA A100-SXM4-40GB", "A100 SXM 40GB", null, 40, 1.39, 1.19, undefined],
  ["Tesla V100-PCIE-16GB", "V100 PCIe 16GB", null, 16, 0.3, 0.19, undefined],
  ["Tesla V100-SXM2-32GB", "V100 SXM2 32GB", null, 32, 0.4, 0.29, undefined],
  ["Tesla V100-SXM2-16GB", "V100 SXM2 16GB", null, 16, 0.33, 0.23, undefined],
  ["Tesla V100-FHHL-16GB", "V100 FHHL", null, 16, 0.3, 0.19, undefined],
  ["Tesla V100-PCIE-32GB", "V100 PCIe 32GB", null, 32, 0.38, 0.27, undefined],
  ["Tesla T4", "T4", null, 16, 0.2, 0.12, undefined],
];

/**
 * The snapshot: one entry per GPU type of `GPU_TYPE_IDS`, except the OpenAPI enum's legacy
 * spellings of another type (`"NVIDIA  RTX A4500"`, `"NVIDIA GeForce RTX 3080TI"`, ...).
 */
export const GPU_CATALOG: readonly GpuCatalogEntry[] = ROWS.map(
  ([id, name, pool, memory, secure, community, serverless]) => ({
    id,
    name,
    pool,
    manufacturer: id.startsWith("AMD") ? "AMD" : "NVIDIA",
    memory,
    price: serverless === undefined ? { secure, community } : { secure, community, serverless },
    maxCount: { secure: 8, community: 8 },
  }),
);

const byId = new Map<string, GpuCatalogEntry>(GPU_CATALOG.map((e) => [e.id, e]));

/** The snapshot's entry of a GPU type, or undefined for a type this release does not know. */
export function gpuCatalogEntry(id: string): GpuCatalogEntry | undefined {
  return byId.get(id);
}

/** The serverless pools of the snapshot, each with its GPU types in catalog order. */
export function serverlessPools(
  catalog: readonly Pick<GpuCatalogEntry, "id" | "pool">[] = GPU_CATALOG,
): Map<string, string[]> {
  const pools = new Map<string, string[]>();
  for (const { id, pool } of catalog) {
    if (pool === null) continue;
    const types = pools.get(pool);
    if (types) types.push(id);
    else pools.set(pool, [id]);
  }
  return pools;
}

/** Share of the on-demand price an interruptible (spot) pod pays. */
export const INTERRUPTIBLE_PRICE_FACTOR = 0.5;

/** Dollars per GB-month of network volume storage, per tier (an unknown tier bills as STANDARD). */
export const VOLUME_PRICE_PER_GB_MONTH: Readonly<Record<string, number>> = { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 };

/** Hours in a billing month. */
export const HOURS_PER_MONTH = 730;

/** A CPU flavor of the catalog (v2 `CpuType`, without availability). */
export interface CpuCatalogEntry {
  /** The flavor id (`cpuFlavorIds`, pods' `cpu.id`). */
  id: string;
  /** Display name. */
  name: string;
  /** Flavor group: compute, general purpose or memory optimized. */
  group: string;
  /** vCPUs one pod or worker may have. */
  vcpu: { min: number; max: number };
  /** GB of RAM per vCPU. */
  ramGbPerVcpu: number;
  /** Dollars per vCPU-hour, for pods (secure cloud) and serverless workers. */
  price: { securePerVcpu: number; serverlessPerVcpu: number };
}

/** This release's snapshot of the CPU flavors (v1's pod enum, which adds the memory-optimized `cpu3m` and `cpu5m`). */
export const CPU_CATALOG: readonly CpuCatalogEntry[] = [
  { id: "cpu3c", name: "Compute-Optimized (3rd gen)", group: "COMPUTE_OPTIMIZED", ram: 2, price: 0.03 },
  { id: "cpu3g", name: "General Purpose (3rd gen)", group: "GENERAL_PURPOSE", ram: 4, price: 0.04 },
  { id: "cpu3m", name: "Memory-Optimized (3rd gen)", group: "MEMORY_OPTIMIZED", ram: 8, price: 0.05 },
  { id: "cpu5c", name: "Compute-Optimized (5th gen)", group: "COMPUTE_OPTIMIZED", ram: 2, price: 0.04 },
  { id: "cpu5g", name: "General Purpose (5th gen)", group: "GENERAL_PURPOSE", ram: 4, price: 0.05 },
  { id: "cpu5m", name: "Memory-Optimized (5th gen)", group: "MEMORY_OPTIMIZED", ram: 8, price: 0.06 },
].map(({ id, name, group, ram, price }) => ({
  id,
  name,
  group,
  vcpu: { min: 2, max: 32 },
  ramGbPerVcpu: ram,
  price: { securePerVcpu: price, serverlessPerVcpu: price * 1.5 },
}));

/** A data center of the catalog (v2 `DataCenter`, without availability). */
export interface DataCenterCatalogEntry {
  /** The data center id (`dataCenterIds`, a volume's `dataCenterId`). */
  id: string;
  /** Display name. */
  name: string;
  /** Continental region (OpenAPI v2 `DataCenterRegion`). */
  region: string;
  /** ISO 3166-1 alpha-2 country code (the `countryCodes` filters). */
  countryCode: string;
  /** Whether pods there can join the global network. */
  globalNetwork: boolean;
  /** Storage tiers of network volumes there, the primary (default) tier first. */
  networkVolumeTypes: readonly string[];
  /** Compliance certifications. */
  compliance: readonly string[];
}

type DcRow = [id: string, name: string, region: string, country: string, global: boolean, highPerformance: boolean];
const NA = "NORTH_AMERICA";
const EU = "EUROPE";
const DC_ROWS: readonly DcRow[] = [
  ["EU-RO-1", "Europe Romania 1", EU, "RO", true, true],
  ["CA-MTL-1", "Canada Montreal 1", NA, "CA", true, false],
  ["EU-SE-1", "Europe Sweden 1", EU, "SE", false, false],
  ["US-IL-1", "US Illinois 1", NA, "US", false, false],
  ["EUR-IS-1", "Europe Iceland 1", EU, "IS", false, false],
  ["EU-CZ-1", "Europe Czechia 1", EU, "CZ", false, false],
  ["US-TX-3", "US Texas 3", NA, "US", true, true],
  ["EUR-IS-2", "Europe Iceland 2", EU, "IS", false, false],
  ["US-KS-2", "US Kansas 2", NA, "US", true, true],
  ["US-GA-2", "US Georgia 2", NA, "US", false, false],
  ["US-WA-1", "US Washington 1", NA, "US", false, false],
  ["US-TX-1", "US Texas 1", NA, "US", false, false],
  ["CA-MTL-3", "Canada Montreal 3", NA, "CA", true, false],
  ["EU-NL-1", "Europe Netherlands 1", EU, "NL", true, false],
  ["US-TX-4", "US Texas 4", NA, "US", false, false],
  ["US-CA-2", "US California 2", NA, "US", true, true],
  ["US-NC-1", "US North Carolina 1", NA, "US", false, false],
  ["OC-AU-1", "Oceania Australia 1", "OCEANIA", "AU", false, false],
  ["US-DE-1", "US Delaware 1", NA, "US", false, false],
  ["EUR-IS-3", "Europe Iceland 3", EU, "IS", false, false],
  ["CA-MTL-2", "Canada Montreal 2", NA, "CA", false, false],
  ["AP-JP-1", "Asia Japan 1", "ASIA", "JP", false, false],
  ["EUR-NO-1", "Europe Norway 1", EU, "NO", false, false],
  ["EU-FR-1", "Europe France 1", EU, "FR", false, false],
  ["US-KS-3", "US Kansas 3", NA, "US", false, false],
  ["US-GA-1", "US Georgia 1", NA, "US", false, false],
];

/** This release's snapshot of the data centers of `DATA_CENTER_IDS`, in that order. */
export const DATA_CENTER_CATALOG: readonly DataCenterCatalogEntry[] = DC_ROWS.map(
  ([id, name, region, countryCode, globalNetwork, highPerformance]) => ({
    id,
    name,
    region,
    countryCode,
    globalNetwork,
    networkVolumeTypes: highPerformance ? ["STANDARD", "HIGH_PERFORMANCE"] : ["STANDARD"],
    compliance: region === EU ? ["GDPR", "ISO_IEC_27001", "SOC_2_TYPE_2"] : ["ISO_IEC_27001", "SOC_2_TYPE_2"],
  }),
);

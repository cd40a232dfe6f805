import {
  type AdditionalPlatformValues,
  CPU_CATALOG,
  type CpuCatalogEntry,
  DATA_CENTER_CATALOG,
  type DataCenterCatalogEntry,
  GPU_CATALOG,
  type GpuCatalogEntry,
  KNOWN_PLATFORM_VALUES,
  PLATFORM_VALUE_KINDS,
  type PlatformValueKind,
  suggestionText,
  unknownPlatformValues,
} from "../../sdk/schemas";
import { badRequest } from "../errors/http-errors";

/**
 * What the emulated platform sells: this release's snapshot of GPU types, data centers, CUDA
 * versions and CPU flavors (sdk/schemas/platform-enums.ts) plus the values a test or a user added
 * (`additionalGpuTypeIds` and the like, `--add-gpu-type` and the like), so a GPU type the real
 * platform added after this release can be deployed against the emulator too. The shared request
 * schemas judge only shape; membership is judged here, as the platform does.
 */
/** A GPU type of the emulated catalog: the snapshot's, or one added by an option (id open). */
export type CatalogGpuType = Omit<GpuCatalogEntry, "id"> & { id: string };

/** A GPU type, CPU flavor or data center added by an option, described as well as the emulator can. */
const ADDED_GPU_TYPE = {
  manufacturer: "NVIDIA",
  memory: 80,
  price: { secure: 2.99, community: 2.49, serverless: 4.5 },
  maxCount: { secure: 8, community: 8 },
} as const;

export class PlatformCatalog {
  private readonly additional: AdditionalPlatformValues;
  /** GPU types (snapshot, then additions) by id. */
  private readonly gpus = new Map<string, CatalogGpuType>();
  /** CPU flavors (snapshot, then additions) by id. */
  private readonly cpus = new Map<string, CpuCatalogEntry>();
  /** Data centers (snapshot, then additions) by id. */
  private readonly dataCenterEntries = new Map<string, DataCenterCatalogEntry>();

  /**
   * @param additional - values added to the snapshot, per kind
   * @param gpuPools - the serverless pool of GPU types, by id: for added types (which otherwise
   *   serverless cannot rent), or to move a snapshot type to another pool
   */
  constructor(additional: AdditionalPlatformValues = {}, gpuPools: Readonly<Record<string, string>> = {}) {
    this.additional = Object.fromEntries(
      PLATFORM_VALUE_KINDS.map((kind) => [kind, [...new Set(additional[kind] ?? [])]]),
    );
    for (const entry of GPU_CATALOG) this.gpus.set(entry.id, entry);
    for (const id of this.additional.gpuType ?? []) {
      if (!this.gpus.has(id))
        this.gpus.set(id, { id, name: id.replace(/^NVIDIA\s+/, ""), pool: null, ...ADDED_GPU_TYPE });
    }
    for (const [id, pool] of Object.entries(gpuPools)) {
      const entry = this.gpus.get(id);
      if (entry) this.gpus.set(id, { ...entry, pool });
    }
    for (const entry of CPU_CATALOG) this.cpus.set(entry.id, entry);
    for (const id of this.additional.cpuFlavor ?? []) {
      if (!this.cpus.has(id)) {
        const price = { securePerVcpu: 0.05, serverlessPerVcpu: 0.075 };
        this.cpus.set(id, {
          id,
          name: id,
          group: "GENERAL_PURPOSE",
          vcpu: { min: 2, max: 32 },
          ramGbPerVcpu: 4,
          price,
        });
      }
    }
    for (const entry of DATA_CENTER_CATALOG) this.dataCenterEntries.set(entry.id, entry);
    for (const id of this.additional.dataCenter ?? []) {
      if (!this.dataCenterEntries.has(id)) {
        this.dataCenterEntries.set(id, {
          id,
          name: id,
          region: "UNKNOWN",
          countryCode: "",
          globalNetwork: false,
          networkVolumeTypes: ["STANDARD"],
          compliance: [],
        });
      }
    }
  }

  /** Every GPU type the emulated platform sells, snapshot first. */
  gpuTypes(): CatalogGpuType[] {
    return [...this.gpus.values()];
  }

  /** A GPU type, or undefined. */
  gpuType(id: string): CatalogGpuType | undefined {
    return this.gpus.get(id);
  }

  /** Every CPU flavor, snapshot first. */
  cpuFlavors(): CpuCatalogEntry[] {
    return [...this.cpus.values()];
  }

  /** A CPU flavor, or undefined. */
  cpuFlavor(id: string): CpuCatalogEntry | undefined {
    return this.cpus.get(id);
  }

  /** Every data center, snapshot first. */
  dataCenters(): DataCenterCatalogEntry[] {
    return [...this.dataCenterEntries.values()];
  }

  /** A data center, or undefined. */
  dataCenter(id: string): DataCenterCatalogEntry | undefined {
    return this.dataCenterEntries.get(id);
  }

  /** Every value of `kind` the emulated platform knows: the snapshot, then the additions. */
  values(kind: PlatformValueKind): string[] {
    return [...new Set([...KNOWN_PLATFORM_VALUES[kind], ...(this.additional[kind] ?? [])])];
  }

  /**
   * Refuses (400, naming each field, value and rule) an input holding a value the emulated
   * platform does not know. `fields` maps input fields to kinds (`PLATFORM_VALUE_FIELDS.*`).
   */
  assertKnown(fields: Readonly<Record<string, PlatformValueKind>>, input: Readonly<Record<string, unknown>>): void {
    const unknown = unknownPlatformValues(fields, input, this.additional);
    if (unknown.length === 0) return;
    throw badRequest(
      unknown.map(({ field, value, rule, suggestions }) => ({
        field,
        value,
        rule: `${rule}${suggestionText(suggestions)}`,
      })),
    );
  }
}

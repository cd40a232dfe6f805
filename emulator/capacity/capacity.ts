/**
 * The emulated platform's machines, as counts (capacity is finite, as on the platform): each data center
 * holds a stock of GPUs of each GPU type and of vCPUs of each CPU flavor, shared by every account,
 * as the platform's machines are. What runs on it (pods, serverless workers) reserves from the
 * stock and gives it back when it stops; the catalog's availability levels are read from what is
 * free. Not persisted: whoever reserves recomputes its reservations when the state file loads.
 *
 * A data center's GPUs of one type sit in machines of two sizes ({@link MACHINE_SIZES}), which
 * differ in what a pod gets per GPU: most in standard machines, a share in large ones. A pod's
 * GPUs are all in machines of one size.
 */

/** The sizes of machine a GPU sits in, by what a pod on it gets per GPU: vCPUs and GB of RAM. */
export const MACHINE_SIZES = {
  standard: { vcpusPerGpu: 8, ramGbPerGpu: 62 },
  large: { vcpusPerGpu: 16, ramGbPerGpu: 125 },
} as const;
/** A size of machine. */
export type MachineSize = keyof typeof MACHINE_SIZES;
/** The sizes, smallest first: the order a pod is placed in. */
export const MACHINE_SIZE_ORDER: readonly MachineSize[] = ["standard", "large"];

/** Stock settings (`capacity` option of `startEmulator`). */
export interface CapacitySettings {
  /** GPUs of each type in each data center. Default 16. */
  gpusPerType: number;
  /** vCPUs of each CPU flavor in each data center. Default 512. */
  vcpusPerFlavor: number;
  /** Stock of particular places: `{ "EU-RO-1": { "NVIDIA L4": 2 } }` (GPU types or CPU flavors). */
  stock: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /**
   * Of each data center's GPUs of a type, the share in large machines (rounded down: none of 3
   * at 0.25), 0 to 1. Default 0.25.
   */
  largeMachineShare?: number | undefined;
}

/** Default stock: enough that tests which do not care never run out. */
export const DEFAULT_CAPACITY: CapacitySettings = {
  gpusPerType: 16,
  vcpusPerFlavor: 512,
  stock: {},
  largeMachineShare: 0.25,
};

/** An availability level (OpenAPI v2 `AvailabilityLevel`). */
export type AvailabilityLevel = "NONE" | "LOW" | "MEDIUM" | "HIGH";

/**
 * The level of `free` units out of `total` for a request of `wanted` units: NONE when it cannot
 * be placed, LOW under a quarter free, MEDIUM under 60%, HIGH otherwise.
 */
export function availabilityLevel(free: number, total: number, wanted = 1): AvailabilityLevel {
  if (free < wanted || total <= 0) return "NONE";
  const share = free / total;
  return share < 0.25 ? "LOW" : share < 0.6 ? "MEDIUM" : "HIGH";
}

/** The most available of several levels (a GPU type's level over its data centers). */
export function bestLevel(levels: Iterable<AvailabilityLevel>): AvailabilityLevel {
  const order: AvailabilityLevel[] = ["NONE", "LOW", "MEDIUM", "HIGH"];
  let best = 0;
  for (const level of levels) best = Math.max(best, order.indexOf(level));
  return order[best]!;
}

/** Units in use, by `dataCenter\u0000resource`. */
type Usage = Map<string, number>;

/**
 * The stock and what of it is in use. GPUs are counted in all and, apart, those in large
 * machines: a size-less call (a vCPU, or a GPU of a standard machine) leaves the large count alone.
 */
export class Capacity {
  private readonly used: Usage = new Map();
  /** GPUs in use in large machines (also counted in {@link used}). */
  private readonly usedLarge: Usage = new Map();

  constructor(readonly settings: CapacitySettings = DEFAULT_CAPACITY) {}

  /** GPUs of `gpuTypeId` in `dataCenterId`: all of them, or those in machines of one size. */
  gpuTotal(dataCenterId: string, gpuTypeId: string, size?: MachineSize): number {
    const total = this.settings.stock[dataCenterId]?.[gpuTypeId] ?? this.settings.gpusPerType;
    if (size === undefined) return total;
    const share = this.settings.largeMachineShare ?? DEFAULT_CAPACITY.largeMachineShare ?? 0;
    const large = Math.floor(total * Math.min(1, Math.max(0, share)));
    return size === "large" ? large : total - large;
  }

  /** vCPUs of `flavorId` in `dataCenterId`. */
  vcpuTotal(dataCenterId: string, flavorId: string): number {
    return this.settings.stock[dataCenterId]?.[flavorId] ?? this.settings.vcpusPerFlavor;
  }

  /**
   * Units of `resource` (a GPU type or CPU flavor) free in `dataCenterId`: all that are, or (GPUs)
   * those in machines of one size.
   */
  free(dataCenterId: string, resource: string, kind: "gpu" | "cpu", size?: MachineSize): number {
    const k = key(dataCenterId, resource);
    const used = this.used.get(k) ?? 0;
    if (kind === "cpu") return this.vcpuTotal(dataCenterId, resource) - used;
    if (size === undefined) return this.gpuTotal(dataCenterId, resource) - used;
    const large = this.usedLarge.get(k) ?? 0;
    return this.gpuTotal(dataCenterId, resource, size) - (size === "large" ? large : used - large);
  }

  /**
   * Takes `count` units (GPUs: in machines of `size`, default standard) when that many are free;
   * false (and nothing taken) otherwise.
   */
  reserve(dataCenterId: string, resource: string, kind: "gpu" | "cpu", count: number, size?: MachineSize): boolean {
    const machine = kind === "gpu" ? (size ?? "standard") : undefined;
    if (this.free(dataCenterId, resource, kind, machine) < count) return false;
    this.take(dataCenterId, resource, count, machine);
    return true;
  }

  /**
   * Takes `count` units whether or not they are free: what already runs (a pod loaded from the
   * state file) holds its machine even when the stock was set lower since. `size`: GPUs' machines
   * (default standard).
   */
  take(dataCenterId: string, resource: string, count: number, size?: MachineSize): void {
    add(this.used, key(dataCenterId, resource), count);
    if (size === "large") add(this.usedLarge, key(dataCenterId, resource), count);
  }

  /** Gives back `count` units (never below none in use). `size`: GPUs' machines (default standard). */
  release(dataCenterId: string, resource: string, count: number, size?: MachineSize): void {
    add(this.used, key(dataCenterId, resource), -count);
    if (size === "large") add(this.usedLarge, key(dataCenterId, resource), -count);
  }

  /** The availability level of `resource` in `dataCenterId` for a request of `wanted` units. */
  level(dataCenterId: string, resource: string, kind: "gpu" | "cpu", wanted = 1): AvailabilityLevel {
    const total = kind === "gpu" ? this.gpuTotal(dataCenterId, resource) : this.vcpuTotal(dataCenterId, resource);
    return availabilityLevel(this.free(dataCenterId, resource, kind), total, wanted);
  }
}

function key(dataCenterId: string, resource: string): string {
  return `${dataCenterId}\u0000${resource}`;
}

/** Adds `count` (never leaving less than none). */
function add(usage: Usage, k: string, count: number): void {
  const left = (usage.get(k) ?? 0) + count;
  if (left > 0) usage.set(k, left);
  else usage.delete(k);
}

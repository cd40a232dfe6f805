/**
 * The emulated platform's machines, as counts (capacity is finite, as on the platform): each data center
 * holds a stock of GPUs of each GPU type and of vCPUs of each CPU flavor, shared by every account,
 * as the platform's machines are. What runs on it (pods, serverless workers) reserves from the
 * stock and gives it back when it stops; the catalog's availability levels are read from what is
 * free. Not persisted: whoever reserves recomputes its reservations when the state file loads.
 */

/** Stock settings (`capacity` option of `startEmulator`). */
export interface CapacitySettings {
  /** GPUs of each type in each data center. Default 16. */
  gpusPerType: number;
  /** vCPUs of each CPU flavor in each data center. Default 512. */
  vcpusPerFlavor: number;
  /** Stock of particular places: `{ "EU-RO-1": { "NVIDIA L4": 2 } }` (GPU types or CPU flavors). */
  stock: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** Default stock: enough that tests which do not care never run out. */
export const DEFAULT_CAPACITY: CapacitySettings = { gpusPerType: 16, vcpusPerFlavor: 512, stock: {} };

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

/** The stock and what of it is in use. */
export class Capacity {
  private readonly used: Usage = new Map();

  constructor(readonly settings: CapacitySettings = DEFAULT_CAPACITY) {}

  /** GPUs of `gpuTypeId` in `dataCenterId`. */
  gpuTotal(dataCenterId: string, gpuTypeId: string): number {
    return this.settings.stock[dataCenterId]?.[gpuTypeId] ?? this.settings.gpusPerType;
  }

  /** vCPUs of `flavorId` in `dataCenterId`. */
  vcpuTotal(dataCenterId: string, flavorId: string): number {
    return this.settings.stock[dataCenterId]?.[flavorId] ?? this.settings.vcpusPerFlavor;
  }

  /** Units of `resource` (a GPU type or CPU flavor) free in `dataCenterId`. */
  free(dataCenterId: string, resource: string, kind: "gpu" | "cpu"): number {
    const total = kind === "gpu" ? this.gpuTotal(dataCenterId, resource) : this.vcpuTotal(dataCenterId, resource);
    return total - (this.used.get(key(dataCenterId, resource)) ?? 0);
  }

  /** Takes `count` units when that many are free; false (and nothing taken) otherwise. */
  reserve(dataCenterId: string, resource: string, kind: "gpu" | "cpu", count: number): boolean {
    if (this.free(dataCenterId, resource, kind) < count) return false;
    const k = key(dataCenterId, resource);
    this.used.set(k, (this.used.get(k) ?? 0) + count);
    return true;
  }

  /**
   * Takes `count` units whether or not they are free: what already runs (a pod loaded from the
   * state file) holds its machine even when the stock was set lower since.
   */
  take(dataCenterId: string, resource: string, count: number): void {
    const k = key(dataCenterId, resource);
    this.used.set(k, (this.used.get(k) ?? 0) + count);
  }

  /** Gives back `count` units (never below none in use). */
  release(dataCenterId: string, resource: string, count: number): void {
    const k = key(dataCenterId, resource);
    const left = (this.used.get(k) ?? 0) - count;
    if (left > 0) this.used.set(k, left);
    else this.used.delete(k);
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

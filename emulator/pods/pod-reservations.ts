import type { Capacity, MachineSize } from "../capacity/capacity";
import { machineOf, type PodRecord } from "./pod-record";

/** Where a pod runs: its GPUs (in machines of the size its allocation names) or vCPUs, in one data center. */
export type PodPlacement = Pick<PodRecord, "dataCenterId" | "gpu" | "cpu">;

/** What a placement holds of the stock: a resource (GPU type or CPU flavor), its kind, how many, and (GPUs) the machines' size. */
interface Held {
  dataCenterId: string;
  resource: string;
  kind: "gpu" | "cpu";
  count: number;
  size?: MachineSize;
}

/** What a placement takes of the stock. */
export function heldBy(placement: PodPlacement): Held {
  const { dataCenterId, gpu, cpu } = placement;
  return gpu
    ? { dataCenterId, resource: gpu.id, kind: "gpu", count: gpu.count, size: machineOf(gpu) }
    : { dataCenterId, resource: cpu?.id ?? "", kind: "cpu", count: cpu?.vcpuCount ?? 0 };
}

function same(a: Held | undefined, b: Held | undefined): boolean {
  return (
    a?.dataCenterId === b?.dataCenterId && a?.resource === b?.resource && a?.count === b?.count && a?.size === b?.size
  );
}

/**
 * The stock one account's running pods hold (a stopped pod's GPUs go back to the
 * stock). A start or a create reserves first (`tryReserve`: it fails when the units are not
 * free); every write of a pod then `sync`s, which releases what a stopped or deleted pod held and,
 * for a running pod loaded from the state file, takes its units again: reservations are
 * recomputed from the running pods when the file loads.
 */
export class PodReservations {
  private readonly held = new Map<string, Held>();

  constructor(private readonly capacity: Capacity) {}

  /** Reserves a placement for a pod about to run; false (nothing taken) when the units are not free. */
  tryReserve(podId: string, placement: PodPlacement): boolean {
    const wanted = heldBy(placement);
    if (same(this.held.get(podId), wanted)) return true;
    if (!this.capacity.reserve(wanted.dataCenterId, wanted.resource, wanted.kind, wanted.count, wanted.size))
      return false;
    this.release(podId);
    this.held.set(podId, wanted);
    return true;
  }

  /** Makes the stock held match a pod's record: a running pod holds its placement, any other none. */
  sync(pod: PodRecord): void {
    const wanted = pod.status === "RUNNING" ? heldBy(pod) : undefined;
    if (same(this.held.get(pod.id), wanted)) return;
    this.release(pod.id);
    if (wanted) {
      this.capacity.take(wanted.dataCenterId, wanted.resource, wanted.count, wanted.size);
      this.held.set(pod.id, wanted);
    }
  }

  /** Gives back what a pod holds. */
  release(podId: string): void {
    const held = this.held.get(podId);
    if (!held) return;
    this.capacity.release(held.dataCenterId, held.resource, held.count, held.size);
    this.held.delete(podId);
  }
}

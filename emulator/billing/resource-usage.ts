import { type EndpointRecord, vcpuCountOf } from "../endpoints/endpoint-record";
import type { VolumeRecord } from "../volumes/volume-record";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { volumePricePerHour } from "./prices";
import type { SegmentOpening } from "./usage-meter";

/*
 * The spans that serverless workers and network volumes open (pods open theirs in pod-lifecycle.ts).
 */

/**
 * The span of one serverless worker of `endpoint`: its GPUs at the serverless price of the first
 * of the endpoint's GPU types the catalog prices for serverless (an endpoint naming none bills at
 * the first such type of the catalog), or its vCPUs at its first CPU flavor's serverless price.
 */
export function workerOpening(endpoint: EndpointRecord, workerId: string, catalog: PlatformCatalog): SegmentOpening {
  if (endpoint.cpu !== undefined) {
    const flavor = catalog.cpuFlavor(endpoint.cpu[0]?.id ?? "") ?? catalog.cpuFlavors()[0]!;
    return {
      podId: workerId,
      component: "cpu",
      ratePerHour: flavor.price.serverlessPerVcpu * (vcpuCountOf(endpoint) ?? 2),
    };
  }
  const priced = catalog.gpuTypes().filter((g) => g.price.serverless !== undefined);
  const gpu =
    (endpoint.v1?.gpuTypeIds ?? []).map((id) => catalog.gpuType(id)).find((g) => g?.price.serverless) ?? priced[0]!;
  return {
    podId: workerId,
    component: "gpu",
    gpuTypeId: gpu.id,
    ratePerHour: gpu.price.serverless! * (endpoint.gpu?.count ?? 1),
  };
}

/** The span of a stored network volume: its size at its tier's price. */
export function volumeOpening(volume: Pick<VolumeRecord, "size" | "type">): SegmentOpening {
  const highPerformance = volume.type === "HIGH_PERFORMANCE";
  return {
    component: highPerformance ? "highPerformance" : "standard",
    gb: volume.size,
    ratePerHour: volumePricePerHour(volume.size, volume.type),
  };
}

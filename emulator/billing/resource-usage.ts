import type { Endpoint, NetworkVolume } from "../../sdk/schemas";
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
export function workerOpening(endpoint: Endpoint, workerId: string, catalog: PlatformCatalog): SegmentOpening {
  if (endpoint.computeType === "CPU") {
    const flavor = catalog.cpuFlavor(endpoint.cpuFlavorIds?.[0] ?? "") ?? catalog.cpuFlavors()[0]!;
    return {
      podId: workerId,
      component: "cpu",
      ratePerHour: flavor.price.serverlessPerVcpu * (endpoint.vcpuCount ?? 2),
    };
  }
  const priced = catalog.gpuTypes().filter((g) => g.price.serverless !== undefined);
  const gpu =
    (endpoint.gpuTypeIds ?? []).map((id) => catalog.gpuType(id)).find((g) => g?.price.serverless) ?? priced[0]!;
  return {
    podId: workerId,
    component: "gpu",
    gpuTypeId: gpu.id,
    ratePerHour: gpu.price.serverless! * (endpoint.gpuCount ?? 1),
  };
}

/** The span of a stored network volume: its size at its tier's price. */
export function volumeOpening(volume: NetworkVolume): SegmentOpening {
  const highPerformance = volume.type === "HIGH_PERFORMANCE";
  return {
    component: highPerformance ? "highPerformance" : "standard",
    gb: volume.size,
    ratePerHour: volumePricePerHour(volume.size, volume.type),
  };
}

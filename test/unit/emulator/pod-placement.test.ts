import { describe, expect, it } from "vitest";
import { Capacity } from "../../../emulator/capacity/capacity";
import { clusterDataCenter } from "../../../emulator/clusters/cluster-create";
import { choosePlacement, placementFailure, type PlacementRequest } from "../../../emulator/pods/placement";
import { PodReservations } from "../../../emulator/pods/pod-reservations";
import { chancePerTick } from "../../../emulator/pods/preemption";
import type { PodRecord } from "../../../emulator/pods/pod-record";

/** Free GPUs: A40 scarce in EU, plenty in US; L4 plenty in EU. */
const FREE: Record<string, Record<string, number>> = {
  "EU-RO-1": { "NVIDIA A40": 1, "NVIDIA L4": 6 },
  "US-TX-3": { "NVIDIA A40": 4, "NVIDIA L4": 0 },
};
const free = (dc: string, resource: string) => FREE[dc]?.[resource] ?? 0;
const request = (over: Partial<PlacementRequest>): PlacementRequest => ({
  resources: ["NVIDIA A40", "NVIDIA L4"],
  count: 1,
  dataCenters: ["EU-RO-1", "US-TX-3"],
  resourcePriority: "custom",
  dataCenterPriority: "custom",
  ...over,
});

describe("pod placement (v1 priority semantics)", () => {
  it("takes the list's order with custom priorities", () => {
    expect(choosePlacement(request({}), free)).toEqual({ resource: "NVIDIA A40", dataCenterId: "EU-RO-1" });
  });

  it("takes the data center with the most free GPUs with dataCenterPriority availability", () => {
    expect(choosePlacement(request({ dataCenterPriority: "availability" }), free)).toEqual({
      resource: "NVIDIA A40",
      dataCenterId: "US-TX-3",
    });
  });

  it("takes the GPU type with the most free GPUs in the allowed data centers with gpuTypePriority availability", () => {
    expect(choosePlacement(request({ resourcePriority: "availability", dataCenters: ["EU-RO-1"] }), free)).toEqual({
      resource: "NVIDIA L4",
      dataCenterId: "EU-RO-1",
    });
  });

  it("skips a type or data center without enough free units, and places nothing when none has them", () => {
    expect(choosePlacement(request({ count: 2 }), free)).toEqual({ resource: "NVIDIA A40", dataCenterId: "US-TX-3" });
    expect(choosePlacement(request({ count: 5 }), free)).toEqual({ resource: "NVIDIA L4", dataCenterId: "EU-RO-1" });
    expect(choosePlacement(request({ count: 7 }), free)).toBeUndefined();
    expect(choosePlacement(request({ dataCenters: [] }), free)).toBeUndefined();
  });

  it("says what could not be found", () => {
    expect(placementFailure(request({ count: 7 }), "gpu")).toBe(
      'there are no instances currently available: no GPU type of "NVIDIA A40", "NVIDIA L4" has 7 free GPUs in data centers "EU-RO-1", "US-TX-3"',
    );
    expect(placementFailure(request({ resources: ["cpu3c"], count: 1 }), "cpu")).toMatch(
      /no CPU flavor of "cpu3c" has 1 free vCPU in/,
    );
    expect(placementFailure(request({ dataCenters: [] }), "gpu")).toMatch(/no data center is left/);
  });

  it("puts a pod's GPUs in machines of one size: the first of the request's sizes that has them free", () => {
    // EU-RO-1: 1 standard and 3 large L4s free; US-TX-3: 2 standard.
    const bySize: Record<string, Record<string, number>> = {
      "EU-RO-1": { standard: 1, large: 3 },
      "US-TX-3": { standard: 2, large: 0 },
    };
    const sized = (dc: string, _resource: string, machine?: string) => bySize[dc]?.[machine ?? ""] ?? 0;
    const l4 = (over: Partial<PlacementRequest>) =>
      request({ resources: ["NVIDIA L4"], machines: ["standard", "large"], ...over });
    expect(choosePlacement(l4({}), sized)).toEqual({
      resource: "NVIDIA L4",
      dataCenterId: "EU-RO-1",
      machine: "standard",
    });
    // Two GPUs: EU-RO-1 has four free, but no two of one size but the large ones.
    expect(choosePlacement(l4({ count: 2 }), sized)).toEqual({
      resource: "NVIDIA L4",
      dataCenterId: "EU-RO-1",
      machine: "large",
    });
    expect(choosePlacement(l4({ count: 2, dataCenterPriority: "availability" }), sized)).toMatchObject({
      dataCenterId: "EU-RO-1",
    });
    // Filters that only large machines meet: US-TX-3 has none free.
    expect(choosePlacement(l4({ machines: ["large"], dataCenters: ["US-TX-3"] }), sized)).toBeUndefined();
    expect(choosePlacement(l4({ count: 4 }), sized)).toBeUndefined();
    expect(placementFailure(l4({ machines: ["large"], machineFilters: "gpu.minRamPerGpu = 100" }), "gpu")).toMatch(
      / in machines meeting gpu\.minRamPerGpu = 100$/,
    );
  });

  it("puts a whole cluster in the data center with the most free GPUs that holds it", () => {
    const gpus = (dc: string) => ({ A: 3, B: 8, C: 5 })[dc] ?? 0;
    expect(clusterDataCenter(["A", "B", "C"], 4, gpus)).toBe("B");
    expect(clusterDataCenter(["A", "C"], 4, gpus)).toBe("C");
    expect(clusterDataCenter(["A", "C"], 6, gpus)).toBeUndefined();
  });
});

describe("pod reservations", () => {
  const pod = (status: "RUNNING" | "EXITED", count = 2) =>
    ({
      id: "p1",
      status,
      dataCenterId: "EU-RO-1",
      gpu: { id: "NVIDIA L4", count },
    }) as PodRecord;

  it("holds a running pod's GPUs, gives them back when it stops or goes, and takes them again on load", () => {
    const capacity = new Capacity({ gpusPerType: 0, vcpusPerFlavor: 0, stock: { "EU-RO-1": { "NVIDIA L4": 3 } } });
    const reservations = new PodReservations(capacity);
    expect(reservations.tryReserve("p1", pod("RUNNING"))).toBe(true);
    reservations.sync(pod("RUNNING"));
    expect(capacity.free("EU-RO-1", "NVIDIA L4", "gpu")).toBe(1);
    expect(reservations.tryReserve("p2", pod("RUNNING"))).toBe(false);
    reservations.sync(pod("EXITED"));
    expect(capacity.free("EU-RO-1", "NVIDIA L4", "gpu")).toBe(3);
    // A running pod loaded from a state file holds its GPUs even beyond the stock.
    reservations.sync(pod("RUNNING", 4));
    expect(capacity.free("EU-RO-1", "NVIDIA L4", "gpu")).toBe(-1);
    reservations.release("p1");
    expect(capacity.free("EU-RO-1", "NVIDIA L4", "gpu")).toBe(3);
  });
});

describe("preemption chance", () => {
  it("draws per minute the chance that makes the rate per hour", () => {
    const perMinute = chancePerTick(0.5);
    expect(1 - (1 - perMinute) ** 60).toBeCloseTo(0.5, 10);
    expect(chancePerTick(0)).toBe(0);
    expect(chancePerTick(1)).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { availabilityLevel, bestLevel, Capacity } from "../../../emulator/capacity/capacity";

describe("capacity", () => {
  it("reserves only what is free and gives it back", () => {
    const c = new Capacity({ gpusPerType: 4, vcpusPerFlavor: 8, stock: { "EU-RO-1": { "NVIDIA L4": 2 } } });
    expect(c.reserve("EU-RO-1", "NVIDIA L4", "gpu", 2)).toBe(true);
    expect(c.reserve("EU-RO-1", "NVIDIA L4", "gpu", 1)).toBe(false);
    expect(c.free("US-TX-3", "NVIDIA L4", "gpu")).toBe(4);
    c.release("EU-RO-1", "NVIDIA L4", 1);
    expect(c.free("EU-RO-1", "NVIDIA L4", "gpu")).toBe(1);
    c.release("EU-RO-1", "NVIDIA L4", 5);
    expect(c.free("EU-RO-1", "NVIDIA L4", "gpu")).toBe(2);
    expect(c.reserve("US-TX-3", "cpu3c", "cpu", 8)).toBe(true);
    expect(c.level("US-TX-3", "cpu3c", "cpu")).toBe("NONE");
  });

  it("keeps a share of each place's GPUs in large machines, counted apart and in all", () => {
    const c = new Capacity({ gpusPerType: 4, vcpusPerFlavor: 8, stock: { "EU-RO-1": { "NVIDIA L4": 3 } } });
    // A quarter by default, rounded down: one of four, none of three.
    expect([c.gpuTotal("US-TX-3", "NVIDIA L4", "standard"), c.gpuTotal("US-TX-3", "NVIDIA L4", "large")]).toEqual([
      3, 1,
    ]);
    expect(c.gpuTotal("EU-RO-1", "NVIDIA L4", "large")).toBe(0);
    expect(c.reserve("US-TX-3", "NVIDIA L4", "gpu", 1, "large")).toBe(true);
    expect(c.reserve("US-TX-3", "NVIDIA L4", "gpu", 1, "large")).toBe(false);
    expect(c.free("US-TX-3", "NVIDIA L4", "gpu")).toBe(3);
    expect(c.free("US-TX-3", "NVIDIA L4", "gpu", "standard")).toBe(3);
    expect(c.reserve("US-TX-3", "NVIDIA L4", "gpu", 3)).toBe(true);
    expect(c.free("US-TX-3", "NVIDIA L4", "gpu", "standard")).toBe(0);
    expect(c.level("US-TX-3", "NVIDIA L4", "gpu")).toBe("NONE");
    c.release("US-TX-3", "NVIDIA L4", 1, "large");
    expect([c.free("US-TX-3", "NVIDIA L4", "gpu", "large"), c.free("US-TX-3", "NVIDIA L4", "gpu")]).toEqual([1, 1]);
    const half = new Capacity({ gpusPerType: 4, vcpusPerFlavor: 8, stock: {}, largeMachineShare: 0.5 });
    expect(half.gpuTotal("US-TX-3", "NVIDIA L4", "large")).toBe(2);
  });

  it.each([
    [0, 16, 1, "NONE"],
    [1, 16, 2, "NONE"],
    [3, 16, 1, "LOW"],
    [9, 16, 1, "MEDIUM"],
    [10, 16, 1, "HIGH"],
    [5, 0, 1, "NONE"],
  ] as const)("%i free of %i for %i is %s", (free, total, wanted, level) => {
    expect(availabilityLevel(free, total, wanted)).toBe(level);
  });

  it("takes the best level of several", () => {
    expect(bestLevel(["NONE", "MEDIUM", "LOW"])).toBe("MEDIUM");
    expect(bestLevel([])).toBe("NONE");
  });
});

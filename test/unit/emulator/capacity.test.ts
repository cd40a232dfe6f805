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

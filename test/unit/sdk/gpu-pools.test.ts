import { describe, expect, it } from "vitest";
import { allPools, gpuTypesToPools, poolsToGpuTypes } from "../../../sdk/internal";
import { CATALOG } from "./gpu-pool-catalog";

describe("GPU types and pools, each into the other", () => {
  it("maps types to the pools holding them, every other type of those pools excluded in catalog order", () => {
    expect(gpuTypesToPools(["B3", "A1"], CATALOG)).toEqual({
      ok: true,
      selection: { pools: ["BIG", "SMALL"], excludedTypes: ["B1", "A2", "B2"] },
    });
    expect(gpuTypesToPools(["A1", "A2"], CATALOG)).toEqual({
      ok: true,
      selection: { pools: ["SMALL"], excludedTypes: [] },
    });
  });

  it("names every type in no serverless pool or unknown to the catalog, at its index", () => {
    const mapping = gpuTypesToPools(["A1", "POD-ONLY", "Z9"], CATALOG);
    expect(mapping).toEqual({
      ok: false,
      problems: [
        { field: "gpuTypeIds.1", value: '"POD-ONLY"', rule: expect.stringContaining("is in no serverless GPU pool") },
        { field: "gpuTypeIds.2", value: '"Z9"', rule: "is not a GPU type of the platform's catalog" },
      ],
    });
  });

  it("reads a pool selection back as its types minus the excluded ones, in catalog order, whitespace trimmed", () => {
    expect(poolsToGpuTypes(["BIG", "SMALL"], [" B1", "A2"], CATALOG)).toEqual(["A1", "B2", "B3"]);
    expect(poolsToGpuTypes(["NEW_POOL"], [], CATALOG)).toEqual([]);
    expect(allPools(CATALOG)).toEqual(["SMALL", "BIG"]);
  });

  it("gives the same types back for any subset of serverless types (these cards and no others)", () => {
    const serverless = CATALOG.filter((e) => e.pool !== null).map((e) => e.id);
    for (let mask = 1; mask < 1 << serverless.length; mask++) {
      const chosen = serverless.filter((_, i) => mask & (1 << i));
      const mapping = gpuTypesToPools(chosen, CATALOG);
      if (!mapping.ok) throw new Error("unexpected problems");
      const back = poolsToGpuTypes(mapping.selection.pools, mapping.selection.excludedTypes, CATALOG);
      expect(back).toEqual(serverless.filter((id) => chosen.includes(id)));
    }
  });
});

import { describe, expect, it } from "vitest";
import {
  cudaVersion,
  distinctList,
  nearKnownValues,
  nearestValues,
  PLATFORM_VALUE_FIELDS,
  platformId,
  suggestionText,
  unknownPlatformValues,
} from "../../../sdk/schemas";

describe("near known values", () => {
  it.each([
    ["gpuType", "nvidia l4", ["NVIDIA L4"]],
    ["gpuType", " NVIDIA L4", ["NVIDIA L4"]],
    ["gpuType", "NVIDIA L4 ", ["NVIDIA L4"]],
    ["gpuType", "NVIDIA\tGeForce RTX  4090", ["NVIDIA GeForce RTX 4090"]],
    ["gpuType", "nvidia a30", ["NVIDIA A30", "NVIDIA  A30"]],
    ["dataCenter", "eu-ro-1", ["EU-RO-1"]],
    ["cpuFlavor", "CPU3C", ["cpu3c"]],
  ] as const)("suggests for a %s %j: %j", (kind, value, expected) => {
    expect(nearKnownValues(kind, value)).toEqual(expected);
  });

  it.each([
    ["gpuType", "NVIDIA B300"],
    ["gpuType", "NVIDIA H300"],
    ["gpuType", "NVIDIA L40X"],
    ["dataCenter", "EU-RO-2"],
  ] as const)("suggests nothing for a %s %j that is one character from a known one", (kind, value) => {
    expect(nearKnownValues(kind, value)).toEqual([]);
  });

  it("suggests among added values too", () => {
    expect(nearKnownValues("gpuType", "nvidia b300", ["NVIDIA B300"])).toEqual(["NVIDIA B300"]);
  });

  it("words a suggestion as a question, and nothing when there is none", () => {
    expect(suggestionText(["NVIDIA A30", "NVIDIA  A30"])).toBe(' (did you mean "NVIDIA A30" or "NVIDIA  A30"?)');
    expect(suggestionText([])).toBe("");
  });
});

describe("unknown platform values of an input", () => {
  it("lists each unknown value with its dotted field, rendered value, rule and suggestions", () => {
    const input = { gpuTypeIds: ["NVIDIA L4", "nvidia a40", "NVIDIA B300"], minCudaVersion: "13.1", workersMax: 3 };
    expect(unknownPlatformValues(PLATFORM_VALUE_FIELDS.ServerlessEndpoint, input)).toEqual([
      {
        field: "gpuTypeIds.1",
        value: '"nvidia a40"',
        raw: "nvidia a40",
        kind: "gpuType",
        suggestions: ["NVIDIA A40"],
        rule: "is not a GPU type the platform knows",
      },
      {
        field: "gpuTypeIds.2",
        value: '"NVIDIA B300"',
        raw: "NVIDIA B300",
        kind: "gpuType",
        suggestions: [],
        rule: "is not a GPU type the platform knows",
      },
      {
        field: "minCudaVersion",
        value: '"13.1"',
        raw: "13.1",
        kind: "cudaVersion",
        suggestions: [],
        rule: "is not a CUDA version the platform knows",
      },
    ]);
  });

  it("accepts values added to the snapshot and leaves non-strings to the shape rules", () => {
    const input = { dataCenterId: "AP-SG-1" };
    expect(unknownPlatformValues(PLATFORM_VALUE_FIELDS.NetworkVolume, input, { dataCenter: ["AP-SG-1"] })).toEqual([]);
    expect(unknownPlatformValues(PLATFORM_VALUE_FIELDS.NetworkVolume, { dataCenterId: 3 })).toEqual([]);
  });
});

describe("the shape rules of open values", () => {
  it.each([
    ["NVIDIA B300", true],
    ["", false],
    [" \t", false],
    [42, false],
  ])("a platform id %j is well formed: %s", (value, ok) => {
    expect(platformId("gpuType").safeParse(value).success).toBe(ok);
  });

  it.each([
    ["12.4", true],
    ["13.10", true],
    ["12", false],
    ["v12.4", false],
    ["12.4 ", false],
  ])("a CUDA version %j is well formed: %s", (value, ok) => {
    expect(cudaVersion.safeParse(value).success).toBe(ok);
  });

  it("names each repeat of a distinct list at its index, with the index it repeats", () => {
    const result = distinctList(platformId("dataCenter"), "data center").safeParse(["A", "B", "A", "A"]);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [[2], "repeats index 0; each data center may appear once"],
      [[3], "repeats index 0; each data center may appear once"],
    ]);
  });
});

describe("nearestValues: the names an error against the live catalog suggests", () => {
  const catalog = ["NVIDIA L40S", "NVIDIA L40", "NVIDIA L4", "NVIDIA B200", "NVIDIA B300", "NVIDIA H100 80GB HBM3"];

  it("names the values equal but for case or spacing, and only those, when there are any", () => {
    expect(nearestValues("nvidia b300", catalog)).toEqual(["NVIDIA B300"]);
    expect(nearestValues(" NVIDIA L4", catalog)).toEqual(["NVIDIA L4"]);
  });

  it("otherwise names up to three values closest by edit distance, nearest first", () => {
    expect(nearestValues("NVIDIA L40X", catalog)).toEqual(["NVIDIA L40", "NVIDIA L40S", "NVIDIA L4"]);
    expect(nearestValues("NVIDIA H100 80GB HBM", catalog)).toEqual(["NVIDIA H100 80GB HBM3"]);
    expect(nearestValues("NVIDIA L40X", catalog, 1)).toEqual(["NVIDIA L40"]);
  });

  it("names nothing when no value is within a quarter of the name's length", () => {
    expect(nearestValues("AMD Instinct MI300X OAM", catalog)).toEqual([]);
    expect(nearestValues("NVIDIA L4", [])).toEqual([]);
  });
});

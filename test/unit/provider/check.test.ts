import { describe, expect, it } from "vitest";
import { networkVolumeProvider } from "../../../provider/network-volume-provider";
import { UNKNOWN } from "../../../provider/property-values";
import { configureDirect } from "../../../provider/provider-config";
import { serverlessEndpointProvider } from "../../../provider/serverless-endpoint-provider";

const volume = { name: "models-abc1234", size: 50, dataCenterId: "EU-RO-1", __autoNamed: true };
const endpoint = { templateId: "echo", name: "api-abc1234", gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 2 };

describe("NetworkVolume check", () => {
  it("accepts valid inputs and returns them unchanged", async () => {
    expect(await networkVolumeProvider.check({}, volume)).toEqual({ inputs: volume, failures: [] });
  });

  it.each([
    ["size", -1, "must be at least 0 GB"],
    ["size", 1.5, "must be a whole number of GB"],
    ["size", "big", "Invalid input: expected number, received string"],
    ["dataCenterId", "", "must not be empty"],
    ["dataCenterId", "  ", "must not be empty"],
    ["dataCenterId", 7, "must be a data center id (a string)"],
    ["name", "", "must not be empty"],
    ["adoptId", "", "must be the id of an existing resource (a non-empty string)"],
  ])("fails on %s = %j: %s", async (property, value, reason) => {
    const { failures } = await networkVolumeProvider.check({}, { ...volume, [property]: value });
    expect(failures).toContainEqual({ property, reason });
  });

  it("bounds the size by the configured management API version: 10 to 4096 GB on v2, 0 to 4000 on v1", async () => {
    const sized = (size: number) => networkVolumeProvider.check({}, { ...volume, size });
    expect((await sized(4096)).failures).toEqual([]);
    expect((await sized(10)).failures).toEqual([]);
    expect((await sized(4097)).failures).toEqual([
      { property: "size", reason: "must be at most 4096 GB (on management API v2)" },
    ]);
    expect((await sized(9)).failures).toEqual([
      { property: "size", reason: "must be at least 10 GB (on management API v2)" },
    ]);
    configureDirect({ apiUrl: "https://rest.runpod.io/v1" });
    try {
      expect((await sized(0)).failures).toEqual([]);
      expect((await sized(4001)).failures).toEqual([
        { property: "size", reason: "must be at most 4000 GB (on management API v1)" },
      ]);
    } finally {
      configureDirect({});
    }
  });

  it("judges a size the stack already holds only when the volume is replaced (a stack moved from v1 previews unchanged)", async () => {
    const fromV1 = { ...volume, size: 5 };
    expect((await networkVolumeProvider.check(fromV1, fromV1)).failures).toEqual([]);
    expect((await networkVolumeProvider.check(fromV1, { ...fromV1, name: "renamed" })).failures).toEqual([]);
    // A new data center makes a new volume, which v2 creates with the size as it is.
    expect((await networkVolumeProvider.check(fromV1, { ...fromV1, dataCenterId: "US-TX-3" })).failures).toEqual([
      { property: "size", reason: "must be at least 10 GB (on management API v2)" },
    ]);
  });

  it("reports a missing size as required", async () => {
    const { size: _size, ...rest } = volume;
    expect((await networkVolumeProvider.check({}, rest)).failures).toEqual([
      { property: "size", reason: "is required" },
    ]);
  });

  it("refuses a shrink, naming the current and the requested size", async () => {
    const { failures } = await networkVolumeProvider.check(volume, { ...volume, size: 40 });
    expect(failures).toEqual([
      {
        property: "size",
        reason: "size can only grow: the volume has 50 GB and 40 GB was requested; network volumes cannot shrink",
      },
    ]);
  });

  it("allows any size when the data center changes, since that makes a new volume", async () => {
    expect(
      (await networkVolumeProvider.check(volume, { ...volume, dataCenterId: "US-TX-3", size: 10 })).failures,
    ).toEqual([]);
  });

  it("allows growth and an unchanged size", async () => {
    expect((await networkVolumeProvider.check(volume, { ...volume, size: 51 })).failures).toEqual([]);
    expect((await networkVolumeProvider.check(volume, volume)).failures).toEqual([]);
  });

  it("tolerates unknown values during preview", async () => {
    const news = { ...volume, size: UNKNOWN, dataCenterId: UNKNOWN };
    expect((await networkVolumeProvider.check(volume, news)).failures).toEqual([]);
  });
});

describe("ServerlessEndpoint check", () => {
  it("accepts valid inputs", async () => {
    expect((await serverlessEndpointProvider.check({}, endpoint)).failures).toEqual([]);
  });

  it.each([
    ["templateId", "", "must not be empty"],
    ["gpuCount", 0, "must be at least 1"],
    ["workersMax", -1, "workersMax must be at least 0"],
    ["idleTimeout", 0, "must be at least 1 second"],
    ["idleTimeout", 3601, "must be at most 3600 seconds"],
    ["scalerValue", 0, "must be at least 1"],
    ["scalerType", "FAST", "must be one of QUEUE_DELAY, REQUEST_COUNT"],
    ["computeType", "TPU", "must be one of GPU, CPU"],
    ["name", "x".repeat(192), "must be at most 191 characters"],
    ["gpuTypeIds", ["NVIDIA L4", ""], "must not be empty (at gpuTypeIds[1])"],
    ["gpuTypeIds", ["NVIDIA L4", 4090], "must be a GPU type id (a string) (at gpuTypeIds[1])"],
    [
      "dataCenterIds",
      ["EU-RO-1", "US-TX-3", "EU-RO-1"],
      "repeats index 0; each data center may appear once (at dataCenterIds[2])",
    ],
    [
      "allowedCudaVersions",
      ["12"],
      'must be a CUDA version written major.minor, such as "12.4" (at allowedCudaVersions[0])',
    ],
    ["minCudaVersion", " ", 'must be a CUDA version written major.minor, such as "12.4"'],
    ["cpuFlavorIds", ["cpu3c", "cpu3c"], "repeats index 0; each CPU flavor may appear once (at cpuFlavorIds[1])"],
    ["executionTimeoutMs", 0, "must be positive"],
  ])("fails on %s = %j: %s", async (property, value, reason) => {
    const { failures } = await serverlessEndpointProvider.check({}, { ...endpoint, [property]: value });
    expect(failures).toContainEqual({ property, reason });
  });

  it("accepts well-formed values newer than this release: the platform judges membership", async () => {
    const newer = {
      ...endpoint,
      gpuTypeIds: ["NVIDIA B300", "NVIDIA L4"],
      dataCenterIds: ["AP-SG-1"],
      allowedCudaVersions: ["13.1"],
      minCudaVersion: "13.1",
    };
    expect((await serverlessEndpointProvider.check({}, newer)).failures).toEqual([]);
    const cpu = { templateId: "echo", computeType: "CPU", cpuFlavorIds: ["cpu7c"] };
    expect((await serverlessEndpointProvider.check({}, cpu)).failures).toEqual([]);
    expect((await networkVolumeProvider.check({}, { ...volume, dataCenterId: "AP-SG-1" })).failures).toEqual([]);
  });

  it("lets a repeated GPU type through, so the policy pack's remediation can remove it", async () => {
    const repeated = { ...endpoint, gpuTypeIds: ["NVIDIA L4", "NVIDIA A40", "NVIDIA L4"] };
    expect((await serverlessEndpointProvider.check({}, repeated)).failures).toEqual([]);
  });

  it("refuses workersMin above workersMax", async () => {
    const { failures } = await serverlessEndpointProvider.check({}, { ...endpoint, workersMin: 3, workersMax: 2 });
    expect(failures).toEqual([{ property: "workersMin", reason: "workersMin must not exceed workersMax" }]);
  });

  it("does not compare worker bounds when one of them is unknown", async () => {
    const { failures } = await serverlessEndpointProvider.check(
      {},
      { ...endpoint, workersMin: 3, workersMax: UNKNOWN },
    );
    expect(failures).toEqual([]);
  });

  it("tolerates an unknown element inside a list", async () => {
    const { failures } = await serverlessEndpointProvider.check(
      {},
      { ...endpoint, gpuTypeIds: ["NVIDIA L4", UNKNOWN] },
    );
    expect(failures).toEqual([]);
  });
});

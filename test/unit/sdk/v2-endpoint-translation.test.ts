import { describe, expect, it } from "vitest";
import { RequestValidationError, type V2 } from "../../../sdk";
import { endpointBodyV1, endpointCreateToV2, endpointFromV2, endpointUpdateToV2 } from "../../../sdk/internal";
import { CATALOG } from "./gpu-pool-catalog";

function problemsOf(run: () => unknown): { field: string; value: string; rule: string }[] {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return [...(err as RequestValidationError).problems];
  }
  throw new Error("expected a RequestValidationError");
}

describe("endpointCreateToV2", () => {
  it("translates every neutral field of a GPU queue endpoint", () => {
    expect(
      endpointCreateToV2(
        {
          name: "e",
          templateId: "tpl",
          gpuTypeIds: ["A2"],
          gpuCount: 2,
          workersMin: 1,
          workersMax: 4,
          idleTimeout: 9,
          scalerType: "QUEUE_DELAY",
          scalerValue: 6,
          executionTimeoutMs: 1000,
          flashboot: true,
          networkVolumeId: "vol-a",
          networkVolumeIds: ["vol-a", "vol-b"],
          dataCenterIds: ["EU-RO-1"],
          allowedCudaVersions: ["12.4"],
        },
        CATALOG,
      ),
    ).toEqual({
      name: "e",
      type: "QUEUE",
      templateId: "tpl",
      scaling: { type: "QUEUE_DELAY", queueDelay: 6 },
      workers: { min: 1, max: 4, idleTimeout: 9 },
      timeout: 1000,
      flashboot: "FLASHBOOT",
      networkVolumes: ["vol-a", "vol-b"],
      dataCenterIds: ["EU-RO-1"],
      gpu: { pools: ["SMALL"], excludedTypes: ["A1"], count: 2, allowedCudaVersions: ["12.4"] },
    });
  });

  it("defaults: v1's scaler on a queue, REQUEST_COUNT on a load balancer, every pool without GPU types", () => {
    expect(endpointCreateToV2({ name: "q", templateId: "t" }, CATALOG)).toEqual({
      name: "q",
      type: "QUEUE",
      templateId: "t",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      gpu: { pools: ["SMALL", "BIG"] },
    });
    const lb = endpointCreateToV2({ name: "l", templateId: "t", type: "LOAD_BALANCER", scalerValue: 2 }, CATALOG);
    expect(lb.scaling).toEqual({ type: "REQUEST_COUNT", requestCount: 2 });
  });

  it("sends pools as given (a pool added after this release too) and CPU flavors with one vCPU count", () => {
    const pools = endpointCreateToV2(
      {
        name: "p",
        templateId: "t",
        gpuPools: ["FUTURE_POOL"],
        excludedGpuTypes: ["X"],
        flashboot: "PRIORITY_FLASHBOOT",
      },
      CATALOG,
    );
    expect(pools.gpu).toEqual({ pools: ["FUTURE_POOL"], excludedTypes: ["X"] });
    expect(pools.flashboot).toBe("PRIORITY_FLASHBOOT");
    const cpu = endpointCreateToV2(
      { name: "c", templateId: "t", computeType: "CPU", cpuFlavorIds: ["cpu3c", "cpu5g"], vcpuCount: 8, gpuCount: 2 },
      CATALOG,
    );
    expect(cpu.cpu).toEqual([
      { id: "cpu3c", vcpuCount: 8 },
      { id: "cpu5g", vcpuCount: 8 },
    ]);
    expect(cpu.gpu).toBeUndefined();
    expect(endpointCreateToV2({ name: "c", templateId: "t", computeType: "CPU" }, CATALOG).cpu).toHaveLength(4);
  });

  it("refuses what v2 cannot take, naming the neutral field", () => {
    expect(problemsOf(() => endpointCreateToV2({ templateId: "t" }, CATALOG))).toEqual([
      { field: "name", value: "undefined", rule: expect.stringMatching(/^is required on management API v2/) },
    ]);
    expect(
      problemsOf(() =>
        endpointCreateToV2({ name: "l", templateId: "t", type: "LOAD_BALANCER", scalerType: "QUEUE_DELAY" }, CATALOG),
      ),
    ).toEqual([
      { field: "scalerType", value: '"QUEUE_DELAY"', rule: expect.stringContaining("scales on REQUEST_COUNT") },
    ]);
    expect(
      problemsOf(() =>
        endpointCreateToV2({ name: "q", templateId: "t", scalerType: "REQUEST_COUNT", idleTimeout: 5 }, CATALOG),
      ),
    ).toEqual([
      { field: "idleTimeout", value: "5", rule: expect.stringContaining("does not apply to a QUEUE endpoint") },
    ]);
    expect(
      problemsOf(() => endpointCreateToV2({ name: "q", templateId: "t", gpuTypeIds: ["POD-ONLY"] }, CATALOG)),
    ).toHaveLength(1);
  });
});

describe("endpointUpdateToV2", () => {
  const current = {
    id: "e",
    name: "e",
    type: "QUEUE",
    cpu: [{ id: "cpu3c", vcpuCount: 4, memory: 8 }],
    workers: { min: 0, max: 3, idleTimeout: 5 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    dataCenterIds: [],
    networkVolumes: [],
    timeout: 1,
    flashboot: "OFF",
    createdAt: "2026-01-01T00:00:00Z",
  } satisfies V2.Endpoint;

  it("sends only what changed; a scaler value alone keeps the current scaler type", () => {
    expect(endpointUpdateToV2({ workersMax: 5, scalerValue: 7 }, current, CATALOG)).toEqual({
      workers: { max: 5 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 7 },
    });
    expect(endpointUpdateToV2({}, current, CATALOG)).toEqual({});
  });

  it("sends a whole CPU selection and GPU types as pools with their exclusions (an empty list clears them)", () => {
    expect(endpointUpdateToV2({ vcpuCount: 16 }, current, CATALOG).cpu).toEqual([{ id: "cpu3c", vcpuCount: 16 }]);
    expect(endpointUpdateToV2({ gpuTypeIds: ["A1", "A2"] }, undefined, CATALOG).gpu).toEqual({
      pools: ["SMALL"],
      excludedTypes: [],
    });
    expect(endpointUpdateToV2({ gpuPools: ["BIG"] }, undefined, CATALOG).gpu).toEqual({ pools: ["BIG"] });
    expect(endpointUpdateToV2({ minCudaVersion: "12.1" }, undefined, CATALOG).gpu).toEqual({ minCudaVersion: "12.1" });
  });

  it("refuses queue delay on a load-balancing endpoint, read from the current one", () => {
    expect(
      problemsOf(() =>
        endpointUpdateToV2({ scalerType: "QUEUE_DELAY" }, { ...current, type: "LOAD_BALANCER" }, CATALOG),
      ),
    ).toEqual([{ field: "scalerType", value: '"QUEUE_DELAY"', rule: expect.stringContaining("has no queue") }]);
  });
});

describe("endpointFromV2", () => {
  it("reads pools as GPU types minus exclusions, modes as v1's booleans, no template link", () => {
    const neutral = endpointFromV2(
      {
        id: "e",
        name: "n",
        type: "LOAD_BALANCER",
        requestUrls: { base: "https://e.example", health: "https://e.example/ping" },
        gpu: { pools: ["BIG"], excludedTypes: ["B2"], count: 2, allowedCudaVersions: [], minCudaVersion: null },
        workers: { min: 1, max: 2, idleTimeout: 30 },
        scaling: { type: "REQUEST_COUNT", requestCount: 3 },
        dataCenterIds: ["US-TX-3"],
        networkVolumes: ["vol"],
        timeout: 5000,
        flashboot: "FLASHBOOT",
        createdAt: "2026-01-01T00:00:00Z",
        env: { A: "1" },
      },
      CATALOG,
    );
    expect(neutral).toEqual({
      id: "e",
      name: "n",
      type: "LOAD_BALANCER",
      computeType: "GPU",
      gpuTypeIds: ["B1", "B3"],
      gpuPools: ["BIG"],
      excludedGpuTypes: ["B2"],
      gpuCount: 2,
      allowedCudaVersions: [],
      workersMin: 1,
      workersMax: 2,
      idleTimeout: 30,
      scalerType: "REQUEST_COUNT",
      scalerValue: 3,
      executionTimeoutMs: 5000,
      flashboot: true,
      networkVolumeId: "vol",
      networkVolumeIds: ["vol"],
      dataCenterIds: ["US-TX-3"],
      env: { A: "1" },
      createdAt: "2026-01-01T00:00:00Z",
      requestUrls: { base: "https://e.example", health: "https://e.example/ping" },
      container: { env: { A: "1" } },
    });
    expect(neutral.templateId).toBeUndefined();
  });

  it("reads CPU configurations as flavors and the first vCPU count; PRIORITY_FLASHBOOT stays a mode", () => {
    const neutral = endpointFromV2(
      {
        id: "c",
        name: "c",
        cpu: [
          { id: "cpu3c", vcpuCount: 4, memory: 8 },
          { id: "cpu3c", vcpuCount: 8, memory: 16 },
          { id: "cpu5g", vcpuCount: 4, memory: 16 },
        ],
        workers: { min: 0, max: 1 },
        scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 },
        dataCenterIds: [],
        networkVolumes: [],
        timeout: 1,
        flashboot: "PRIORITY_FLASHBOOT",
        createdAt: "2026-01-01T00:00:00Z",
      },
      CATALOG,
    );
    expect(neutral).toMatchObject({
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c", "cpu5g"],
      vcpuCount: 4,
      scalerValue: 0.5,
    });
    expect(neutral.flashboot).toBe("PRIORITY_FLASHBOOT");
    expect(neutral.gpuTypeIds).toBeUndefined();
    expect(neutral.networkVolumeId).toBeUndefined();
  });
});

describe("endpointBodyV1", () => {
  it("drops the neutral QUEUE type and sends the two modes v1 has as booleans", () => {
    expect(endpointBodyV1({ templateId: "t", type: "QUEUE", flashboot: "FLASHBOOT" })).toEqual({
      templateId: "t",
      flashboot: true,
    });
    expect(endpointBodyV1({ templateId: "t", flashboot: "OFF" })).toEqual({ templateId: "t", flashboot: false });
    expect(endpointBodyV1({ templateId: "t", flashboot: true })).toEqual({ templateId: "t", flashboot: true });
  });
});

import { describe, expect, it } from "vitest";
import { EndpointCreateInputSchema, EndpointUpdateInputSchema, V2 } from "../../../sdk";
import { fieldProblems } from "../../../sdk/internal";
import type { z } from "zod";

function problems(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : fieldProblems(parsed.error, value).map((p) => `${p.field}: ${p.rule}`);
}

const CREATE = {
  name: "e",
  type: "QUEUE",
  image: "img:1",
  gpu: { pools: ["ADA_24"] },
  scaling: { type: "QUEUE_DELAY", queueDelay: 2 },
};

describe("V2.CreateEndpointRequestSchema (the OpenAPI's rules)", () => {
  it.each([
    [{}, []],
    [{ image: undefined, templateId: "tpl" }, []],
    [{ image: undefined }, ["image: is required unless templateId is given"]],
    [{ type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 1 }, workers: { idleTimeout: 5 } }, []],
    [
      { type: "LOAD_BALANCER" },
      [expect.stringMatching(/^scaling\.type: a LOAD_BALANCER endpoint scales on REQUEST_COUNT/)],
    ],
    [
      { scaling: { type: "REQUEST_COUNT", requestCount: 1 }, workers: { idleTimeout: 5 } },
      [expect.stringMatching(/^workers\.idleTimeout: /)],
    ],
    [{ gpu: undefined }, ["gpu: give exactly one of gpu or cpu"]],
    [{ cpu: [{ id: "cpu3c", vcpuCount: 2 }] }, ["gpu: give exactly one of gpu or cpu"]],
    [{ gpu: { pools: [] } }, ["gpu.pools: must name at least one pool"]],
    [{ gpu: { pools: ["A"], allowedCudaVersions: [], minCudaVersion: "12.1" } }, []],
    [
      { gpu: { pools: ["A"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } },
      [expect.stringMatching(/^gpu\.minCudaVersion: give /)],
    ],
    [{ gpu: { pools: ["A"], excludedTypes: ["x", "x"] } }, ["gpu.excludedTypes: must not repeat a GPU type"]],
    [{ gpu: undefined, cpu: [{ id: "c", vcpuCount: 6 }] }, ["cpu.0.vcpuCount: must be a power of two"]],
    [{ scaling: { type: "QUEUE_DELAY", queueDelay: 0.25 } }, ["scaling.queueDelay: must be at least 0.5 seconds"]],
    [{ workers: { min: 3, max: 1 } }, ["workers.min: must not exceed workers.max"]],
    [{ flashboot: "ON" }, ["flashboot: must be one of OFF, FLASHBOOT, PRIORITY_FLASHBOOT"]],
  ])("%j", (change, expected) => {
    expect(problems(V2.CreateEndpointRequestSchema, { ...CREATE, ...change })).toEqual(expected);
  });

  it("refuses a field the OpenAPI does not have (unevaluatedProperties: false)", () => {
    expect(problems(V2.CreateEndpointRequestSchema, { ...CREATE, gpuTypeIds: ["x"] })).toEqual([
      expect.stringMatching(/gpuTypeIds/),
    ]);
  });

  it("updates: excludedTypes only with pools, an empty floor clears, gpu and cpu not both", () => {
    expect(problems(V2.UpdateEndpointRequestSchema, { gpu: { excludedTypes: ["x"] } })).toEqual([
      expect.stringMatching(/^gpu\.excludedTypes: requires pools/),
    ]);
    expect(problems(V2.UpdateEndpointRequestSchema, { gpu: { minCudaVersion: "" } })).toEqual([]);
    expect(problems(V2.UpdateEndpointRequestSchema, { gpu: { count: 1 }, cpu: [{ id: "c", vcpuCount: 2 }] })).toEqual([
      "gpu: give gpu or cpu, not both",
    ]);
  });
});

describe("the neutral endpoint inputs' v2 fields", () => {
  it("take one GPU selection, exclusions only with pools, and the flash-boot modes", () => {
    expect(problems(EndpointCreateInputSchema, { templateId: "t", gpuTypeIds: ["a"], gpuPools: ["P"] })).toEqual([
      expect.stringMatching(/^gpuPools: name GPU types \(gpuTypeIds\) or GPU pools \(gpuPools\), not both/),
    ]);
    expect(problems(EndpointUpdateInputSchema, { excludedGpuTypes: ["a"] })).toEqual([
      expect.stringMatching(/^excludedGpuTypes: narrows gpuPools/),
    ]);
    expect(
      problems(EndpointCreateInputSchema, { templateId: "t", flashboot: "PRIORITY_FLASHBOOT", type: "LOAD_BALANCER" }),
    ).toEqual([]);
    expect(problems(EndpointCreateInputSchema, { templateId: "t", flashboot: "FAST" })).toEqual([
      "flashboot: must be true, false or one of OFF, FLASHBOOT, PRIORITY_FLASHBOOT",
    ]);
  });
});

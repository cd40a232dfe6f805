import { describe, expect, it } from "vitest";
import {
  EndpointCreateInputSchema,
  EndpointUpdateInputSchema,
  fieldProblems,
  JobPolicySchema,
  JobRequestSchema,
  LIMITS,
  NetworkVolumeCreateInputSchema,
  NetworkVolumeSchema,
  RunSyncWaitSchema,
  volumeSizeChangeProblem,
} from "../../../sdk/schemas";

describe("network volume schemas", () => {
  it.each([
    [LIMITS.volumeSizeGb.min, true],
    [LIMITS.volumeSizeGb.min - 1, false],
    [LIMITS.volumeSizeGb.max, true],
    [LIMITS.volumeSizeGb.max + 1, false],
    [10.5, false],
  ])("accepts size %s: %s", (size, ok) => {
    const r = NetworkVolumeCreateInputSchema.safeParse({ name: "v", size, dataCenterId: "EU-RO-1" });
    expect(r.success).toBe(ok);
  });

  it("names the field, the value and the rule of a bad size", () => {
    const input = { name: "v", size: 5000, dataCenterId: "EU-RO-1" };
    const r = NetworkVolumeCreateInputSchema.safeParse(input);
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(fieldProblems(r.error, input)).toEqual([{ field: "size", value: "5000", rule: "must be at most 4000 GB" }]);
  });

  it("reports missing required fields as required", () => {
    const r = NetworkVolumeCreateInputSchema.safeParse({ size: 1 });
    expect(r.success).toBe(false);
    if (r.success) return;
    const fields = fieldProblems(r.error, { size: 1 });
    expect(fields.map((f) => [f.field, f.rule])).toEqual([
      ["name", "is required"],
      ["dataCenterId", "is required"],
    ]);
  });

  it("tolerates unknown fields in responses", () => {
    const r = NetworkVolumeSchema.parse({ id: "a", name: "n", size: 1, dataCenterId: "EU-RO-1", extra: true });
    expect(r).toEqual({ id: "a", name: "n", size: 1, dataCenterId: "EU-RO-1" });
  });

  it.each([
    [10, 11, undefined],
    [10, 10, undefined],
    [10, 9, "size can only grow: the volume has 10 GB and 9 GB was requested; network volumes cannot shrink"],
  ])("size change %s -> %s", (from, to, problem) => {
    expect(volumeSizeChangeProblem(from, to)).toBe(problem);
  });
});

describe("endpoint schemas", () => {
  it("requires templateId and nothing else", () => {
    expect(EndpointCreateInputSchema.safeParse({ templateId: "echo" }).success).toBe(true);
    expect(EndpointCreateInputSchema.safeParse({}).success).toBe(false);
  });

  it.each([
    ["idleTimeout", 0, false],
    ["idleTimeout", 1, true],
    ["idleTimeout", 3600, true],
    ["idleTimeout", 3601, false],
    ["gpuCount", 0, false],
    ["gpuCount", 1, true],
    ["workersMax", -1, false],
    ["workersMax", 0, true],
    ["scalerValue", 0, false],
    ["scalerValue", 1, true],
    ["name", "x".repeat(191), true],
    ["name", "x".repeat(192), false],
    ["gpuTypeIds", ["NVIDIA L4"], true],
    ["gpuTypeIds", ["NVIDIA B300"], true],
    ["gpuTypeIds", ["NVIDIA L4", ""], false],
    ["gpuTypeIds", ["  "], false],
    ["gpuTypeIds", [4090], false],
    ["gpuTypeIds", ["NVIDIA L4", "NVIDIA L4"], true],
    ["dataCenterIds", ["EU-RO-1"], true],
    ["dataCenterIds", ["AP-SG-1"], true],
    ["dataCenterIds", ["EU-RO-1", "EU-RO-1"], false],
    ["allowedCudaVersions", ["13.1", "12.4"], true],
    ["allowedCudaVersions", ["12"], false],
    ["allowedCudaVersions", ["12.4", "12.4"], false],
    ["minCudaVersion", "13.1", true],
    ["minCudaVersion", "cuda-12", false],
    ["cpuFlavorIds", ["cpu7c"], true],
    ["cpuFlavorIds", ["cpu3c", ""], false],
    ["cpuFlavorIds", ["cpu3c", "cpu3c"], false],
    ["computeType", "TPU", false],
  ])("%s = %j is valid: %s", (field, value, ok) => {
    expect(EndpointCreateInputSchema.safeParse({ templateId: "echo", [field]: value }).success).toBe(ok);
  });

  it("refuses workersMin above workersMax on create and update", () => {
    for (const schema of [EndpointCreateInputSchema, EndpointUpdateInputSchema]) {
      const input = { templateId: "echo", workersMin: 3, workersMax: 2 };
      const r = schema.safeParse(input);
      expect(r.success).toBe(false);
      if (r.success) continue;
      expect(fieldProblems(r.error, input)[0]).toMatchObject({
        field: "workersMin",
        rule: "workersMin must not exceed workersMax",
      });
    }
  });
});

describe("job schemas", () => {
  it.each([
    ["executionTimeout", LIMITS.executionTimeoutMs.min, true],
    ["executionTimeout", LIMITS.executionTimeoutMs.min - 1, false],
    ["executionTimeout", LIMITS.executionTimeoutMs.max, true],
    ["executionTimeout", LIMITS.executionTimeoutMs.max + 1, false],
    ["ttl", LIMITS.ttlMs.min, true],
    ["ttl", LIMITS.ttlMs.min - 1, false],
    ["ttl", LIMITS.ttlMs.max, true],
    ["ttl", LIMITS.ttlMs.max + 1, false],
  ])("policy.%s = %s is valid: %s", (field, value, ok) => {
    expect(JobPolicySchema.safeParse({ [field]: value }).success).toBe(ok);
  });

  it.each([
    [999, false],
    [1000, true],
    [300_000, true],
    [300_001, false],
  ])("runsync wait %s is valid: %s", (wait, ok) => {
    expect(RunSyncWaitSchema.safeParse(wait).success).toBe(ok);
  });

  it("requires input to be an object and webhook to be a URL", () => {
    expect(JobRequestSchema.safeParse({ input: {} }).success).toBe(true);
    expect(JobRequestSchema.safeParse({ input: "x" }).success).toBe(false);
    expect(JobRequestSchema.safeParse({}).success).toBe(false);
    expect(JobRequestSchema.safeParse({ input: {}, webhook: "not a url" }).success).toBe(false);
    expect(JobRequestSchema.safeParse({ input: {}, webhook: "http://127.0.0.1:9/hook" }).success).toBe(true);
  });

  it("never echoes object-storage secrets in problems", () => {
    const input = { input: {}, s3Config: { accessId: "AKIA", accessSecret: 42, bucketName: "b", endpointUrl: "u" } };
    const r = JobRequestSchema.safeParse(input);
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(fieldProblems(r.error, input)).toEqual([
      { field: "s3Config.accessSecret", value: "[secret]", rule: expect.any(String) },
    ]);
  });
});

describe("renderValue", () => {
  it("describes a value too deeply nested to serialize instead of throwing", async () => {
    const { renderValue } = await import("../../../sdk/schemas");
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(renderValue(deep)).toBe("[array]");
    expect(renderValue({ a: 1n })).toBe("[object]");
  });
});

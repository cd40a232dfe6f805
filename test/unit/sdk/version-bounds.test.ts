import { describe, expect, it } from "vitest";
import { RequestValidationError } from "../../../sdk/errors";
import { validateForVersion } from "../../../sdk/request-validation";
import { ENDPOINT_DEFAULTS, ENDPOINT_DEFAULTS_BY_VERSION } from "../../../sdk/schemas/endpoint-defaults";
import { NetworkVolumeCreateInputShape, NetworkVolumeUpdateInputShape } from "../../../sdk/schemas/network-volume";
import { versionBoundProblems } from "../../../sdk/schemas/version-bounds";
import { openApiDocument } from "../provider/openapi-request-bounds";

/** The version-neutral client refuses, before sending, what the version it talks bounds differently. */
describe("bounds per management API version, in the client", () => {
  const volume = { name: "models", dataCenterId: "EU-RO-1" };
  const create = (size: number, version: "v1" | "v2") =>
    validateForVersion(
      NetworkVolumeCreateInputShape,
      { ...volume, size },
      "create network volume",
      "networkVolume",
      version,
    );

  it("takes a volume of 10 to 4096 GB on v2 and 0 to 4000 GB on v1", () => {
    expect(create(4096, "v2").size).toBe(4096);
    expect(create(10, "v2").size).toBe(10);
    expect(create(0, "v1").size).toBe(0);
    expect(create(4000, "v1").size).toBe(4000);
  });

  it.each([
    [5, "v2", "size = 5: must be at least 10 GB (on management API v2)"],
    [4097, "v2", "size = 4097: must be at most 4096 GB (on management API v2)"],
    [4001, "v1", "size = 4001: must be at most 4000 GB (on management API v1)"],
  ] as const)("refuses %s GB on %s, naming the field, the value, the rule and the version", (size, version, text) => {
    expect(() => create(size, version)).toThrow(RequestValidationError);
    expect(() => create(size, version)).toThrow(text);
  });

  it("bounds an update's size the same way", () => {
    const update = (size: number) =>
      validateForVersion(NetworkVolumeUpdateInputShape, { size }, "update network volume v1", "networkVolume", "v2");
    expect(update(4096).size).toBe(4096);
    expect(() => update(9)).toThrow("size = 9: must be at least 10 GB (on management API v2)");
  });
});

describe("versionBoundProblems", () => {
  it("allows v2's pod volume of 0 GB, which means none, and names that in the rule", () => {
    const gpuPod = { gpuTypeIds: ["NVIDIA L4"] };
    expect(versionBoundProblems("pod", "v2", { ...gpuPod, volumeInGb: 0 })).toEqual([]);
    expect(versionBoundProblems("pod", "v2", { ...gpuPod, volumeInGb: 5 })).toEqual([
      {
        field: "volumeInGb",
        value: "5",
        rule: "must be at least 10 GB (on management API v2) for a pod volume; 0 means no pod volume",
      },
    ]);
    expect(versionBoundProblems("pod", "v1", { ...gpuPod, volumeInGb: 5 })).toEqual([]);
  });

  it("judges a value only where the version sends it", () => {
    // A CPU pod and a pod on a network volume take no pod volume: volumeInGb is not sent.
    expect(versionBoundProblems("pod", "v2", { computeType: "CPU", volumeInGb: 5 })).toEqual([]);
    expect(versionBoundProblems("pod", "v2", { networkVolumeId: "vol1", volumeInGb: 5 })).toEqual([]);
    // vCPUs are sent for a CPU endpoint only.
    expect(versionBoundProblems("endpoint", "v2", { vcpuCount: 1 })).toEqual([]);
    expect(versionBoundProblems("endpoint", "v2", { computeType: "CPU", vcpuCount: 1 })).toEqual([
      { field: "vcpuCount", value: "1", rule: "must be at least 2 (on management API v2) for a CPU worker" },
    ]);
  });

  it("judges only the fields the caller asks for", () => {
    expect(versionBoundProblems("networkVolume", "v2", { size: 5 }, (f) => f !== "size")).toEqual([]);
  });

  it("leaves values of another type to the schema", () => {
    expect(versionBoundProblems("networkVolume", "v2", { size: "5" })).toEqual([]);
  });
});

describe("the endpoint defaults of each version", () => {
  type Prop = { default?: unknown; allOf?: { $ref?: string }[]; properties?: Record<string, Prop>; $ref?: string };
  type Schema = { allOf?: Schema[]; properties?: Record<string, Prop> };

  /** The `default`s an OpenAPI create body states, by dotted field (`workers.max`), its `allOf` parts merged. */
  function statedDefaults(version: "v1" | "v2", schemaName: string): Record<string, unknown> {
    const doc = openApiDocument(version) as unknown as { components: { schemas: Record<string, Schema> } };
    const out: Record<string, unknown> = {};
    const walk = (schema: Schema | Prop | undefined, at: string) => {
      if (!schema) return;
      const s = "$ref" in schema && schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()!]! : schema;
      if ("default" in s && s.default !== undefined && at) out[at] = s.default;
      for (const part of s.allOf ?? []) walk(part as Schema, at);
      for (const [name, child] of Object.entries(s.properties ?? {})) walk(child, at ? `${at}.${name}` : name);
    };
    walk(doc.components.schemas[schemaName], "");
    return out;
  }

  it("are v1's OpenAPI defaults", () => {
    const v1 = statedDefaults("v1", "EndpointCreateInput");
    const d = ENDPOINT_DEFAULTS_BY_VERSION.v1;
    expect({
      computeType: v1.computeType,
      gpuCount: v1.gpuCount,
      idleTimeout: v1.idleTimeout,
      scalerType: v1.scalerType,
      scalerValue: v1.scalerValue,
      vcpuCount: v1.vcpuCount,
    }).toEqual({
      computeType: d.computeType,
      gpuCount: d.gpuCount,
      idleTimeout: d.idleTimeout,
      scalerType: d.scalerType,
      scalerValue: d.scalerValue,
      vcpuCount: d.vcpuCount,
    });
    expect(ENDPOINT_DEFAULTS).toBe(d);
  });

  it("are v2's OpenAPI defaults, in the version-neutral names", () => {
    const v2 = statedDefaults("v2", "CreateEndpointRequest");
    const d = ENDPOINT_DEFAULTS_BY_VERSION.v2;
    expect(v2).toMatchObject({
      "gpu.count": d.gpuCount,
      "workers.min": d.workersMin,
      "workers.max": d.workersMax,
      "workers.idleTimeout": d.idleTimeout,
      timeout: d.executionTimeoutMs,
      flashboot: d.flashboot ? "FLASHBOOT" : "OFF",
    });
  });
});

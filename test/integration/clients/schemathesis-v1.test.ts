import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KEY, useTestEmulator } from "../emulator/helpers";
import { amended, type OpenApiDoc, V1_AMENDMENTS, V1_NOT_SERVED } from "./openapi-amendments";
import { type FixedParameters, runSchemathesis } from "./schemathesis-run";

/**
 * schemathesis (property-based testing from PyPI, pinned in requirements.txt) over the platform's
 * management API v1 OpenAPI document against the emulator: every operation with the document's
 * examples, its coverage cases (boundaries, missing and malformed values) and generated inputs,
 * and stateful sequences along the links it infers (create, then read, update, delete). The
 * reads by id also get resources that exist, with a network volume on the pod, so their answers
 * are checked against the response schemas, not only their 404s.
 */
const DOC = JSON.parse(
  readFileSync(path.join(__dirname, "../emulator/fixtures/management-api-v1.openapi.json"), "utf8"),
) as OpenApiDoc;

const ctx = useTestEmulator({}, "file");

async function created(route: string, body: Record<string, unknown>): Promise<string> {
  const res = await ctx.api.post(route, body);
  if (res.status >= 300) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Fixed ids for every operation that names a resource, except deletes (which would take it from the rest). */
function fixedIds(ids: Record<string, string>): FixedParameters {
  const fixed: FixedParameters = {};
  for (const [route, item] of Object.entries(DOC.paths)) {
    for (const method of Object.keys(item).filter((m) => ["get", "post", "patch", "put"].includes(m))) {
      const names = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      if (names.length === 0) continue;
      fixed[`${method.toUpperCase()} ${route}`] = Object.fromEntries(names.map((n) => [n, ids[n]!]));
    }
  }
  return fixed;
}

describe("schemathesis over the management API v1 document", () => {
  it("finds no server error, and every answer conforms to the document (amended where the platform differs)", async () => {
    const networkVolumeId = await created("/v1/networkvolumes", { name: "data", size: 20, dataCenterId: "EU-RO-1" });
    const templateId = await created("/v1/templates", {
      name: "worker",
      imageName: "ghcr.io/acme/echo:1.0",
      isServerless: true,
    });
    const ids = {
      networkVolumeId,
      templateId,
      podId: await created("/v1/pods", {
        name: "with-volume",
        imageName: "runpod/pytorch:2.1.0",
        gpuTypeIds: ["NVIDIA L4"],
        gpuCount: 1,
        dataCenterIds: ["EU-RO-1"],
        networkVolumeId,
      }),
      endpointId: await created("/v1/endpoints", { name: "api", templateId }),
      containerRegistryAuthId: await created("/v1/containerregistryauth", {
        name: "ghcr",
        username: "bot",
        password: "not-a-real-password",
      }),
    };
    const { report, output } = await runSchemathesis({
      doc: amended(DOC, V1_AMENDMENTS),
      baseUrl: ctx.emu.apiUrlV1,
      key: KEY,
      fixed: fixedIds(ids),
      exclude: V1_NOT_SERVED,
    });
    expect(report.errors, output).toEqual([]);
    expect(report.failures, output).toEqual([]);
    expect(report.operations.tested).toBe(report.operations.total - V1_NOT_SERVED.length);
    expect(report.test_cases.generated).toBeGreaterThan(300);
  }, 900_000);
});

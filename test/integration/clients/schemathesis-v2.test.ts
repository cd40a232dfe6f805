import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KEY, useTestEmulator } from "../emulator/helpers";
import { amended, type OpenApiDoc, V2_AMENDMENTS } from "./openapi-amendments";
import { type FixedParameters, runSchemathesis } from "./schemathesis-run";

/**
 * schemathesis over the platform's management API v2 OpenAPI document against the emulator (see
 * schemathesis-v1.test.ts for what a run does). The reads and updates by id get resources that
 * exist; the pod actions get a pod of their own, since `terminate` removes it.
 */
const DOC = JSON.parse(
  readFileSync(path.join(__dirname, "../emulator/fixtures/management-api-v2.openapi.json"), "utf8"),
) as OpenApiDoc;

const ctx = useTestEmulator({}, "file");

async function created(route: string, body: Record<string, unknown>): Promise<string> {
  const res = await ctx.api.post(route, body);
  if (res.status >= 300) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const POD = {
  image: "runpod/pytorch:2.1.0",
  gpu: { id: "NVIDIA L4", count: 1 },
  dataCenterIds: ["EU-RO-1"],
};

describe("schemathesis over the management API v2 document", () => {
  it("finds no server error, and every answer conforms to the document (amended where the platform differs)", async () => {
    const volume = await created("/v2/network-volumes", { name: "data", size: 20, dataCenter: "EU-RO-1" });
    const ids: Record<string, string> = {
      "/v2/network-volumes/": volume,
      "/v2/pods/{id}/action": await created("/v2/pods", { ...POD, name: "acted-on" }),
      "/v2/pods/": await created("/v2/pods", {
        ...POD,
        name: "with-volume",
        mounts: { network: [{ volumeId: volume, path: "/data" }] },
      }),
      "/v2/serverless/": await created("/v2/serverless", {
        name: "api",
        type: "QUEUE",
        image: "ghcr.io/acme/echo:1.0",
        gpu: { pools: ["ADA_24"] },
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      }),
      "/v2/templates/": await created("/v2/templates", { name: "worker", image: "ghcr.io/acme/echo:1.0" }),
      "/v2/registries/": await created("/v2/registries", { name: "ghcr", username: "bot", password: "not-real" }),
      "/v2/clusters/": await created("/v2/clusters", {
        name: "c",
        type: "TRAINING",
        image: "img:1",
        compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 1, podCount: 2 },
      }),
      "/v2/catalog/gpus/": "NVIDIA L4",
      "/v2/catalog/cpus/": "cpu3c",
      "/v2/catalog/datacenters/": "EU-RO-1",
    };
    const fixed: FixedParameters = {};
    for (const [route, item] of Object.entries(DOC.paths)) {
      const key = ids[route] ? route : Object.keys(ids).find((prefix) => route.startsWith(prefix));
      if (!key || route.includes("{workerId}") || route.includes("/delegations/")) continue;
      for (const method of Object.keys(item).filter((m) => ["get", "post", "patch", "put"].includes(m))) {
        fixed[`${method.toUpperCase()} ${route}`] = { id: ids[key]! };
      }
    }
    const { report, output } = await runSchemathesis({
      doc: amended(DOC, V2_AMENDMENTS),
      baseUrl: ctx.emu.url,
      key: KEY,
      fixed,
    });
    expect(report.errors, output).toEqual([]);
    expect(report.failures, output).toEqual([]);
    expect(report.operations.tested).toBe(report.operations.total);
    expect(report.test_cases.generated).toBeGreaterThan(1000);
  }, 900_000);
});

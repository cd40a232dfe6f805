import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";
import { COLLECTION, conforms, endpointCreator, ITEM } from "./v2-serverless-fixture";

/*
 * One endpoint record answered in both dialects: an endpoint created through one management API
 * version is read, updated and run through the other.
 */

const { api } = useTestEmulator({}, "file");
const create = endpointCreator(api);

describe("one endpoint in two dialects", () => {
  it("reads a v1 endpoint through v2: its types as pools minus the others, its template's container", async () => {
    const v1 = (
      await api.post("/v1/endpoints", {
        name: "legacy",
        templateId: "echo",
        gpuTypeIds: ["NVIDIA L4", "NVIDIA GeForce RTX 4090"],
        flashboot: true,
      })
    ).body;
    const seen = conforms("GET", ITEM, await api.get(`${COLLECTION}/${v1.id}`)).body;
    expect(seen.gpu.pools).toEqual(["AMPERE_24", "ADA_24"]);
    expect(seen.gpu.excludedTypes).toEqual(["NVIDIA RTX A5000", "NVIDIA GeForce RTX 3090"]);
    expect(seen).toMatchObject({ type: "QUEUE", image: "runpod-iac-emulator/echo:latest", flashboot: "FLASHBOOT" });
    expect(seen.templateId).toBeUndefined();

    // Updated through v2, read through v1: still v1's shape, with the new selection as types.
    await api.patch(`${COLLECTION}/${v1.id}`, { gpu: { pools: ["ADA_24"] }, flashboot: "PRIORITY_FLASHBOOT" });
    const back = (await api.get(`/v1/endpoints/${v1.id}`)).body;
    expect(back).toMatchObject({ gpuTypeIds: ["NVIDIA GeForce RTX 4090"], flashboot: true, templateId: "echo" });
    expect(openApiProblems("Endpoint", back, ["flashboot", "cpuFlavorIds", "vcpuCount"])).toEqual([]);
  });

  it("reads a v2 endpoint through v1 without v2's fields, and runs its jobs either way", async () => {
    const e = await create({ name: "both", gpu: { pools: ["AMPERE_16"], excludedTypes: ["NVIDIA RTX A4500"] } });
    const v1 = (await api.get(`/v1/endpoints/${e.id}`)).body;
    expect(v1).toMatchObject({
      id: e.id,
      name: "both",
      computeType: "GPU",
      gpuTypeIds: ["NVIDIA RTX A4000", "NVIDIA RTX 4000 Ada Generation", "NVIDIA RTX 2000 Ada Generation"],
      workersMax: 2,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      flashboot: false,
    });
    for (const v2Only of ["type", "gpuPools", "image", "requestUrls", "releases", "gpu", "workers"])
      expect(v1).not.toHaveProperty(v2Only);
    expect(openApiProblems("Endpoint", v1, ["flashboot", "cpuFlavorIds", "vcpuCount"])).toEqual([]);
    const updated = (await api.patch(`/v1/endpoints/${e.id}`, { workersMax: 4, gpuTypeIds: ["NVIDIA L4"] })).body;
    expect(updated).toMatchObject({ workersMax: 4, gpuTypeIds: ["NVIDIA L4"] });
    const seen = (await api.get(`${COLLECTION}/${e.id}`)).body;
    expect(seen.workers.max).toBe(4);
    expect(seen.gpu.pools).toEqual(["AMPERE_24"]);
    expect((await api.post(`/v2/${e.id}/runsync`, { input: { x: 1 } })).body.output).toEqual({ x: 1 });
    expect((await api.del(`/v1/endpoints/${e.id}`)).status).toBe(204);
    expect((await api.get(`${COLLECTION}/${e.id}`)).status).toBe(404);
  });
});

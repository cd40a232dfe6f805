import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { DATA_CENTER_IDS } from "../../../sdk/schemas";
import { useTestEmulator } from "./helpers";

/**
 * Open value sets: the emulator plays the platform, so it judges membership against its snapshot of GPU
 * types, data centers, CUDA versions and CPU flavors; a test adds what the real platform added
 * after this release (`additionalGpuTypeIds` and the like) and deploys against it.
 */
const NEW_GPU = "NVIDIA B300";
const ctx = useTestEmulator({}, "manual");

describe("the emulator's known GPU types, data centers, CUDA versions and CPU flavors", () => {
  it("refuses an endpoint with a GPU type it does not know, naming the field, the value and the rule", async () => {
    const { api } = await ctx.start();
    const res = await api.post("/v1/endpoints", { templateId: "echo", gpuTypeIds: ["NVIDIA L4", NEW_GPU] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: "bad_request",
      message: 'gpuTypeIds.1 = "NVIDIA B300": is not a GPU type the platform knows',
      problems: [{ field: "gpuTypeIds.1", value: '"NVIDIA B300"', rule: "is not a GPU type the platform knows" }],
    });
    expect((await api.get("/v1/endpoints")).body).toEqual([]);
  });

  it("creates and updates an endpoint with a GPU type it was told about", async () => {
    const { api } = await ctx.start({ additionalGpuTypeIds: [NEW_GPU] });
    const created = await api.post("/v1/endpoints", { templateId: "echo", gpuTypeIds: [NEW_GPU, "NVIDIA L4"] });
    expect(created.status).toBe(200);
    expect(created.body.gpuTypeIds).toEqual([NEW_GPU, "NVIDIA L4"]);
    const updated = await api.patch(`/v1/endpoints/${created.body.id}`, { gpuTypeIds: ["NVIDIA L4", NEW_GPU] });
    expect(updated.status).toBe(200);
    expect(updated.body.gpuTypeIds).toEqual(["NVIDIA L4", NEW_GPU]);
  });

  it("refuses an update to a GPU type it does not know and keeps the endpoint as it was", async () => {
    const { api } = await ctx.start();
    const created = await api.post("/v1/endpoints", { templateId: "echo", gpuTypeIds: ["NVIDIA L4"] });
    const res = await api.patch(`/v1/endpoints/${created.body.id}`, { gpuTypeIds: [NEW_GPU] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('gpuTypeIds.0 = "NVIDIA B300": is not a GPU type the platform knows');
    expect((await api.get(`/v1/endpoints/${created.body.id}`)).body.gpuTypeIds).toEqual(["NVIDIA L4"]);
  });

  it("suggests the known value a case or whitespace variant stands for", async () => {
    const { api } = await ctx.start();
    const res = await api.post("/v1/endpoints", {
      templateId: "echo",
      gpuTypeIds: ["nvidia l4"],
      dataCenterIds: ["eu-ro-1 "],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'gpuTypeIds.0 = "nvidia l4": is not a GPU type the platform knows (did you mean "NVIDIA L4"?); ' +
        'dataCenterIds.0 = "eu-ro-1 ": is not a data center the platform knows (did you mean "EU-RO-1"?)',
    );
  });

  it("judges data centers, CUDA versions and CPU flavors the same way, and takes additions of each", async () => {
    const body = {
      templateId: "echo",
      dataCenterIds: ["AP-SG-1"],
      allowedCudaVersions: ["13.1"],
      minCudaVersion: "13.1",
    };
    const cpu = { templateId: "echo", computeType: "CPU", cpuFlavorIds: ["cpu7c"] };
    const volume = { name: "weights", size: 10, dataCenterId: "AP-SG-1" };
    const plain = await ctx.start();
    const refused = await plain.api.post("/v1/endpoints", body);
    expect(refused.status).toBe(400);
    expect(refused.body.problems.map((p: { field: string }) => p.field)).toEqual([
      "dataCenterIds.0",
      "allowedCudaVersions.0",
      "minCudaVersion",
    ]);
    expect((await plain.api.post("/v1/endpoints", cpu)).body.message).toBe(
      'cpuFlavorIds.0 = "cpu7c": is not a CPU flavor the platform knows',
    );
    expect((await plain.api.post("/v1/networkvolumes", volume)).body.message).toBe(
      'dataCenterId = "AP-SG-1": is not a data center the platform knows',
    );
    await plain.emu.close();

    const told = await ctx.start({
      additionalDataCenterIds: ["AP-SG-1"],
      additionalCudaVersions: ["13.1"],
      additionalCpuFlavorIds: ["cpu7c"],
    });
    expect((await told.api.post("/v1/endpoints", body)).status).toBe(200);
    expect((await told.api.post("/v1/endpoints", cpu)).status).toBe(200);
    expect((await told.api.post("/v1/networkvolumes", volume)).status).toBe(200);
  });

  it("includes an added data center in an endpoint's default data centers", async () => {
    const { api } = await ctx.start({ additionalDataCenterIds: ["AP-SG-1"] });
    const created = await api.post("/v1/endpoints", { templateId: "echo" });
    expect(created.body.dataCenterIds).toEqual([...DATA_CENTER_IDS, "AP-SG-1"]);
  });

  it("refuses to start with an added value no request could carry, naming the option", async () => {
    await expect(startEmulator({ port: 0, additionalCudaVersions: ["13"] })).rejects.toThrow(
      'emulator options: additionalCudaVersions.0 = "13": must be a CUDA version written major.minor, such as "12.4"',
    );
    await expect(startEmulator({ port: 0, additionalGpuTypeIds: [" "] })).rejects.toThrow(
      'emulator options: additionalGpuTypeIds.0 = " ": must not be empty',
    );
  });
});

import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

const GPU_POD = {
  name: "trainer",
  imageName: "runpod/pytorch:2.1.0",
  gpuTypeIds: ["NVIDIA L4"],
  gpuCount: 1,
  dataCenterIds: ["EU-RO-1"],
  env: { MODEL: "llama" },
  ports: ["8888/http", "22/tcp"],
};

/** Every v1 pod answer a test sees, checked against the v1 OpenAPI `Pod`. */
function conforming(pod: unknown) {
  expect(openApiProblems("Pod", pod)).toEqual([]);
  return pod as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function create(body: Record<string, unknown> = {}) {
  const res = await api.post("/v1/pods", { ...GPU_POD, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return conforming(res.body);
}

describe("v1 pods (/v1/pods)", () => {
  it("creates a GPU pod RUNNING on its GPU type in its data center, priced from the catalog, in the OpenAPI's shape", async () => {
    const pod = await create();
    expect(pod).toMatchObject({
      id: expect.stringMatching(/^[a-z0-9]{14}$/),
      name: "trainer",
      image: "runpod/pytorch:2.1.0",
      desiredStatus: "RUNNING",
      gpu: { id: "NVIDIA L4", count: 1 },
      costPerHr: 0.43,
      adjustedCostPerHr: 0.43,
      containerDiskInGb: 50,
      volumeInGb: 20,
      volumeMountPath: "/workspace",
      env: { MODEL: "llama" },
      locked: false,
      interruptible: false,
    });
    expect(pod.publicIp).toMatch(/^203\.0\.113\.\d+$/);
    expect(Object.keys(pod.portMappings)).toEqual(["22"]);
    const machine = await api.get(`/v1/pods/${pod.id}?includeMachine=true&includeSavingsPlans=true`);
    expect(conforming(machine.body)).toMatchObject({
      machine: { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA L4", secureCloud: true },
      savingsPlans: [],
    });
    const plain = await api.get(`/v1/pods/${pod.id}`);
    expect(plain.body.machine).toBeUndefined();
  });

  it("stops (EXITED, no address), starts (RUNNING), restarts, and deletes (then 404)", async () => {
    const pod = await create();
    const stopped = await api.post(`/v1/pods/${pod.id}/stop`);
    expect(conforming(stopped.body)).toMatchObject({ desiredStatus: "EXITED", publicIp: null, portMappings: null });
    expect((await api.post(`/v1/pods/${pod.id}/stop`)).status).toBe(200);
    expect((await api.post(`/v1/pods/${pod.id}/restart`)).status).toBe(400);
    const started = await api.post(`/v1/pods/${pod.id}/start`);
    expect(conforming(started.body).desiredStatus).toBe("RUNNING");
    await ctx.clock.advance(5_000);
    const restarted = await api.post(`/v1/pods/${pod.id}/restart`);
    expect(conforming(restarted.body).lastStatusChange).toMatch(/^Restarted by User/);
    expect((await api.del(`/v1/pods/${pod.id}`)).status).toBe(204);
    expect((await api.get(`/v1/pods/${pod.id}`)).status).toBe(404);
    expect((await api.post(`/v1/pods/${pod.id}/start`)).status).toBe(404);
  });

  it("resets a pod: the container disk is wiped (counted, and said in lastStatusChange), the pod keeps running", async () => {
    const pod = await create();
    const reset = await api.post(`/v1/pods/${pod.id}/reset`);
    expect(conforming(reset.body)).toMatchObject({
      desiredStatus: "RUNNING",
      lastStatusChange: expect.stringMatching(/^Reset by User: container disk wiped/),
    });
    const state = await api.get("/_emulator/state");
    expect(state.body.pods.find((p: { id: string }) => p.id === pod.id).containerDiskWipes).toBe(1);
  });

  it("updates name and locked in place with PATCH, and resets with POST .../update or a PATCH of another field", async () => {
    const pod = await create();
    const renamed = await api.patch(`/v1/pods/${pod.id}`, { name: "renamed", locked: true });
    expect(conforming(renamed.body)).toMatchObject({
      name: "renamed",
      locked: true,
      lastStatusChange: pod.lastStatusChange,
    });
    const stop = await api.post(`/v1/pods/${pod.id}/stop`);
    expect(stop.status).toBe(400);
    expect(stop.body.message).toMatch(/locked = true: the pod is locked, which disables stopping it/);
    expect((await api.post(`/v1/pods/${pod.id}/reset`)).status).toBe(400);
    expect((await api.post(`/v1/pods/${pod.id}/update`, { imageName: "runpod/pytorch:2.2.0" })).status).toBe(400);
    const updated = await api.post(`/v1/pods/${pod.id}/update`, {
      imageName: "runpod/pytorch:2.2.0",
      env: {},
      locked: false,
    });
    expect(conforming(updated.body)).toMatchObject({ image: "runpod/pytorch:2.2.0", env: {}, locked: false });
    expect(updated.body.lastStatusChange).toMatch(/^Reset by update: container disk wiped/);
    const patched = await api.patch(`/v1/pods/${pod.id}`, { ports: ["8888/http"] });
    expect(conforming(patched.body).ports).toEqual(["8888/http"]);
    const state = await api.get("/_emulator/state");
    expect(state.body.pods.find((p: { id: string }) => p.id === pod.id).containerDiskWipes).toBe(2);
  });

  it("lists with the OpenAPI's filters", async () => {
    const gpu = await create({ name: "filter-gpu", gpuTypeIds: ["NVIDIA A40"] });
    const cpu = await create({
      name: "filter-cpu",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      vcpuCount: 4,
      gpuTypeIds: undefined,
    });
    expect(cpu).toMatchObject({ cpuFlavorId: "cpu3c", vcpuCount: 4, memoryInGb: 8, costPerHr: 0.12, volumeInGb: 0 });
    await api.post(`/v1/pods/${gpu.id}/stop`);
    const ids = async (query: string) => {
      const res = await api.get(`/v1/pods?${query}`);
      expect(res.status).toBe(200);
      expect(openApiProblems("Pods", res.body)).toEqual([]);
      return (res.body as { id: string }[]).map((p) => p.id);
    };
    expect(await ids("computeType=CPU")).toEqual([cpu.id]);
    expect(await ids("name=filter-gpu")).toEqual([gpu.id]);
    expect(await ids("gpuTypeId=NVIDIA%20A40")).toEqual([gpu.id]);
    expect(await ids("desiredStatus=EXITED&name=filter-gpu")).toEqual([gpu.id]);
    expect(await ids("desiredStatus=RUNNING&name=filter-gpu")).toEqual([]);
    expect(await ids(`cpuFlavorId=cpu3c,cpu5c&id=${cpu.id}`)).toEqual([cpu.id]);
  });

  it("refuses bad input naming the field, the value and the rule", async () => {
    const bad = await api.post("/v1/pods", { ...GPU_POD, gpuCount: 0, ports: ["http"], cloudType: "MOON" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/gpuCount = 0: must be at least 1/);
    expect(bad.body.message).toMatch(/ports\.0 = "http": must be "<port>\/<http\|tcp>"/);
    expect(bad.body.message).toMatch(/cloudType = "MOON": must be one of SECURE, COMMUNITY/);
    const unknown = await api.post("/v1/pods", { ...GPU_POD, gpuTypeIds: ["NVIDIA X9000"] });
    expect(unknown.body.message).toMatch(/gpuTypeIds\.0 = "NVIDIA X9000": is not a GPU type the platform knows/);
    const place = await api.post("/v1/pods", {
      ...GPU_POD,
      dataCenterIds: ["EU-RO-1", "eu-ro-1"],
      allowedCudaVersions: ["10.1"],
    });
    expect(place.body.message).toMatch(
      /dataCenterIds\.1 = "eu-ro-1": is not a data center the platform knows \(did you mean "EU-RO-1"\?\)/,
    );
    expect(place.body.message).toMatch(/allowedCudaVersions\.0 = "10\.1": is not a CUDA version the platform knows/);
    const noImage = await api.post("/v1/pods", { ...GPU_POD, imageName: undefined });
    expect(noImage.body.message).toMatch(/imageName = undefined: is required unless templateId/);
    const v2Only = await api.post("/v1/pods", { ...GPU_POD, startSsh: true });
    expect(v2Only.body.message).toMatch(
      /startSsh = true: SSH key injection at create \(startSsh\) exist only on management API v2/,
    );
  });

  it("fills a pod from a template of the account, the body winning and env merged", async () => {
    const t = await api.post("/v1/templates", {
      name: "pod-template",
      imageName: "ghcr.io/acme/trainer:1.0",
      env: { A: "template", B: "template" },
      containerDiskInGb: 30,
    });
    const pod = await create({ imageName: undefined, templateId: t.body.id, env: { B: "body" } });
    expect(pod).toMatchObject({
      image: "ghcr.io/acme/trainer:1.0",
      env: { A: "template", B: "body" },
      containerDiskInGb: 30,
      templateId: t.body.id,
    });
  });

  it("keeps accounts apart: another key neither sees nor changes the pod", async () => {
    const pod = await create();
    expect((await other.get(`/v1/pods/${pod.id}`)).status).toBe(404);
    expect((await other.post(`/v1/pods/${pod.id}/stop`)).status).toBe(404);
    expect((await other.del(`/v1/pods/${pod.id}`)).status).toBe(404);
    expect(((await other.get("/v1/pods")).body as unknown[]).length).toBe(0);
    expect((await api.get(`/v1/pods/${pod.id}`)).body.desiredStatus).toBe("RUNNING");
  });
});

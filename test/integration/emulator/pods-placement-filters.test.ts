import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";
import { v2ResponseProblems } from "./openapi-v2";

/*
 * Placement filters (v2's `gpu.minRamPerGpu` and `gpu.minVcpuCountPerGpu`, v1's `minRAMPerGPU` and
 * `minVCPUPerGPU`) over machines of two sizes: standard (8 vCPUs, 62 GB per GPU) and large (16
 * vCPUs, 125 GB). Four L4s in EU-RO-1 and two in US-TX-3, half of each in large machines.
 */
const ctx = useTestEmulator({
  capacity: {
    gpusPerType: 0,
    vcpusPerFlavor: 64,
    stock: { "EU-RO-1": { "NVIDIA L4": 4 }, "US-TX-3": { "NVIDIA L4": 2 } },
    largeMachineShare: 0.5,
  },
});
const { api } = ctx;

const STANDARD = { vcpuCount: 8, memory: 62 };
const LARGE = { vcpuCount: 16, memory: 125 };

async function createV2(gpu: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const res = await api.post("/v2/pods", { name: "p", image: "img:1", gpu: { id: "NVIDIA L4", ...gpu }, ...more });
  expect(v2ResponseProblems("POST", "/v2/pods", res.status, res.body)).toEqual([]);
  return res;
}

/** What a refusal must not have made: pods, or GPUs taken from the stock. */
async function made(): Promise<string> {
  const pods = (await api.get("/v2/pods")).body.pods.length;
  const stock = (await api.get("/v2/catalog/gpus/NVIDIA%20L4?include=AVAILABILITY&product=POD")).body.dataCenters;
  return JSON.stringify([pods, stock]);
}

describe("pod placement filters", () => {
  it("answers the allocation: a pod without filters gets a standard machine, in both dialects", async () => {
    const pod = await createV2({ count: 2 }, { dataCenterIds: ["EU-RO-1"] });
    expect(pod.status).toBe(201);
    expect(pod.body.gpu).toEqual({ id: "NVIDIA L4", count: 2, vcpuCount: 16, memory: 124 });
    const v1 = await api.get(`/v1/pods/${pod.body.id}`);
    expect(openApiProblems("Pod", v1.body)).toEqual([]);
    expect(v1.body).toMatchObject({ vcpuCount: 16, memoryInGb: 124 });
    expect((await api.get(`/v2/pods/${pod.body.id}`)).body.gpu).toEqual(pod.body.gpu);
  });

  it("places a pod only on a machine that meets its filters, and gives it what that machine gives: more than asked", async () => {
    const modest = await createV2({ minRamPerGpu: 32, minVcpuCountPerGpu: 4 });
    expect(modest.status).toBe(201);
    expect(modest.body.gpu).toEqual({ id: "NVIDIA L4", count: 1, ...STANDARD });
    const big = await createV2({ minRamPerGpu: 100 });
    expect(big.status).toBe(201);
    expect(big.body.gpu).toEqual({ id: "NVIDIA L4", count: 1, ...LARGE });
    const cores = await createV2({ minVcpuCountPerGpu: 12 });
    expect(cores.body.gpu).toMatchObject(LARGE);
    // v1 reads the same pod, and its own names are the same filters.
    expect((await api.get(`/v1/pods/${big.body.id}`)).body).toMatchObject({ vcpuCount: 16, memoryInGb: 125 });
    const v1 = await api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minRAMPerGPU: 100 });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ vcpuCount: 16, memoryInGb: 125 });
  });

  it("refuses a filter no machine meets, naming the field, the value and what the most is, and makes nothing", async () => {
    const before = await made();
    const ram = await createV2({ minRamPerGpu: 200 });
    expect(ram.status).toBe(400);
    expect(ram.body.detail).toBe(
      "gpu.minRamPerGpu = 200: there are no instances currently available: no machine offers more than 125 GB of RAM per GPU",
    );
    const vcpus = await api.post("/v1/pods", { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], minVCPUPerGPU: 17 });
    expect(vcpus.status).toBe(400);
    expect(vcpus.body.message).toContain(
      "minVCPUPerGPU = 17: there are no instances currently available: no machine offers more than 16 vCPUs per GPU",
    );
    expect(await made()).toBe(before);
  });

  it("refuses a filter below 1 as v2 refuses a body that breaks its shape, naming the field, the value and the rule", async () => {
    const before = await made();
    for (const gpu of [{ minRamPerGpu: 0 }, { minVcpuCountPerGpu: -2 }, { minRamPerGpu: 1.5 }]) {
      const res = await createV2(gpu);
      expect(res.status).toBe(422);
      const [field, value] = Object.entries(gpu)[0]!;
      expect(res.body.detail).toContain(`gpu.${field} = ${value}: must be`);
    }
    expect(await made()).toBe(before);
  });

  it("refuses when the machines that meet the filters are taken, while a pod without filters still goes on a standard one", async () => {
    const first = await createV2({ count: 2, minRamPerGpu: 100 }, { dataCenterIds: ["EU-RO-1"] });
    expect(first.body.gpu).toMatchObject({ count: 2, vcpuCount: 32, memory: 250 });
    const full = await createV2({ minRamPerGpu: 100 }, { dataCenterIds: ["EU-RO-1"] });
    expect(full.status).toBe(400);
    expect(full.body.detail).toBe(
      'gpu.id = ["NVIDIA L4"]: there are no instances currently available: no GPU type of "NVIDIA L4" has 1 free GPU in data centers "EU-RO-1" in machines meeting gpu.minRamPerGpu = 100',
    );
    expect((await createV2({}, { dataCenterIds: ["EU-RO-1"] })).body.gpu).toMatchObject(STANDARD);
    // Stopped, the pod gives its large machines back; started, it takes them again.
    const stop = await api.post(`/v2/pods/${first.body.id}/action`, { action: "stop" });
    expect(stop.status).toBe(200);
    const second = await createV2({ count: 2, minRamPerGpu: 100 }, { dataCenterIds: ["EU-RO-1"] });
    expect(second.status).toBe(201);
    const start = await api.post(`/v2/pods/${first.body.id}/action`, { action: "start" });
    expect(start.status).toBe(400);
    await api.del(`/v2/pods/${second.body.id}`);
    const started = await api.post(`/v2/pods/${first.body.id}/action`, { action: "start" });
    expect(started.status).toBe(200);
    expect(started.body.gpu).toMatchObject({ vcpuCount: 32, memory: 250 });
  });

  it("puts a pod without filters on a large machine when the standard ones are taken: it gets more", async () => {
    expect((await createV2({}, { dataCenterIds: ["US-TX-3"] })).body.gpu).toMatchObject(STANDARD);
    const spilled = await createV2({}, { dataCenterIds: ["US-TX-3"] });
    expect(spilled.status).toBe(201);
    expect(spilled.body.gpu).toMatchObject(LARGE);
    expect((await createV2({}, { dataCenterIds: ["US-TX-3"] })).status).toBe(400);
  });

  it("gives a cluster's members the smallest machines first, each answering its allocation", async () => {
    const cluster = await api.post("/v2/clusters", {
      name: "c",
      type: "TRAINING",
      image: "img:1",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
      dataCenterIds: ["US-TX-3"],
    });
    expect(cluster.status).toBe(201);
    const members = await api.get(`/v2/clusters/${cluster.body.id}/pods`);
    expect(v2ResponseProblems("GET", "/v2/clusters/{id}/pods", 200, members.body)).toEqual([]);
    expect(members.body.pods.map((p: { gpu: object }) => p.gpu)).toEqual([
      { id: "NVIDIA L4", count: 1, ...STANDARD },
      { id: "NVIDIA L4", count: 1, ...LARGE },
    ]);
  });
});

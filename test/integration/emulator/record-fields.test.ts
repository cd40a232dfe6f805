import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { absentProperties } from "./openapi-fields";
import { openApiProblems } from "./openapi-shape";
import { v2SchemaProblems } from "./openapi-v2";

/*
 * Every field the OpenAPI documents on a record and the emulator knows is in its answers. Each
 * test lists what an answer may leave out, and why the emulator cannot know it (savings plans'
 * prices, a machine's maintenance windows, serverless-only fields on a pod); a documented field
 * absent from an answer and not listed fails the test.
 */
const ctx = useTestEmulator({}, "file");
const { api } = ctx;

// Pods that are not serverless workers, and the platform's facts the emulator does not model.
const POD_UNKNOWN = ["Pod.aiApiId", "Pod.endpointId", "Pod.slsVersion"];
const GPU_PRICES_UNKNOWN = ["oneMonthPrice", "threeMonthPrice", "sixMonthPrice", "oneWeekPrice"];
const MACHINE_UNKNOWN = ["minPodGpuCount", "maintenanceStart", "maintenanceEnd", "maintenanceNote", "note"].map(
  (f) => `Pod.machine.${f}`,
);

async function volume(): Promise<{ id: string; name: string; size: number; dataCenterId: string }> {
  return (await api.post("/v1/networkvolumes", { name: "data", size: 20, dataCenterId: "EU-RO-1" })).body;
}

describe("v1 pods: the network volume and the machine", () => {
  it("names the attached network volume on every answer; includeNetworkVolume adds its name, size and data center", async () => {
    const v = await volume();
    const body = { name: "p", imageName: "runpod/pytorch:2.1.0", gpuTypeIds: ["NVIDIA L4"], networkVolumeId: v.id };
    const created = await api.post("/v1/pods", body);
    expect(created.status).toBe(201);
    expect(created.body.networkVolume).toEqual({ id: v.id });
    const id = created.body.id;
    expect((await api.get(`/v1/pods/${id}`)).body.networkVolume).toEqual({ id: v.id });
    const listed = (await api.get("/v1/pods")).body.find((p: { id: string }) => p.id === id);
    expect(listed.networkVolume).toEqual({ id: v.id });
    const full = (await api.get(`/v1/pods/${id}?includeNetworkVolume=true`)).body;
    expect(full.networkVolume).toEqual({ id: v.id, name: "data", size: 20, dataCenterId: "EU-RO-1" });
    expect(openApiProblems("Pod", full)).toEqual([]);
    expect((await api.post(`/v1/pods/${id}/stop`)).body.networkVolume).toEqual({ id: v.id });
    // A pod without a volume has none to name.
    const bare = (await api.post("/v1/pods", { ...body, networkVolumeId: undefined })).body;
    expect(bare.networkVolume).toBeUndefined();
  });

  it("answers every documented field it knows of a GPU pod, with every include flag", async () => {
    const v = await volume();
    const pod = (
      await api.post("/v1/pods", {
        name: "gpu",
        imageName: "runpod/pytorch:2.1.0",
        gpuTypeIds: ["NVIDIA L4"],
        networkVolumeId: v.id,
        containerRegistryAuthId: (
          await api.post("/v1/containerregistryauth", { name: "r", username: "u", password: "not-real" })
        ).body.id,
      })
    ).body;
    const read = await api.get(
      `/v1/pods/${pod.id}?includeMachine=true&includeNetworkVolume=true&includeSavingsPlans=true`,
    );
    expect(openApiProblems("Pod", read.body)).toEqual([]);
    expect(read.body.machine).toMatchObject({
      diskThroughputMBps: 4000,
      maxDownloadSpeedMbps: 5000,
      maxUploadSpeedMbps: 5000,
      gpuType: { id: "NVIDIA L4", count: 1, displayName: "L4", securePrice: 0.43 },
    });
    expect(absentProperties("v1", "Pod", read.body).sort()).toEqual(
      [
        ...POD_UNKNOWN,
        // A GPU pod has no CPU flavor; its machine's CPU model and count are not modelled.
        "Pod.cpuFlavorId",
        "Pod.machine.cpuCount",
        "Pod.machine.cpuType",
        "Pod.machine.cpuTypeId",
        // Free GPUs are counted per data center, not per machine.
        "Pod.machine.gpuAvailable",
        // No template: the pod was created from an image.
        "Pod.templateId",
        ...MACHINE_UNKNOWN,
        ...GPU_PRICES_UNKNOWN.map((f) => `Pod.gpu.${f}`),
        ...GPU_PRICES_UNKNOWN.map((f) => `Pod.machine.gpuType.${f}`),
      ].sort(),
    );
  });

  it("answers a CPU pod's flavor on its machine", async () => {
    const pod = (
      await api.post("/v1/pods", { name: "cpu", imageName: "python:3.12", computeType: "CPU", cpuFlavorIds: ["cpu3c"] })
    ).body;
    const read = (await api.get(`/v1/pods/${pod.id}?includeMachine=true`)).body;
    expect(openApiProblems("Pod", read)).toEqual([]);
    expect(read.machine).toMatchObject({
      cpuTypeId: "cpu3c",
      cpuType: { id: "cpu3c", displayName: "Compute-Optimized (3rd gen)" },
      cpuCount: read.vcpuCount,
    });
  });
});

describe("v1 endpoints: network volumes and workers", () => {
  it("lists the network volume in networkVolumeIds too, and answers its workers as pods", async () => {
    const v = await volume();
    const e = (
      await api.post("/v1/endpoints", {
        name: "api",
        templateId: "echo",
        gpuTypeIds: ["NVIDIA L4"],
        networkVolumeId: v.id,
        workersMin: 1,
      })
    ).body;
    expect(e).toMatchObject({ networkVolumeId: v.id, networkVolumeIds: [v.id] });
    const read = (await api.get(`/v1/endpoints/${e.id}?includeWorkers=true&includeTemplate=true`)).body;
    expect(openApiProblems("Endpoint", read, ["flashboot"])).toEqual([]);
    expect(read.workers).toHaveLength(1);
    expect(read.workers[0]).toMatchObject({
      desiredStatus: "RUNNING",
      endpointId: e.id,
      templateId: "echo",
      image: "runpod-iac-emulator/echo:latest",
      gpu: { id: "NVIDIA L4", count: 1, displayName: "L4" },
      costPerHr: expect.any(Number),
      networkVolume: { id: v.id, name: "data", size: 20, dataCenterId: "EU-RO-1" },
      interruptible: false,
    });
    expect(read.workers[0].costPerHr).toBeGreaterThan(0);
    expect(absentProperties("v1", "Endpoint", read).sort()).toEqual(
      [
        // Not set at create, and with no default the document gives.
        "Endpoint.allowedCudaVersions",
        "Endpoint.minCudaVersion",
        // CPU endpoints only.
        "Endpoint.instanceIds",
        // The handler's template pulls with no registry credential; nor do its workers.
        "Endpoint.template.containerRegistryAuthId",
        "Endpoint.workers[0].containerRegistryAuthId",
        "Endpoint.workers[0].cpuFlavorId",
        // A worker is not a pod one rents: no machine, savings plans, address or serverless version.
        "Endpoint.workers[0].aiApiId",
        "Endpoint.workers[0].machine",
        "Endpoint.workers[0].portMappings",
        "Endpoint.workers[0].publicIp",
        "Endpoint.workers[0].savingsPlans",
        "Endpoint.workers[0].slsVersion",
        "Endpoint.workers[0].volumeMountPath",
        ...GPU_PRICES_UNKNOWN.map((f) => `Endpoint.workers[0].gpu.${f}`),
        "Endpoint.workers[0].gpu.secureSpotPrice",
        "Endpoint.workers[0].gpu.communitySpotPrice",
      ].sort(),
    );
  });
});

describe("v2 clusters: the primary's SSH endpoint and the members' roles", () => {
  const cluster = (type: string, ports: string[]) =>
    api.post("/v2/clusters", {
      name: `c-${type.toLowerCase()}`,
      type,
      image: "img:1",
      ports,
      compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 1, podCount: 2 },
    });

  it("gives a running primary with 22/tcp its sshEndpoint, the address its own ssh.direct names", async () => {
    const c = (await cluster("SLURM", ["22/tcp"])).body;
    expect(v2SchemaProblems("Cluster", c)).toEqual([]);
    const pods = (await api.get(`/v2/clusters/${c.id}/pods`)).body.pods;
    const direct = pods[0].ssh.direct;
    expect(c.primary).toEqual({ podId: pods[0].id, status: "RUNNING", sshEndpoint: `${direct.host}:${direct.port}` });
    expect((await api.get(`/v2/clusters/${c.id}`)).body.primary.sshEndpoint).toBe(c.primary.sshEndpoint);
    const without = (await cluster("TRAINING", ["8888/http"])).body;
    expect(without.primary.sshEndpoint).toBeUndefined();
  });

  it("gives SLURM and RAY members their roles (rank 0 the entry node), TRAINING members none", async () => {
    const roles = async (type: string) => {
      const c = (await cluster(type, [])).body;
      const pods = (await api.get(`/v2/clusters/${c.id}/pods`)).body.pods;
      for (const p of pods) expect(v2SchemaProblems("Pod", p)).toEqual([]);
      const viaPods = (await api.get(`/v2/pods/${pods[1].id}`)).body.cluster.role;
      return [...pods.map((p: { cluster: { role?: string } }) => p.cluster.role), viaPods];
    };
    expect(await roles("SLURM")).toEqual(["SLURM_CONTROLLER", "SLURM_COMPUTE", "SLURM_COMPUTE"]);
    expect(await roles("RAY")).toEqual(["RAY_HEAD", "RAY_WORKER", "RAY_WORKER"]);
    expect(await roles("TRAINING")).toEqual([undefined, undefined, undefined]);
  });
});

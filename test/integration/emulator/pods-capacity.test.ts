import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";
import { v2ResponseProblems } from "./openapi-v2";

/** Two L4s in EU-RO-1, one in US-TX-3, nothing else anywhere: every test starts its own emulator. */
const STOCK = {
  gpusPerType: 0,
  vcpusPerFlavor: 0,
  stock: { "EU-RO-1": { "NVIDIA L4": 2 }, "US-TX-3": { "NVIDIA L4": 1 } },
};
const ctx = useTestEmulator({ capacity: STOCK });
const { api } = ctx;

const L4_POD = { imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], gpuCount: 1 };

async function createV1(body: Record<string, unknown>) {
  const res = await api.post("/v1/pods", { ...L4_POD, ...body });
  if (res.status === 201) expect(openApiProblems("Pod", res.body)).toEqual([]);
  return res;
}

describe("pods on finite capacity", () => {
  it("places pods until the stock is gone, fails the next saying what could not be found, and frees GPUs on stop", async () => {
    const a = await createV1({ dataCenterIds: ["EU-RO-1"], gpuCount: 2 });
    expect(a.status).toBe(201);
    const full = await createV1({ dataCenterIds: ["EU-RO-1"] });
    expect(full.status).toBe(400);
    expect(full.body.message).toContain(
      'there are no instances currently available: no GPU type of "NVIDIA L4" has 1 free GPU in data centers "EU-RO-1"',
    );
    // The catalog reads the same stock.
    const level = await api.get("/v2/catalog/gpus/NVIDIA%20L4?include=AVAILABILITY&product=POD");
    expect(level.body.dataCenters.find((d: { id: string }) => d.id === "EU-RO-1").availability).toBe("NONE");
    expect((await api.post(`/v1/pods/${a.body.id}/stop`)).status).toBe(200);
    const b = await createV1({ dataCenterIds: ["EU-RO-1"] });
    expect(b.status).toBe(201);
    // A start must find its machine's GPUs again: only one of the two is free now.
    const start = await api.post(`/v1/pods/${a.body.id}/start`);
    expect(start.status).toBe(400);
    expect(start.body.message).toMatch(/the pod's machine in EU-RO-1 has not 2 GPUs of NVIDIA L4 free/);
    await api.del(`/v1/pods/${b.body.id}`);
    expect((await api.post(`/v1/pods/${a.body.id}/start`)).status).toBe(200);
  });

  it("gives a reset account's GPUs back to the stock", async () => {
    expect((await createV1({ dataCenterIds: ["US-TX-3"] })).status).toBe(201);
    expect((await createV1({ dataCenterIds: ["US-TX-3"] })).status).toBe(400);
    expect((await api.post("/_emulator/reset")).status).toBe(204);
    expect((await createV1({ dataCenterIds: ["US-TX-3"] })).status).toBe(201);
  });

  it("orders data centers by availability by default and by the list with dataCenterPriority custom", async () => {
    const available = await createV1({ dataCenterIds: ["US-TX-3", "EU-RO-1"] });
    expect(available.body.id).toBeDefined();
    const where = async (id: string) => (await api.get(`/v1/pods/${id}?includeMachine=true`)).body.machine.dataCenterId;
    expect(await where(available.body.id)).toBe("EU-RO-1");
    const custom = await createV1({ dataCenterIds: ["US-TX-3", "EU-RO-1"], dataCenterPriority: "custom" });
    expect(await where(custom.body.id)).toBe("US-TX-3");
  });

  it("places a pod mounting a network volume in the volume's data center only", async () => {
    const volume = await api.post("/v1/networkvolumes", { name: "data", size: 10, dataCenterId: "US-TX-3" });
    const pod = await createV1({ networkVolumeId: volume.body.id, volumeMountPath: "/data" });
    expect(pod.status).toBe(201);
    const read = await api.get(`/v1/pods/${pod.body.id}?includeMachine=true&includeNetworkVolume=true`);
    expect(openApiProblems("Pod", read.body)).toEqual([]);
    expect(read.body).toMatchObject({
      machine: { dataCenterId: "US-TX-3" },
      networkVolume: { id: volume.body.id, dataCenterId: "US-TX-3", size: 10 },
      volumeInGb: 0,
      volumeMountPath: "/data",
    });
    // US-TX-3's one L4 is taken: the next pod on that volume cannot go elsewhere.
    const second = await createV1({ networkVolumeId: volume.body.id });
    expect(second.status).toBe(400);
    expect(second.body.message).toContain('in data centers "US-TX-3"');
    const wrong = await createV1({ networkVolumeId: volume.body.id, dataCenterIds: ["EU-RO-1"] });
    expect(wrong.body.message).toMatch(
      /dataCenterIds = \["EU-RO-1"\]: must include US-TX-3, the data center of network volume/,
    );
    const v2 = await api.post("/v2/pods", {
      name: "v2",
      image: "img:1",
      gpu: { id: "NVIDIA L4" },
      mounts: { network: [{ volumeId: volume.body.id, path: "/data" }] },
    });
    expect(v2.status).toBe(400);
    expect(v2ResponseProblems("POST", "/v2/pods", 400, v2.body)).toEqual([]);
  });

  it("preempts an interruptible pod by the admin route: EXITED at half price, its GPUs freed", async () => {
    const spot = await createV1({ interruptible: true, dataCenterIds: ["US-TX-3"] });
    expect(spot.body).toMatchObject({ interruptible: true, costPerHr: 0.215 });
    const onDemand = await createV1({ dataCenterIds: ["EU-RO-1"] });
    expect((await api.post(`/_emulator/pods/${onDemand.body.id}/preempt`)).status).toBe(400);
    const preempted = await api.post(`/_emulator/pods/${spot.body.id}/preempt`);
    expect(preempted.status).toBe(200);
    const read = await api.get(`/v1/pods/${spot.body.id}`);
    expect(read.body).toMatchObject({ desiredStatus: "EXITED", lastStatusChange: expect.stringMatching(/^Preempted/) });
    const v2 = await api.get(`/v2/pods/${spot.body.id}`);
    expect(v2.body).toMatchObject({ status: "EXITED", actions: ["start", "terminate"] });
    expect((await createV1({ dataCenterIds: ["US-TX-3"] })).status).toBe(201);
  });

  it("places a cluster's pods in one data center from the same stock, and frees them on delete", async () => {
    const body = {
      name: "c",
      type: "TRAINING",
      image: "img:1",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
    };
    const cluster = await api.post("/v2/clusters", body);
    expect(cluster.status).toBe(201);
    expect(v2ResponseProblems("POST", "/v2/clusters", 201, cluster.body)).toEqual([]);
    expect(cluster.body).toMatchObject({
      dataCenterId: "EU-RO-1",
      pods: { total: 2, byStatus: { RUNNING: 2 } },
      compute: body.compute,
    });
    // Three L4s in all, two per data center at most: a second cluster of two does not fit anywhere.
    const second = await api.post("/v2/clusters", body);
    expect(second.status).toBe(400);
    expect(second.body.detail).toBe(
      'compute.gpuTypeId = "NVIDIA L4": there are no instances currently available: no data center has 2 GPUs of "NVIDIA L4" free (2 pods of 1 GPU, all in one data center)',
    );
    expect(v2ResponseProblems("POST", "/v2/clusters", 400, second.body)).toEqual([]);
    // Narrowed to data centers, the refusal names them; one free GPU in US-TX-3 never takes half a cluster.
    const narrowed = await api.post("/v2/clusters", { ...body, dataCenterIds: ["US-TX-3"] });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.detail).toContain('no data center of "US-TX-3" has 2 GPUs of "NVIDIA L4" free');
    expect((await api.get("/v2/pods?includeClusterPods=true")).body.pods).toHaveLength(2);
    // The type is the platform's enum (the client sends any string: the set is open).
    const unknownType = await api.post("/v2/clusters", { ...body, type: "BATCH" });
    expect(unknownType.status).toBe(422);
    expect(unknownType.body.detail).toBe('type = "BATCH": must be one of TRAINING, SLURM, RAY, APPLICATION');
    expect(v2ResponseProblems("POST", "/v2/clusters", 422, unknownType.body)).toEqual([]);
    const members = await api.get(`/v2/clusters/${cluster.body.id}/pods`);
    expect(v2ResponseProblems("GET", "/v2/clusters/{id}/pods", 200, members.body)).toEqual([]);
    expect(members.body.pods.map((p: { cluster: { rank: number } }) => p.cluster.rank)).toEqual([0, 1]);
    const member = members.body.pods[0];
    expect(member.env.NODE_RANK).toBe("0");
    // Members are the cluster's: hidden from the pod list, refused by the pod routes (409).
    expect((await api.get("/v2/pods")).body.pods).toHaveLength(0);
    expect((await api.get("/v2/pods?includeClusterPods=true")).body.pods).toHaveLength(2);
    const stop = await api.post(`/v2/pods/${member.id}/action`, { action: "stop" });
    expect(stop.status).toBe(409);
    expect(v2ResponseProblems("POST", "/v2/pods/{id}/action", 409, stop.body)).toEqual([]);
    expect((await api.del(`/v2/pods/${member.id}`)).status).toBe(409);
    const renamed = await api.patch(`/v2/clusters/${cluster.body.id}`, { name: "renamed" });
    expect(v2ResponseProblems("PATCH", "/v2/clusters/{id}", 200, renamed.body)).toEqual([]);
    expect(renamed.body.name).toBe("renamed");
    expect((await api.patch(`/v2/clusters/${cluster.body.id}`, {})).status).toBe(422);
    const list = await api.get("/v2/clusters");
    expect(v2ResponseProblems("GET", "/v2/clusters", 200, list.body)).toEqual([]);
    expect(list.body.clusters.map((c: { name: string }) => c.name)).toEqual(["renamed"]);
    const deleted = await api.del(`/v2/clusters/${cluster.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await api.get(`/v2/pods/${member.id}`)).status).toBe(404);
    const missing = await api.get(`/v2/clusters/${cluster.body.id}`);
    expect(missing.status).toBe(404);
    expect(v2ResponseProblems("GET", "/v2/clusters/{id}", 404, missing.body)).toEqual([]);
    expect((await api.post("/v2/clusters", body)).status).toBe(201);
  });
});

describe("preemption by chance", () => {
  const seeded = useTestEmulator({ capacity: STOCK, seed: 7, preemptionRate: 0.5 }, "manual");

  const run = async () => {
    const t = await seeded.start();
    const ids: string[] = [];
    for (const dc of ["EU-RO-1", "EU-RO-1", "US-TX-3"]) {
      const res = await t.api.post("/v1/pods", { ...L4_POD, interruptible: true, dataCenterIds: [dc] });
      ids.push(res.body.id);
    }
    const stoppedAt: Record<string, number> = {};
    for (let minute = 1; minute <= 240 && Object.keys(stoppedAt).length < ids.length; minute++) {
      await t.clock.advance(60_000);
      for (const id of ids) {
        if (stoppedAt[id] === undefined && (await t.api.get(`/v1/pods/${id}`)).body.desiredStatus === "EXITED") {
          stoppedAt[id] = minute;
        }
      }
    }
    await t.emu.close();
    return ids.map((id) => stoppedAt[id]);
  };

  it("preempts running interruptible pods at the seeded rate, the same minutes for the same seed", async () => {
    const first = await run();
    expect(first.every((m) => m !== undefined)).toBe(true);
    expect(await run()).toEqual(first);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { clusterProvider as provider } from "../../../provider/cluster-provider";
import { forgetSharedListings } from "../../../provider/create-once";
import { forgetListings } from "../../../provider/listings";
import { configureDirect } from "../../../provider/provider-config";
import { RunpodClient } from "../../../sdk/client";

/*
 * The Cluster provider's check/create/read/update/delete against the emulator over HTTP. Clusters
 * exist on management API v2 only: on v1 check refuses before anything is sent.
 */

const API_KEY = "cluster-provider-it-key";
const HF_TOKEN = "hf_ClusterProviderSecret77";
/** Two L4s in EU-RO-1 and four in US-TX-3, no other GPUs anywhere: placement is decided by the stock. */
const CAPACITY = {
  gpusPerType: 0,
  vcpusPerFlavor: 0,
  stock: { "EU-RO-1": { "NVIDIA L4": 2 }, "US-TX-3": { "NVIDIA L4": 4 } },
};
let emulator: RunningEmulator;
let client: RunpodClient;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    apiKeys: [API_KEY],
    rateLimits: false,
    managementQuota: false,
    capacity: CAPACITY,
  });
  client = new RunpodClient({ apiKey: API_KEY, apiUrl: emulator.apiUrlV2 });
});
afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

function useVersion(version: "v1" | "v2"): void {
  const apiUrl = version === "v1" ? emulator.apiUrlV1 : emulator.apiUrlV2;
  configureDirect({ apiKey: API_KEY, apiUrl, maxAttempts: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20 });
  forgetSharedListings();
}

/** Requests the emulator answered for this account, by route, since the last call. */
async function requestCounts(): Promise<Record<string, number>> {
  const headers = { authorization: `Bearer ${API_KEY}` };
  const stats = (await (await fetch(`${emulator.url}/_emulator/stats`, { headers })).json()) as {
    requests: { byRoute: Record<string, number> };
  };
  await fetch(`${emulator.url}/_emulator/stats/reset`, { method: "POST", headers });
  return stats.requests.byRoute;
}

const training = (over: Record<string, unknown> = {}) => ({
  name: "train",
  type: "TRAINING",
  gpuTypeId: "NVIDIA L4",
  gpuCountPerPod: 1,
  podCount: 2,
  imageName: "trainer:1.0",
  env: { HF_TOKEN },
  ports: ["8888/http", "22/tcp"],
  ...over,
});

describe("the Cluster provider on management API v2", () => {
  beforeEach(() => useVersion("v2"));

  it("creates a cluster in one data center with the stock: members by rank with addresses, the summed cost, the env as sent", async () => {
    expect((await provider.check({}, training())).failures).toEqual([]);
    // Four pods of one GPU fit only in US-TX-3 (EU-RO-1 has two L4s).
    const { id, outs } = await provider.create(training({ podCount: 4 }));
    expect(outs).toMatchObject({
      name: "train",
      type: "TRAINING",
      gpuTypeId: "NVIDIA L4",
      gpuCountPerPod: 1,
      podCount: 4,
      imageName: "trainer:1.0",
      env: { HF_TOKEN },
      dataCenterId: "US-TX-3",
      // Four members at the catalog's secure price of one L4 ($0.43).
      costPerHr: 1.72,
    });
    const pods = outs.pods as { id: string; rank: number; clusterIp: string }[];
    expect(pods.map((p) => p.rank)).toEqual([0, 1, 2, 3]);
    expect(new Set(pods.map((p) => p.clusterIp)).size).toBe(4);
    const members = await client.v2.clusters.pods(id);
    expect(members.map((m) => m.id).sort()).toEqual(pods.map((p) => p.id).sort());
    // Every member runs the image with the program's env (and its rank).
    for (const m of members) {
      expect(m).toMatchObject({ image: "trainer:1.0", env: { HF_TOKEN, NODE_RANK: String(m.cluster?.rank) } });
    }
    // The cluster answer itself never carries the env.
    expect(JSON.stringify(await client.v2.clusters.get(id))).not.toContain(HF_TOKEN);
    expect(await provider.read(id, outs)).toEqual({
      id,
      props: outs,
      inputs: expect.not.objectContaining({ pods: expect.anything() }),
    });
    await provider.delete(id);
    expect(await client.v2.clusters.list()).toEqual([]);
  });

  it("renames in place with one PATCH and no other write, and a refresh sees a rename made outside", async () => {
    const { id, outs } = await provider.create(training({ name: "before" }));
    expect(await provider.diff(id, outs, training({ name: "after" }))).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    await requestCounts();
    const renamed = await provider.update(id, outs, training({ name: "after" }));
    expect(renamed.outs).toEqual({ ...outs, name: "after" });
    const counts = await requestCounts();
    expect(Object.entries(counts).filter(([route]) => !route.startsWith("GET "))).toEqual([
      ["PATCH /v2/clusters/:id", 1],
    ]);
    await client.v2.clusters.rename(id, "by-hand");
    const read = await provider.read(id, renamed.outs);
    expect(read.props).toMatchObject({ name: "by-hand" });
    expect(read.inputs).toMatchObject({ name: "by-hand", podCount: 2, env: { HF_TOKEN } });
    // The program's name is then a rename again, not a replacement.
    expect((await provider.diff(id, read.props!, training({ name: "after" }))).replaces).toEqual([]);
    await provider.delete(id);
  });

  it("reads every cluster of a refresh with one list, its members by the cluster's route, a deleted one by id", async () => {
    const made = await Promise.all(["a", "b", "c"].map((n) => provider.create(training({ name: `listed-${n}` }))));
    await client.v2.clusters.rename(made[0]!.id, "renamed-by-hand");
    await client.v2.clusters.delete(made[1]!.id);
    // A new provider process, as each refresh is.
    forgetListings();
    await requestCounts();
    const read = await Promise.all(made.map(({ id, outs }) => provider.read(id, outs)));
    expect(read.map((r) => r.props?.name)).toEqual(["renamed-by-hand", undefined, "listed-c"]);
    expect(read[1]).toEqual({});
    expect(await requestCounts()).toEqual({
      "GET /v2/clusters": 1,
      // The deleted one, missing from the list, is confirmed gone by id.
      "GET /v2/clusters/:id": 1,
      "GET /v2/clusters/:id/pods": 2,
    });
    await Promise.all([made[0]!, made[2]!].map(({ id }) => provider.delete(id)));
  });

  it("refuses a cluster the stock cannot hold in one data center with the platform's error, and places none of it", async () => {
    const err = await provider.create(training({ podCount: 3, dataCenterIds: ["EU-RO-1"] })).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain(
      'there are no instances currently available: no data center of "EU-RO-1" has 3 GPUs of "NVIDIA L4" free (3 pods of 1 GPU, all in one data center)',
    );
    expect(err?.message).not.toContain(HF_TOKEN);
    expect(await client.v2.clusters.list()).toEqual([]);
    expect(await client.v2.pods.list({ includeClusterPods: true })).toEqual([]);
  });

  it("frees the members' GPUs on delete: a replacement of the whole stock fits once the old cluster is gone", async () => {
    const first = await provider.create(training({ podCount: 4, dataCenterIds: ["US-TX-3"] }));
    await expect(provider.create(training({ name: "second", dataCenterIds: ["US-TX-3"] }))).rejects.toThrow(
      /no data center of "US-TX-3" has 2 GPUs/,
    );
    await provider.delete(first.id);
    expect(await provider.read(first.id, first.outs)).toEqual({});
    const second = await provider.create(training({ name: "second", dataCenterIds: ["US-TX-3"] }));
    expect(second.outs).toMatchObject({ dataCenterId: "US-TX-3", podCount: 2 });
    await provider.delete(second.id);
    await expect(provider.delete(second.id)).resolves.toBeUndefined();
  });

  it("adopts a cluster of the same type, shape and image, renaming it; refuses one of another shape", async () => {
    const existing = await client.v2.clusters.create({
      name: "by-hand",
      type: "TRAINING",
      image: "trainer:1.0",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
    });
    await expect(provider.create(training({ podCount: 3, adoptId: existing.id }))).rejects.toThrow(
      `adoptId = "${existing.id}": the cluster has podCount 2, but podCount is 3`,
    );
    const { id, outs } = await provider.create(training({ name: "adopted", adoptId: existing.id }));
    expect(id).toBe(existing.id);
    expect(outs).toMatchObject({ name: "adopted", podCount: 2 });
    expect((await client.v2.clusters.get(id)).name).toBe("adopted");
    await provider.delete(id);
  });

  it("finds an auto-named cluster whose create answer was lost instead of placing a second one", async () => {
    const faults = `${emulator.url}/_emulator/faults`;
    const headers = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" };
    await fetch(faults, {
      method: "PUT",
      headers,
      body: JSON.stringify({ rules: [{ route: "POST /v2/clusters", lostResponseRate: 1 }] }),
    });
    try {
      await requestCounts();
      const { id } = await provider.create(training({ name: "train-lost1", __autoNamed: true }));
      // Listed before the create (none of that name), one create sent and its answer lost, then
      // listed again and found by its name and shape: never a second create.
      expect(await requestCounts()).toMatchObject({ "POST /v2/clusters": 1, "GET /v2/clusters": 2 });
      expect((await client.v2.clusters.list()).map((c) => c.id)).toEqual([id]);
      await provider.delete(id);
    } finally {
      await fetch(faults, { method: "DELETE", headers });
    }
  });
});

describe("the Cluster provider on management API v1", () => {
  beforeEach(() => useVersion("v1"));

  it("fails at check, naming the version and the setting, and sends nothing", async () => {
    await requestCounts();
    const { failures } = await provider.check({}, training());
    expect(failures).toEqual([
      {
        property: "",
        reason:
          "Cluster exists only on management API v2, and the API URL names v1: point runpod:apiUrl (or RUNPOD_API_URL) at a .../v2 URL, or remove the Cluster",
      },
    ]);
    expect(await requestCounts()).toEqual({});
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as V2 from "../../sdk/schemas/v2";
import { createE2EStack, type E2EStack } from "./harness";

/*
 * An instant cluster through the real Pulumi engine against the emulator (management API v2): the
 * program asks the catalog functions where the cluster may go, then the cluster is created,
 * renamed in place, replaced by a change of size, moved to v1 (which the preview refuses) and
 * back, and destroyed to nothing. The steps build on each other, so they run in order.
 */

const HF_TOKEN = "hf_E2eClusterSecretToken7q";
/** The engine's marker of a secret value in an exported state. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
/** L4s in EU-RO-1 (six: room for a cluster and its replacement at once) and US-TX-3; nothing else. */
const CAPACITY = {
  gpusPerType: 0,
  vcpusPerFlavor: 0,
  stock: { "EU-RO-1": { "NVIDIA L4": 6 }, "US-TX-3": { "NVIDIA L4": 8 } },
};
const out = (outputs: Record<string, { value: unknown }>, key: string) => outputs[key]?.value;

describe("a cluster on management API v2 through the real engine", { timeout: 300_000 }, () => {
  let e: E2EStack;
  const printed: string[] = [];
  let clusterId: string;

  beforeAll(async () => {
    e = await createE2EStack(
      "clusters",
      { "e2e:hfToken": { value: HF_TOKEN, secret: true } },
      { label: "clusters", apiVersion: "v2", emulator: { capacity: CAPACITY } },
    );
  });
  afterAll(() => e?.dispose());

  /** The cluster's member pods, as the platform lists them. */
  const members = (id: string): Promise<V2.Pod[]> => e.client.v2.clusters.pods(id);

  it("creates the cluster where the catalog functions say it may go, with the env on every member", async () => {
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ create: 2 });
    // European data centers (getDataCenters) with L4s available for clusters (getGpuTypesOutput).
    expect(out(result.outputs, "catalogChoice")).toEqual(["EU-RO-1"]);
    clusterId = String(out(result.outputs, "clusterId"));
    const cluster = await e.client.v2.clusters.get(clusterId);
    expect(cluster).toMatchObject({
      type: "TRAINING",
      dataCenterId: "EU-RO-1",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
    });
    expect(out(result.outputs, "name")).toBe(cluster.name);
    expect(cluster.name).toMatch(/^train-/);
    expect(out(result.outputs, "dataCenterId")).toBe("EU-RO-1");
    expect(out(result.outputs, "costPerHr")).toBe(0.86);
    const pods = out(result.outputs, "pods") as { id: string; rank: number; clusterIp: string }[];
    const listed = await members(clusterId);
    expect(pods.map((p) => p.rank)).toEqual([0, 1]);
    expect(pods.map((p) => p.id).sort()).toEqual(listed.map((p) => p.id).sort());
    for (const pod of listed) expect(pod.env).toMatchObject({ EPOCHS: "3", HF_TOKEN });
    expect(out(result.outputs, "env")).toEqual({ EPOCHS: "3", HF_TOKEN });
  });

  it("previews no change when nothing changed, the catalog read again", async () => {
    const preview = await e.stack.preview({ onOutput: (s) => printed.push(s) });
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  it("renames the cluster in place, keeping its id and its members", async () => {
    const before = (await members(clusterId)).map((p) => p.id).sort();
    await e.stack.setConfig("e2e:name", { value: "trainers" });
    const preview = await e.stack.preview({ onOutput: (s) => printed.push(s) });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.stdout).not.toContain("replaces the cluster");
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(out(result.outputs, "clusterId")).toBe(clusterId);
    expect((await e.client.v2.clusters.get(clusterId)).name).toBe("trainers");
    expect((await members(clusterId)).map((p) => p.id).sort()).toEqual(before);
  });

  it("says at preview, in words and for that cluster, that a new size replaces it; up places the new one and deletes the old", async () => {
    await e.stack.setConfig("e2e:podCount", { value: "3" });
    const preview = await e.stack.preview({ onOutput: (s) => printed.push(s) });
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    expect(preview.stdout).toContain(
      'Cluster "train": changing podCount replaces the cluster: management API v2 fixes a cluster\'s type, shape and container settings at creation',
    );
    const oldMembers = (await members(clusterId)).map((p) => p.id);
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
    const newId = String(out(result.outputs, "clusterId"));
    expect(newId).not.toBe(clusterId);
    expect(await e.client.v2.clusters.get(newId)).toMatchObject({
      name: "trainers",
      dataCenterId: "EU-RO-1",
      compute: { podCount: 3 },
    });
    expect(out(result.outputs, "costPerHr")).toBe(1.29);
    await expect(e.client.v2.clusters.get(clusterId)).rejects.toMatchObject({ code: "not_found" });
    const pods = await e.client.v2.pods.list({ includeClusterPods: true });
    expect(pods.filter((p) => oldMembers.includes(p.id))).toEqual([]);
    expect(pods).toHaveLength(3);
    clusterId = newId;
  });

  it("moved to management API v1, fails at preview naming the version; moved back, shows no change", async () => {
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV1 });
    // Without the catalog functions (v1 has no catalog either): the cluster's own refusal.
    await e.stack.setConfig("e2e:useCatalog", { value: "false" });
    const refused = await e.stack.preview().catch((x: Error) => x);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toContain("Cluster exists only on management API v2, and the API URL names v1");
    await e.stack.setConfig("e2e:useCatalog", { value: "true" });
    const noCatalog = await e.stack.preview().catch((x: Error) => x);
    expect(String(noCatalog)).toContain("getDataCenters is not available on management API v1 (only on v2)");
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV2 });
    const back = await e.stack.preview({ onOutput: (s) => printed.push(s) });
    expect(back.changeSummary).toEqual({ same: 2 });
    expect((await e.client.v2.clusters.get(clusterId)).compute.podCount).toBe(3);
  });

  it("keeps the env's secret out of the state and the engine's output, and destroy leaves nothing", async () => {
    const stored = await e.backend.storedText();
    // The search finds what the state holds in plaintext: the cluster's image.
    expect(stored).toContain("trainer:1.0");
    for (const secret of [HF_TOKEN, e.apiKey]) {
      expect(stored.includes(secret), "a secret stored by the backend").toBe(false);
      for (const text of printed) expect(text.includes(secret), "a secret in the engine's output").toBe(false);
    }
    const exported = JSON.parse((await e.cli(["stack", "export"])).stdout);
    const cluster = exported.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("Cluster::train"));
    expect(cluster.outputs.env).toHaveProperty(SECRET_SIG);
    // The inputs keep the program's secret as a secret of its own; the plain value beside it stays plain.
    expect(cluster.inputs.env.HF_TOKEN).toHaveProperty(SECRET_SIG);
    expect(cluster.inputs.env.EPOCHS).toBe("3");
    const destroyed = await e.stack.destroy({ onOutput: (s) => printed.push(s) });
    expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
    expect(await e.client.v2.clusters.list()).toEqual([]);
    expect(await e.client.v2.pods.list({ includeClusterPods: true })).toEqual([]);
    expect(printed.join("").includes(HF_TOKEN)).toBe(false);
  });
});

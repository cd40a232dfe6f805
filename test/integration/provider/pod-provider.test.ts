import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { takeUndeliveredNotices } from "../../../provider/engine-notice";
import { forgetSharedListings } from "../../../provider/create-once";
import { podProvider as provider } from "../../../provider/pod-provider";
import { configureDirect } from "../../../provider/provider-config";
import { RunpodClient } from "../../../sdk/client";
import type { ApiVersion } from "../../../sdk/config";

/*
 * The Pod provider's check/create/read/update/delete against the emulator over HTTP, on each
 * management API version, chosen explicitly (the emulator's `apiUrlV1`/`apiUrlV2`).
 */

const API_KEY = "pod-provider-it-key";
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: [API_KEY], rateLimits: false, managementQuota: false });
});
afterAll(() => emulator?.close());

async function admin(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emulator.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function requestCounts(): Promise<Record<string, number>> {
  const stats = (await admin("/_emulator/stats")) as { requests: { byRoute: Record<string, number> } };
  await fetch(`${emulator.url}/_emulator/stats/reset`, {
    method: "POST",
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  return stats.requests.byRoute;
}

const gpuPod = (over: Record<string, unknown> = {}) => ({
  name: "trainer",
  imageName: "pytorch/pytorch:2.4.0",
  gpuTypeIds: ["NVIDIA L4"],
  dataCenterIds: ["EU-RO-1"],
  env: { MODEL: "llama", TOKEN: "s3cr3t-token" },
  desiredStatus: "RUNNING",
  ...over,
});

describe.each<ApiVersion>(["v1", "v2"])("the Pod provider on management API %s", (version) => {
  let client: RunpodClient;
  beforeAll(() => {
    const apiUrl = version === "v1" ? emulator.apiUrlV1 : emulator.apiUrlV2;
    client = new RunpodClient({ apiKey: API_KEY, apiUrl });
  });
  afterAll(() => client?.close());
  beforeEach(() => {
    const apiUrl = version === "v1" ? emulator.apiUrlV1 : emulator.apiUrlV2;
    configureDirect({ apiKey: API_KEY, apiUrl, maxAttempts: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20 });
    forgetSharedListings();
  });

  it("creates a running GPU pod and returns its status, price and the declared properties", async () => {
    const { id, outs } = await provider.create(gpuPod());
    expect(outs).toMatchObject({
      name: "trainer",
      desiredStatus: "RUNNING",
      imageName: "pytorch/pytorch:2.4.0",
      gpuTypeIds: ["NVIDIA L4"],
      dataCenterIds: ["EU-RO-1"],
      env: { MODEL: "llama", TOKEN: "s3cr3t-token" },
      // The catalog's secure price of one L4.
      costPerHr: 0.43,
      adjustedCostPerHr: 0.43,
    });
    expect(await client.pods.get(id)).toMatchObject({ desiredStatus: "RUNNING", gpu: { id: "NVIDIA L4", count: 1 } });
    await provider.delete(id);
  });

  it("stops and starts the same pod through desiredStatus, and renames and locks it in place without a reset", async () => {
    const { id, outs } = await provider.create(gpuPod({ name: "toggle" }));
    await requestCounts();
    const stopped = await provider.update(id, outs, gpuPod({ name: "toggle", desiredStatus: "EXITED" }));
    expect(stopped.outs).toMatchObject({ desiredStatus: "EXITED" });
    expect((await client.pods.get(id)).desiredStatus).toBe("EXITED");
    const started = await provider.update(id, stopped.outs, gpuPod({ name: "toggle" }));
    expect(started.outs).toMatchObject({ desiredStatus: "RUNNING" });
    const renamed = await provider.update(id, started.outs, gpuPod({ name: "renamed", locked: true }));
    expect(renamed.outs).toMatchObject({ name: "renamed", locked: true, desiredStatus: "RUNNING" });
    const counts = await requestCounts();
    const resetRoute = version === "v1" ? "POST /v1/pods/:podId/update" : "PATCH /v2/pods/:id";
    const patches = version === "v1" ? counts["PATCH /v1/pods/:podId"] : counts[resetRoute];
    // Two in-place PATCHes (rename, then lock last); on v1 no reset update at all.
    expect(patches).toBe(2);
    if (version === "v1") expect(counts[resetRoute]).toBeUndefined();
    const unlockAndStop = await provider.update(
      id,
      renamed.outs,
      gpuPod({ name: "renamed", locked: false, desiredStatus: "EXITED" }),
    );
    expect(unlockAndStop.outs).toMatchObject({ locked: false, desiredStatus: "EXITED" });
    await provider.delete(id);
  });

  it("updates the image and env through the reset route, keeping the id and wiping the container disk", async () => {
    const { id, outs } = await provider.create(gpuPod({ name: "resettable" }));
    await requestCounts();
    const news = gpuPod({ name: "resettable", imageName: "pytorch/pytorch:2.5.0", env: { MODEL: "mistral" } });
    const updated = await provider.update(id, outs, news);
    expect(updated.outs).toMatchObject({ imageName: "pytorch/pytorch:2.5.0", env: { MODEL: "mistral" } });
    const counts = await requestCounts();
    expect(counts[version === "v1" ? "POST /v1/pods/:podId/update" : "PATCH /v2/pods/:id"]).toBe(1);
    const state = (await admin("/_emulator/state")) as { pods: { id: string; containerDiskWipes: number }[] };
    expect(state.pods.find((p) => p.id === id)?.containerDiskWipes).toBe(1);
    expect((await client.pods.get(id)).env).toEqual({ MODEL: "mistral" });
    await provider.delete(id);
  });

  it("reads a pod stopped outside Pulumi as EXITED, and the next update starts it again", async () => {
    const { id, outs } = await provider.create(gpuPod({ name: "drifting" }));
    await client.pods.stop(id);
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ desiredStatus: "EXITED" });
    expect(read.inputs).toMatchObject({ desiredStatus: "EXITED", env: { MODEL: "llama", TOKEN: "s3cr3t-token" } });
    expect(await provider.diff(id, read.props!, gpuPod({ name: "drifting" }))).toMatchObject({
      changes: true,
      replaces: [],
    });
    const fixed = await provider.update(id, read.props!, gpuPod({ name: "drifting" }));
    expect(fixed.outs).toMatchObject({ desiredStatus: "RUNNING" });
    expect((await client.pods.get(id)).desiredStatus).toBe("RUNNING");
    await provider.delete(id);
  });

  it("reports a pod deleted outside Pulumi as gone, and deleting it again succeeds", async () => {
    const { id, outs } = await provider.create(gpuPod({ name: "gone" }));
    await client.pods.delete(id);
    expect(await provider.read(id, outs)).toEqual({});
    await expect(provider.delete(id)).resolves.toBeUndefined();
  });

  it("creates a CPU pod stopped and locked, in that order", async () => {
    const inputs = {
      name: "cpu-box",
      imageName: "ubuntu:24.04",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      vcpuCount: 4,
      locked: true,
      desiredStatus: "EXITED",
    };
    const { id, outs } = await provider.create(inputs);
    // v1 reports a stopped pod's price (4 vCPUs of cpu3c at $0.03), v2 its current cost: 0 while stopped.
    const costPerHr = version === "v1" ? 0.12 : 0;
    expect(outs).toMatchObject({ desiredStatus: "EXITED", locked: true, computeType: "CPU", costPerHr });
    expect(await client.pods.get(id)).toMatchObject({ desiredStatus: "EXITED", locked: true, cpuFlavorId: "cpu3c" });
    await provider.delete(id);
  });

  it("adopts an existing pod, converging its name in place", async () => {
    const existing = await client.pods.create({
      name: "by-hand",
      imageName: "ubuntu:24.04",
      gpuTypeIds: ["NVIDIA A40"],
    });
    const { id, outs } = await provider.create(
      gpuPod({
        name: "adopted",
        imageName: "ubuntu:24.04",
        gpuTypeIds: ["NVIDIA A40"],
        env: undefined,
        adoptId: existing.id,
      }),
    );
    expect(id).toBe(existing.id);
    expect(outs).toMatchObject({ name: "adopted", desiredStatus: "RUNNING" });
    await expect(provider.create({ ...gpuPod({ computeType: "CPU" }), adoptId: existing.id })).rejects.toThrow(
      `adoptId = "${existing.id}": the pod has computeType GPU, but computeType is CPU`,
    );
    await provider.delete(id);
  });

  it("finds an auto-named pod whose create answer was lost instead of creating a second one", async () => {
    const route = version === "v1" ? "POST /v1/pods" : "POST /v2/pods";
    await fetch(`${emulator.url}/_emulator/faults`, {
      method: "PUT",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ rules: [{ route, lostResponseRate: 1 }] }),
    });
    try {
      const { id } = await provider.create(gpuPod({ name: `trainer-${version}lost`, __autoNamed: true }));
      const named = (await client.pods.list()).filter((p) => p.name === `trainer-${version}lost`);
      expect(named.map((p) => p.id)).toEqual([id]);
      await provider.delete(id);
    } finally {
      await fetch(`${emulator.url}/_emulator/faults`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${API_KEY}` },
      });
    }
  });

  it("says in the diff's notice that a reset field restarts the container and wipes its disk", async () => {
    takeUndeliveredNotices();
    const olds = { ...gpuPod(), costPerHr: 0.43 };
    const news = {
      ...gpuPod({ imageName: "pytorch/pytorch:2.5.0" }),
      __urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/runpod:Pod::trainer",
    };
    expect(await provider.diff("id", olds, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const route =
      version === "v1"
        ? "updates through the reset update POST /pods/{id}/update (management API v1)"
        : "updates through PATCH /pods/{id} (management API v2)";
    expect(takeUndeliveredNotices()).toEqual([
      {
        urn: news.__urn,
        message: `Pod "trainer": changing imageName ${route}: the container restarts and its disk is wiped; the pod volume and network volume stay`,
      },
    ]);
  });
});

describe("the Pod provider across versions and version-only features", () => {
  const use = (version: ApiVersion) => {
    const apiUrl = version === "v1" ? emulator.apiUrlV1 : emulator.apiUrlV2;
    configureDirect({ apiKey: API_KEY, apiUrl, maxAttempts: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20 });
    return new RunpodClient({ apiKey: API_KEY, apiUrl });
  };

  it("reads an interruptible pod the platform preempted as EXITED (v1)", async () => {
    const client = use("v1");
    const { id, outs } = await provider.create(gpuPod({ name: "spot", interruptible: true }));
    expect(outs).toMatchObject({ interruptible: true, costPerHr: 0.215 });
    await admin(`/_emulator/pods/${id}/preempt`, {});
    expect((await provider.read(id, outs)).props).toMatchObject({ desiredStatus: "EXITED" });
    await provider.delete(id);
    await client.close();
  });

  it("keeps the injected PUBLIC_KEY and generated JUPYTER_PASSWORD out of drift and through an env change (v2)", async () => {
    const client = use("v2");
    await client.v2.account.sshKeys.put(["ssh-ed25519 AAAAC3NzaPodTest me@laptop"]);
    const inputs = gpuPod({ name: "notebook", startSsh: true, startJupyter: true, env: { MODEL: "llama" } });
    const { id, outs } = await provider.create(inputs);
    expect(outs.env).toEqual({ MODEL: "llama" });
    const password = outs.jupyterPassword as string;
    expect(password).toMatch(/^\S{12,}$/);
    const read = await provider.read(id, outs);
    expect(read.props).toEqual(outs);
    const updated = await provider.update(id, outs, { ...inputs, env: { MODEL: "mistral" } });
    expect(updated.outs).toMatchObject({ env: { MODEL: "mistral" }, jupyterPassword: password });
    expect((await client.pods.get(id)).env).toEqual({
      MODEL: "mistral",
      PUBLIC_KEY: "ssh-ed25519 AAAAC3NzaPodTest me@laptop",
      JUPYTER_PASSWORD: password,
    });
    await provider.delete(id);
    await client.v2.account.sshKeys.put([]);
    await client.close();
  });

  it("reads a pod created through v1 through v2 with the same outputs, so switching the URL shows no change", async () => {
    const v1 = use("v1");
    const inputs = gpuPod({
      name: "crossing",
      ports: ["8888/http", "22/tcp"],
      containerDiskInGb: 40,
      volumeInGb: 30,
      volumeMountPath: "/data",
      dockerStartCmd: ["python", "train.py", "--epochs", "3"],
      locked: false,
    });
    const { id, outs } = await provider.create(inputs);
    const v2 = use("v2");
    const read = await provider.read(id, outs);
    expect(read.props).toEqual(outs);
    expect(await provider.diff(id, read.props!, inputs)).toMatchObject({ changes: false });
    await provider.delete(id);
    await v1.close();
    await v2.close();
  });
});

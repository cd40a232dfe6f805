import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

const PODS = "/v2/pods";
const ITEM = "/v2/pods/{id}";
const ACTION = "/v2/pods/{id}/action";
const GPU_POD = {
  name: "v2-trainer",
  image: "runpod/pytorch:2.1.0",
  gpu: { id: "NVIDIA L4", count: 1 },
  dataCenterIds: ["EU-RO-1"],
  ports: ["8888/http", "22/tcp"],
  env: { MODEL: "llama" },
  mounts: { persistent: { size: 20, path: "/workspace" } },
};

/** Sends and checks the answer against the v2 OpenAPI for `template`. */
async function call(method: string, path: string, template: string, body?: unknown) {
  const res = await api.send(method, path, body);
  expect(v2ResponseProblems(method, template, res.status, res.body === "" ? undefined : res.body)).toEqual([]);
  return res;
}

async function create(body: Record<string, unknown> = {}) {
  const res = await call("POST", PODS, PODS, { ...GPU_POD, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("v2 pods (/v2/pods)", () => {
  it("creates a pod RUNNING, with the actions valid now and its cost, in the v2 OpenAPI's shape", async () => {
    const pod = await create();
    expect(pod).toMatchObject({
      name: "v2-trainer",
      status: "RUNNING",
      actions: ["stop", "restart", "terminate"],
      gpu: { id: "NVIDIA L4", count: 1 },
      cloud: "SECURE",
      dataCenterId: "EU-RO-1",
      cost: 0.43,
      template: null,
      registry: null,
      mounts: { persistent: { size: 20, path: "/workspace" } },
      locked: false,
      globalNetworking: { enabled: false },
    });
    expect(pod.ssh.direct).toMatchObject({ username: "root", host: expect.stringMatching(/^203\.0\.113\./) });
    const listed = await call("GET", PODS, PODS);
    expect(listed.body.pods.map((p: { id: string }) => p.id)).toContain(pod.id);
    expect((await call("GET", `${PODS}/${pod.id}`, ITEM)).body).toEqual(pod);
  });

  it("stops, starts, restarts and terminates through action; an action not valid now is a 409", async () => {
    const pod = await create();
    const stopped = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "stop" });
    expect(stopped.body).toMatchObject({
      status: "EXITED",
      actions: ["start", "terminate"],
      cost: 0,
      runtime: null,
      startedAt: null,
    });
    const again = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "stop" });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(
      /action stop is not valid now: the pod is EXITED \(valid now: start, terminate\)/,
    );
    expect((await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "restart" })).status).toBe(409);
    const started = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "start" });
    expect(started.body.status).toBe("RUNNING");
    await ctx.clock.advance(90_000);
    expect((await call("GET", `${PODS}/${pod.id}`, ITEM)).body.runtime.uptime).toBe(90);
    const restarted = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "restart" });
    expect(restarted.body.runtime.uptime).toBe(0);
    const gone = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "terminate" });
    expect(gone.status).toBe(204);
    expect((await call("GET", `${PODS}/${pod.id}`, ITEM)).status).toBe(404);
  });

  it("refuses to stop a locked pod (409) and leaves stop out of its actions", async () => {
    const pod = await create();
    const locked = await call("PATCH", `${PODS}/${pod.id}`, ITEM, { locked: true });
    expect(locked.body.actions).toEqual(["restart", "terminate"]);
    const stop = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "stop" });
    expect(stop.status).toBe(409);
    expect(stop.body.detail).toMatch(/the pod is locked/);
  });

  it("PATCHes in place (name, locked) and replaces the container on a container field (disk wiped)", async () => {
    const pod = await create();
    const renamed = await call("PATCH", `${PODS}/${pod.id}`, ITEM, { name: "renamed" });
    expect(renamed.body).toMatchObject({ name: "renamed", image: GPU_POD.image, env: GPU_POD.env });
    await ctx.clock.advance(10_000);
    const patched = await call("PATCH", `${PODS}/${pod.id}`, ITEM, {
      image: "runpod/pytorch:2.2.0",
      env: { B: "2" },
      args: "python -m train",
    });
    expect(patched.body).toMatchObject({
      image: "runpod/pytorch:2.2.0",
      env: { B: "2" },
      args: "python -m train",
      name: "renamed",
    });
    expect(patched.body.runtime.uptime).toBe(0);
    const state = await api.get("/_emulator/state");
    expect(state.body.pods.find((p: { id: string }) => p.id === pod.id).containerDiskWipes).toBe(1);
    const grow = await call("PATCH", `${PODS}/${pod.id}`, ITEM, {
      mounts: { persistent: { size: 40, path: "/data" } },
    });
    expect(grow.body.mounts).toEqual({ persistent: { size: 40, path: "/data" } });
  });

  it("answers the OpenAPI's mount rules, contract violations (422) and cross-field rules (400) as problem objects", async () => {
    const pod = await create();
    const network = await call("PATCH", `${PODS}/${pod.id}`, ITEM, {
      mounts: { network: [{ volumeId: "x", path: "/v" }] },
    });
    expect(network.status).toBe(400);
    expect(network.body.errors[0]).toMatch(/^\$\.mounts\.network: the pod was created without a network volume/);
    const shape = await call("POST", PODS, PODS, { ...GPU_POD, bogus: 1, disk: 0 });
    expect(shape.status).toBe(422);
    expect(shape.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const both = await call("POST", PODS, PODS, { ...GPU_POD, mounts: undefined, cpu: { id: "cpu3c", vcpuCount: 2 } });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([expect.stringMatching(/^\$\.gpu: give exactly one of gpu and cpu/)]);
    const badAction = await call("POST", `${PODS}/${pod.id}/action`, ACTION, { action: "reset" });
    expect(badAction.status).toBe(422);
    expect((await call("GET", `${PODS}/nope`, ITEM)).status).toBe(404);
  });

  it("creates a CPU pod: vCPUs of a flavor, its memory from the flavor, no persistent mount", async () => {
    const pod = await create({ gpu: undefined, mounts: undefined, cpu: { id: "cpu5c", vcpuCount: 8 } });
    expect(pod).toMatchObject({
      cpu: { id: "cpu5c", vcpuCount: 8, memory: 16 },
      cost: 0.32,
      mounts: {},
      cudaVersion: null,
    });
    expect(pod.gpu).toBeUndefined();
    const cpu = { ...GPU_POD, gpu: undefined, mounts: undefined };
    // The OpenAPI's schema says `minimum: 2` (a contract violation, 422); "a power of two" is its
    // prose, enforced by the handler (400).
    expect((await call("POST", PODS, PODS, { ...cpu, cpu: { id: "cpu5c", vcpuCount: 1 } })).status).toBe(422);
    const odd = await call("POST", PODS, PODS, { ...cpu, cpu: { id: "cpu5c", vcpuCount: 3 } });
    expect(odd.status).toBe(400);
    expect(odd.body.errors).toEqual(["$.cpu.vcpuCount: must be a power of two (got 3)"]);
    const persistent = await call("POST", PODS, PODS, {
      ...GPU_POD,
      gpu: undefined,
      cpu: { id: "cpu5c", vcpuCount: 2 },
    });
    expect(persistent.body.errors).toEqual([
      expect.stringMatching(/^\$\.mounts\.persistent: is not available on CPU pods/),
    ]);
  });

  it("serves a pod's life as Server-Sent Events, with tail, source, since and Last-Event-ID", async () => {
    const pod = await create();
    await ctx.clock.advance(1_000);
    await api.post(`${PODS}/${pod.id}/action`, { action: "stop" });
    await ctx.clock.advance(1_000);
    await api.post(`${PODS}/${pod.id}/action`, { action: "start" });
    const all = await api.get(`${PODS}/${pod.id}/logs`);
    expect(all.status).toBe(200);
    expect(v2ResponseProblems("GET", "/v2/pods/{id}/logs", 200, undefined)).toEqual([]);
    expect(all.headers["content-type"]).toMatch(/^text\/event-stream/);
    const events = String(all.body).trim().split("\n\n");
    expect(events).toHaveLength(5);
    expect(events[0]).toMatch(
      /^id: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\/000000000001\ndata: \{"ts":"[^"]+","source":"system","line":"pod created: 1 x NVIDIA L4 in EU-RO-1"\}$/,
    );
    expect(events[2]).toContain('"line":"pod stopped"');
    const system = await api.get(`${PODS}/${pod.id}/logs?source=system&tail=2`);
    expect(String(system.body).match(/"line":"[^"]+"/g)).toEqual(['"line":"pod stopped"', '"line":"pod started"']);
    const resumed = await api.send("GET", `${PODS}/${pod.id}/logs`, undefined, {
      "last-event-id": events[2]!.split("\n")[0]!.slice(4),
    });
    expect(String(resumed.body).trim().split("\n\n")).toHaveLength(2);
    expect((await api.get(`${PODS}/${pod.id}/logs?tail=6000`)).status).toBe(400);
    expect((await api.get(`${PODS}/${pod.id}/logs?since=yesterday`)).status).toBe(422);
  });

  it("gives a pod created with startSsh the account's keys as PUBLIC_KEY; a PATCH of env replaces it whole", async () => {
    const keys = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKey1 me@example.com", "ssh-rsa AAAAB3NzaKey2"];
    const put = await call("PUT", "/v2/account/ssh-keys", "/v2/account/ssh-keys", { keys });
    expect(put.body).toEqual({ keys });
    expect((await call("GET", "/v2/account/ssh-keys", "/v2/account/ssh-keys")).body).toEqual({ keys });
    expect((await other.get("/v2/account/ssh-keys")).body).toEqual({ keys: [] });
    const bad = await call("PUT", "/v2/account/ssh-keys", "/v2/account/ssh-keys", { keys: ["not a key"] });
    expect(bad.status).toBe(422);
    const pod = await create({ startSsh: true });
    expect(pod.env).toEqual({ MODEL: "llama", PUBLIC_KEY: keys.join("\n") });
    const plain = await create();
    expect(plain.env.PUBLIC_KEY).toBeUndefined();
    const patched = await call("PATCH", `${PODS}/${pod.id}`, ITEM, { env: { MODEL: "mistral" } });
    expect(patched.body.env).toEqual({ MODEL: "mistral" });
  });

  it("reads a pod made through v1 with v2 (and the other way round) under one id", async () => {
    const v1 = await api.post("/v1/pods", {
      imageName: "img:1",
      gpuTypeIds: ["NVIDIA A40"],
      dockerStartCmd: ["python", "a b.py"],
    });
    const asV2 = await call("GET", `${PODS}/${v1.body.id}`, ITEM);
    expect(asV2.body).toMatchObject({
      id: v1.body.id,
      image: "img:1",
      gpu: { id: "NVIDIA A40", count: 1 },
      args: 'python "a b.py"',
    });
    const v2 = await create({ args: 'python "a b.py"' });
    expect((await api.get(`/v1/pods/${v2.id}`)).body.dockerStartCmd).toEqual(["python", "a b.py"]);
    expect((await other.get(`${PODS}/${v2.id}`)).status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { type ApiVersion, NotFoundError, RequestValidationError, RunpodClient } from "../../../sdk";

/**
 * The version-neutral endpoint, template and registry auth operations on v1
 * and on v2 against the emulator over HTTP, on one account: the same inputs (v1's names) give the
 * same answers; what one version cannot carry is refused before sending on the other.
 */
let emulator: RunningEmulator;
const clients = {} as Record<ApiVersion, RunpodClient>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: ["neutral"], rateLimits: false, workerBootMs: 0 });
  clients.v1 = new RunpodClient({ apiKey: "neutral", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
  clients.v2 = new RunpodClient({ apiKey: "neutral", apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
});
afterAll(async () => {
  await Promise.all([clients.v1.close(), clients.v2.close()]);
  await emulator.close();
});

/** Requests the account has sent so far (the emulator's own count). */
const requests = async () => {
  const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: "Bearer neutral" } });
  return ((await res.json()) as { requests: { total: number } }).requests.total;
};

const refusal = (p: Promise<unknown>) => p.then(() => undefined).catch((e: unknown) => e as Error);

describe.each(["v1", "v2"] as const)("version-neutral templates, registry auths and endpoints on %s", (version) => {
  it("creates, reads, lists, updates and deletes a template with v1's field names", async () => {
    const client = clients[version];
    const t = await client.templates.create({
      name: `worker-${version}`,
      imageName: "ghcr.io/acme/echo:1",
      isServerless: true,
      dockerStartCmd: ["python", "serve.py", "--title", "my model"],
      volumeInGb: 20,
      env: { MODE: "fast" },
      ports: ["8000/http"],
    });
    expect(t).toMatchObject({
      name: `worker-${version}`,
      imageName: "ghcr.io/acme/echo:1",
      isServerless: true,
      dockerStartCmd: ["python", "serve.py", "--title", "my model"],
      volumeInGb: 20,
      volumeMountPath: "/workspace",
      env: { MODE: "fast" },
      ports: ["8000/http"],
    });
    expect(await client.templates.get(t.id)).toEqual(t);
    expect((await client.templates.list()).map((x) => x.id)).toContain(t.id);
    const updated = await client.templates.update(t.id, { imageName: "ghcr.io/acme/echo:2", volumeMountPath: "/data" });
    expect(updated).toMatchObject({ imageName: "ghcr.io/acme/echo:2", volumeInGb: 20, volumeMountPath: "/data" });
    await client.templates.delete(t.id);
    await expect(client.templates.get(t.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("creates, reads, lists and deletes a registry auth", async () => {
    const client = clients[version];
    const a = await client.containerRegistryAuth.create({ name: `hub-${version}`, username: "u", password: "pw" });
    expect(a).toEqual({ id: expect.any(String), name: `hub-${version}` });
    expect(await client.containerRegistryAuth.get(a.id)).toEqual(a);
    expect(await client.containerRegistryAuth.list()).toContainEqual(a);
    await client.containerRegistryAuth.delete(a.id);
    await expect(client.containerRegistryAuth.get(a.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("creates, reads, updates and deletes a GPU endpoint that runs jobs: these cards and no others", async () => {
    const client = clients[version];
    const e = await client.endpoints.create({
      name: `gpu-${version}`,
      templateId: "echo",
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 7,
      scalerType: "QUEUE_DELAY",
      scalerValue: 3,
      executionTimeoutMs: 60_000,
      flashboot: true,
      dataCenterIds: ["EU-RO-1"],
    });
    expect(e).toMatchObject({
      name: `gpu-${version}`,
      computeType: "GPU",
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 7,
      scalerType: "QUEUE_DELAY",
      scalerValue: 3,
      executionTimeoutMs: 60_000,
      flashboot: true,
      dataCenterIds: ["EU-RO-1"],
    });
    // v2 applies a template once and keeps no link to it.
    expect(e.templateId).toBe(version === "v1" ? "echo" : undefined);
    expect(await client.endpoints.get(e.id)).toEqual(e);
    expect((await client.endpoints.list()).map((x) => x.id)).toContain(e.id);
    const updated = await client.endpoints.update(e.id, {
      workersMax: 3,
      gpuTypeIds: ["NVIDIA L4", "NVIDIA GeForce RTX 4090"],
      scalerValue: 5,
    });
    expect(updated).toMatchObject({
      workersMax: 3,
      gpuTypeIds: ["NVIDIA L4", "NVIDIA GeForce RTX 4090"],
      scalerType: "QUEUE_DELAY",
      scalerValue: 5,
    });
    const job = await client.jobs(e.id).runSync({ input: { dialect: version } });
    expect(job).toMatchObject({ status: "COMPLETED", output: { dialect: version } });
    await client.endpoints.delete(e.id);
    await expect(client.endpoints.get(e.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("creates a CPU endpoint with its flavors and vCPUs", async () => {
    const client = clients[version];
    const e = await client.endpoints.create({
      name: `cpu-${version}`,
      templateId: "echo",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c", "cpu5c"],
      vcpuCount: 4,
    });
    expect(e).toMatchObject({ computeType: "CPU", cpuFlavorIds: ["cpu3c", "cpu5c"], vcpuCount: 4 });
    expect(await client.endpoints.update(e.id, { vcpuCount: 8 })).toMatchObject({
      cpuFlavorIds: ["cpu3c", "cpu5c"],
      vcpuCount: 8,
    });
  });

  it("takes flash boot as true/false or as the two modes both versions have", async () => {
    const client = clients[version];
    const e = await client.endpoints.create({
      name: `fb-${version}`,
      templateId: "echo",
      flashboot: "FLASHBOOT",
      type: "QUEUE",
    });
    expect(e.flashboot).toBe(true);
    expect((await client.endpoints.update(e.id, { flashboot: "OFF" })).flashboot).toBe(false);
  });
});

describe("what only v2 has, and how v2 differs", () => {
  it("creates a load-balancing endpoint (REQUEST_COUNT by default) that answers HTTP at its base, with /ping", async () => {
    const e = await clients.v2.endpoints.create({
      name: "balanced",
      templateId: "echo",
      type: "LOAD_BALANCER",
      gpuPools: ["ADA_24", "AMPERE_24"],
      excludedGpuTypes: ["NVIDIA GeForce RTX 3090"],
      workersMin: 1,
    });
    expect(e).toMatchObject({
      type: "LOAD_BALANCER",
      scalerType: "REQUEST_COUNT",
      gpuPools: ["ADA_24", "AMPERE_24"],
      excludedGpuTypes: ["NVIDIA GeForce RTX 3090"],
      gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090"],
    });
    const base = e.requestUrls?.base;
    expect(base).toBe(`${emulator.url}/lb/${e.id}`);
    const headers = { authorization: "Bearer neutral" };
    expect((await fetch(e.requestUrls!.health!, { headers })).status).toBe(200);
    const answer = await fetch(`${base}/v1/chat?stream=false`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ messages: ["hi"] }),
    });
    expect(await answer.json()).toMatchObject({
      method: "POST",
      path: "/v1/chat",
      query: { stream: "false" },
      body: { messages: ["hi"] },
    });
    // v1 sees it too (as a queue-less endpoint it cannot tell apart), with its pools as GPU types.
    expect(await clients.v1.endpoints.get(e.id)).toMatchObject({
      gpuTypeIds: e.gpuTypeIds,
      scalerType: "REQUEST_COUNT",
    });
  });

  it("refuses v2-only inputs on v1 before sending, naming the field and both versions", async () => {
    const before = await requests();
    const lb = await refusal(clients.v1.endpoints.create({ name: "x", templateId: "echo", type: "LOAD_BALANCER" }));
    expect(lb).toBeInstanceOf(RequestValidationError);
    expect(lb!.message).toMatch(
      /type = "LOAD_BALANCER": load-balancing endpoints .* only on management API v2, and the API URL names v1/,
    );
    const pools = await refusal(clients.v1.endpoints.update("any", { gpuPools: ["ADA_24"] }));
    expect(pools!.message).toMatch(/gpuPools = \["ADA_24"\]: GPU pools/);
    const priority = await refusal(
      clients.v1.endpoints.create({ templateId: "echo", flashboot: "PRIORITY_FLASHBOOT" }),
    );
    expect(priority!.message).toMatch(/flashboot = "PRIORITY_FLASHBOOT": priority flash-boot modes/);
    const ssh = await refusal(clients.v1.templates.create({ name: "t", imageName: "i", startSsh: false }));
    expect(ssh!.message).toMatch(/startSsh = false: template SSH switches/);
    expect(await requests()).toBe(before);
  });

  it("refuses on v2 what v2 cannot carry or the platform refuses, before sending the write", async () => {
    await clients.v2.endpoints.list(); // the GPU catalog is read once and kept
    const before = await requests();
    const noName = await refusal(clients.v2.endpoints.create({ templateId: "echo" }));
    expect(noName!.message).toMatch(/name = undefined: is required on management API v2/);
    const delay = await refusal(
      clients.v2.endpoints.create({ name: "x", templateId: "echo", type: "LOAD_BALANCER", scalerType: "QUEUE_DELAY" }),
    );
    expect(delay!.message).toMatch(/scalerType = "QUEUE_DELAY": a LOAD_BALANCER endpoint has no queue/);
    const podOnly = await refusal(
      clients.v2.endpoints.create({
        name: "x",
        templateId: "echo",
        gpuTypeIds: ["NVIDIA L4", "NVIDIA GeForce RTX 3080"],
      }),
    );
    expect(podOnly!.message).toMatch(/gpuTypeIds\.1 = "NVIDIA GeForce RTX 3080": is in no serverless GPU pool/);
    const unknown = await refusal(
      clients.v2.endpoints.create({ name: "x", templateId: "echo", gpuTypeIds: ["NVIDIA Z9000"] }),
    );
    expect(unknown!.message).toMatch(/gpuTypeIds\.0 = "NVIDIA Z9000": is not a GPU type of the platform's catalog/);
    const readme = await refusal(clients.v2.templates.create({ name: "t", imageName: "i", readme: "# hi" }));
    expect(readme!.message).toMatch(/readme = \(text of 4 characters\): template readmes .* only on management API v1/);
    const entrypoint = await refusal(
      clients.v2.templates.create({ name: "t", imageName: "i", dockerEntrypoint: ["bash"] }),
    );
    expect(entrypoint!.message).toMatch(/dockerEntrypoint = \(a list of 1\): entrypoint overrides/);
    // v2's own rules, named with the neutral fields.
    const vcpus = await refusal(
      clients.v2.endpoints.create({
        name: "x",
        templateId: "echo",
        computeType: "CPU",
        cpuFlavorIds: ["cpu3c"],
        vcpuCount: 3,
      }),
    );
    expect(vcpus!.message).toMatch(/vcpuCount = 3: must be a power of two/);
    const disk = await refusal(clients.v2.templates.create({ name: "t", imageName: "i", containerDiskInGb: 0 }));
    expect(disk!.message).toMatch(/containerDiskInGb = 0: must be at least 1 GB/);
    expect(await requests()).toBe(before);
  });

  it("reads one endpoint through both dialects under one id: types, scaler and workers agree", async () => {
    const made = await clients.v1.endpoints.create({
      name: "shared",
      templateId: "echo",
      gpuTypeIds: ["NVIDIA RTX A6000", "NVIDIA A40"],
      workersMax: 4,
    });
    const seen = await clients.v2.endpoints.get(made.id);
    // v2 keeps no order among types: they read back in catalog order.
    expect(seen.gpuTypeIds).toEqual(["NVIDIA A40", "NVIDIA RTX A6000"]);
    expect(seen).toMatchObject({ gpuPools: ["AMPERE_48"], excludedGpuTypes: [], workersMax: 4 });
    expect(seen.templateId).toBeUndefined();
    const changed = await clients.v2.endpoints.update(made.id, { gpuTypeIds: ["NVIDIA A40"], workersMin: 1 });
    expect(changed).toMatchObject({ gpuTypeIds: ["NVIDIA A40"], excludedGpuTypes: ["NVIDIA RTX A6000"] });
    expect(await clients.v1.endpoints.get(made.id)).toMatchObject({
      gpuTypeIds: ["NVIDIA A40"],
      workersMin: 1,
      templateId: "echo",
    });

    const tpl = await clients.v2.templates.create({
      name: "v2-made",
      imageName: "ghcr.io/acme/echo:1",
      args: "serve --port 80",
    });
    expect(await clients.v1.templates.get(tpl.id)).toMatchObject({ dockerStartCmd: ["serve", "--port", "80"] });
    expect(tpl).toMatchObject({ args: "serve --port 80", dockerStartCmd: ["serve", "--port", "80"], startSsh: true });
  });
});

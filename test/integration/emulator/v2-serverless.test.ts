import { describe, expect, it } from "vitest";
import { useTestEmulator } from "./helpers";
import { COLLECTION, conforms, endpointCreator, ITEM, QUEUE_BODY } from "./v2-serverless-fixture";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;
const create = endpointCreator(api);

describe("management v2 serverless endpoints (/v2/serverless)", () => {
  it("creates a queue endpoint (201) with its job URLs, reads, lists, and each answer conforms", async () => {
    const e = await create();
    expect(e).toMatchObject({
      id: expect.stringMatching(/^[a-z0-9]{14}$/),
      name: "images",
      type: "QUEUE",
      image: "ghcr.io/acme/echo:1.0",
      gpu: { pools: ["ADA_24"], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
      workers: { min: 0, max: 2, idleTimeout: 5 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      flashboot: "OFF",
      timeout: 300_000,
      networkVolumes: [],
    });
    expect(e.requestUrls).toEqual({
      run: `${ctx.emu.url}/v2/${e.id}/run`,
      runSync: `${ctx.emu.url}/v2/${e.id}/runsync`,
      status: `${ctx.emu.url}/v2/${e.id}/status/{job_id}`,
      stream: `${ctx.emu.url}/v2/${e.id}/stream/{job_id}`,
      cancel: `${ctx.emu.url}/v2/${e.id}/cancel/{job_id}`,
      retry: `${ctx.emu.url}/v2/${e.id}/retry/{job_id}`,
      purgeQueue: `${ctx.emu.url}/v2/${e.id}/purge-queue`,
      health: `${ctx.emu.url}/v2/${e.id}/health`,
    });
    expect(conforms("GET", ITEM, await api.get(`${COLLECTION}/${e.id}`)).body).toEqual(e);
    const list = conforms("GET", COLLECTION, await api.get(COLLECTION));
    expect(list.body.endpoints).toContainEqual(e);
  });

  it("runs jobs on the queue routes with the handler its own image names", async () => {
    const e = await create({ name: "runs" });
    const done = await api.post(`/v2/${e.id}/runsync`, { input: { hello: "v2" } });
    expect(done.body).toMatchObject({ status: "COMPLETED", output: { hello: "v2" } });
    const unknown = await create({ name: "no-handler", image: "ghcr.io/acme/nothing-here:2" });
    const failed = await api.post(`/v2/${unknown.id}/runsync`, { input: {} });
    expect(failed.body).toMatchObject({ status: "FAILED", error: expect.stringContaining("nothing-here") });
  });

  it("copies a serverless template's settings once (no link kept), body fields and env winning", async () => {
    const t = (
      await api.post("/v2/templates", {
        name: "base",
        image: "ghcr.io/acme/echo:2",
        serverless: true,
        env: { A: "template", B: "template" },
        ports: ["8000/http"],
        allowedCudaVersions: ["12.4"],
      })
    ).body;
    const e = await create({ name: "from-template", image: undefined, templateId: t.id, env: { B: "body" } });
    expect(e).toMatchObject({ image: "ghcr.io/acme/echo:2", env: { A: "template", B: "body" }, ports: ["8000/http"] });
    expect(e.gpu.allowedCudaVersions).toEqual(["12.4"]);
    expect(e.templateId).toBeUndefined();
    await api.patch(`/v2/templates/${t.id}`, { image: "ghcr.io/acme/sleep:3" });
    expect((await api.get(`${COLLECTION}/${e.id}`)).body.image).toBe("ghcr.io/acme/echo:2");
    // Not bound to the endpoint: the template can go.
    expect((await api.del(`/v2/templates/${t.id}`)).status).toBe(204);
  });

  it("answers an unknown template with 404 and a pod template with 422, as problem objects", async () => {
    const missing = conforms(
      "POST",
      COLLECTION,
      await api.post(COLLECTION, { ...QUEUE_BODY, image: undefined, templateId: "nope" }),
    );
    expect(missing.status).toBe(404);
    const pod = (await api.post("/v2/templates", { name: "pod-only", image: "ghcr.io/acme/echo:1" })).body;
    const refused = conforms("POST", COLLECTION, await api.post(COLLECTION, { ...QUEUE_BODY, templateId: pod.id }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatch(/^\$\.templateId: is a pod template/);
  });

  it("refuses what the OpenAPI refuses, naming each field", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ image: undefined }, /^\$\.image: is required unless templateId is given/],
      [{ gpu: undefined }, /^\$\.gpu: give exactly one of gpu or cpu/],
      [{ cpu: [{ id: "cpu3c", vcpuCount: 4 }] }, /^\$\.gpu: give exactly one of gpu or cpu/],
      [{ type: "LOAD_BALANCER" }, /^\$\.scaling\.type: a LOAD_BALANCER endpoint scales on REQUEST_COUNT/],
      [
        { scaling: { type: "REQUEST_COUNT", requestCount: 2 }, workers: { idleTimeout: 5 } },
        /^\$\.workers\.idleTimeout: does not apply/,
      ],
      [
        { gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } },
        /^\$\.gpu\.minCudaVersion: give/,
      ],
      [{ gpu: { pools: ["NO_SUCH_POOL"] } }, /^\$\.gpu\.pools\.0: is not a serverless GPU pool/],
      [
        { gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] } },
        /^\$\.gpu\.excludedTypes\.0: is not a GPU type of the selected pools/,
      ],
      [{ gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090"] } }, /leaves no GPU type/],
      [{ networkVolumes: ["nope"] }, /^\$\.networkVolumes\.0: is not a network volume of this account/],
      [{ bogus: true }, /bogus/],
    ];
    for (const [body, rule] of cases) {
      const res = conforms("POST", COLLECTION, await api.post(COLLECTION, { ...QUEUE_BODY, ...body }));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.join("\n"), JSON.stringify(body)).toMatch(rule);
    }
  });

  it("creates a CPU endpoint with its configurations and the memory their flavors give", async () => {
    const e = await create({
      name: "cpu",
      gpu: undefined,
      cpu: [
        { id: "cpu5c", vcpuCount: 4 },
        { id: "cpu5g", vcpuCount: 8 },
      ],
    });
    expect(e.cpu).toEqual([
      { id: "cpu5c", vcpuCount: 4, memory: 8 },
      { id: "cpu5g", vcpuCount: 8, memory: 32 },
    ]);
    expect(e.gpu).toBeUndefined();
    const swap = conforms("PATCH", ITEM, await api.patch(`${COLLECTION}/${e.id}`, { gpu: { count: 2 } }));
    expect(swap.status).toBe(400);
  });

  it("patches only the given fields; pools without excludedTypes clear them; container and GPU changes make releases", async () => {
    const e = await create({ name: "patched", gpu: { pools: ["ADA_48_PRO"], excludedTypes: ["NVIDIA L40"] } });
    const renamed = conforms(
      "PATCH",
      ITEM,
      await api.patch(`${COLLECTION}/${e.id}`, { name: "renamed", workers: { max: 5 } }),
    );
    expect(renamed.body).toMatchObject({ name: "renamed", workers: { min: 0, max: 5, idleTimeout: 5 } });
    expect(renamed.body.gpu.excludedTypes).toEqual(["NVIDIA L40"]);
    const cleared = conforms(
      "PATCH",
      ITEM,
      await api.patch(`${COLLECTION}/${e.id}`, { gpu: { pools: ["ADA_48_PRO"] } }),
    );
    expect(cleared.body.gpu.excludedTypes).toEqual([]);
    const exclusionsAlone = conforms(
      "PATCH",
      ITEM,
      await api.patch(`${COLLECTION}/${e.id}`, { gpu: { excludedTypes: ["NVIDIA L40"] } }),
    );
    expect(exclusionsAlone.body.errors[0]).toMatch(/^\$\.gpu\.excludedTypes: requires pools/);

    const imaged = conforms(
      "PATCH",
      ITEM,
      await api.patch(`${COLLECTION}/${e.id}`, { image: "ghcr.io/acme/sleep:1", env: { TOKEN: "s3cr3t" } }),
    );
    expect(imaged.body).toMatchObject({ image: "ghcr.io/acme/sleep:1", env: { TOKEN: "s3cr3t" } });
    // The same settings again change nothing: no new version, no release.
    const same = await api.patch(`${COLLECTION}/${e.id}`, { image: "ghcr.io/acme/sleep:1", env: { TOKEN: "s3cr3t" } });
    expect(same.body).toEqual(imaged.body);
    expect((await api.get(`/v1/endpoints/${e.id}`)).body.version).toBe(3);
    const releases = conforms("GET", "/v2/serverless/{id}/releases", await api.get(`${COLLECTION}/${e.id}/releases`));
    // The GPU pools' change (version 2) restarts the workers too; the rename (version 1) does not.
    expect(releases.body.releases.map((r: { version: number }) => r.version)).toEqual([3, 2, 0]);
    expect(releases.body.endpointVersion).toBe(3);
    expect(releases.body.releases[0].diff).toEqual([
      { field: "image", old: "ghcr.io/acme/echo:1.0", new: "ghcr.io/acme/sleep:1" },
      { field: "env.TOKEN", old: null, new: "[hidden]" },
    ]);
    expect(JSON.stringify(releases.body)).not.toContain("s3cr3t");
    expect(releases.body.rollout).toEqual({
      inProgress: false,
      workersOnLatest: 0,
      workersTotal: 0,
      percentOnLatest: 0,
    });
  });

  it("lists workers with their status, version and staleness, and streams a worker's log", async () => {
    const e = await create({ name: "workers", workers: { min: 1, max: 1, idleTimeout: 5 } });
    const listed = conforms("GET", "/v2/serverless/{id}/workers", await api.get(`${COLLECTION}/${e.id}/workers`));
    expect(listed.body.summary).toEqual({ running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0, total: 1 });
    const [worker] = listed.body.workers;
    expect(worker).toMatchObject({
      status: "IDLE",
      isStale: false,
      version: 0,
      gpuCount: 1,
      image: "ghcr.io/acme/echo:1.0",
    });
    expect(worker.gpuTypeId).toBe("NVIDIA GeForce RTX 4090");
    await api.post(`/v2/${e.id}/runsync`, { input: { n: 1 } });

    const controller = new AbortController();
    const res = await fetch(`${ctx.emu.url}${COLLECTION}/${e.id}/workers/${worker.id}/logs?tail=10`, {
      headers: { authorization: `Bearer ${"test-key-alpha-0001"}` },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = "";
    while ((text.match(/\n\n/g) ?? []).length < 3) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const events = text
      .trim()
      .split("\n\n")
      .map((block) =>
        JSON.parse(
          block
            .split("\n")
            .find((l) => l.startsWith("data: "))!
            .slice(6),
        ),
      );
    expect(events.map((ev) => ev.line)).toEqual([
      expect.stringMatching(/^worker \S+ started/),
      expect.stringMatching(/^job \S+ started$/),
      expect.stringMatching(/^job \S+ completed in \d+ ms$/),
    ]);
    expect(events.map((ev) => ev.source)).toEqual(["system", "container", "container"]);
    expect(text.split("\n")[0]).toBe(`id: ${events[0].ts}`);

    const missing = conforms(
      "GET",
      "/v2/serverless/{id}/workers/{workerId}/logs",
      await api.get(`${COLLECTION}/${e.id}/workers/nobody/logs`),
    );
    expect(missing.status).toBe(404);
    const badTail = await api.get(`${COLLECTION}/${e.id}/workers/${worker.id}/logs?tail=9000`);
    expect(badTail.status).toBe(422);

    // A release rolls the workers: an idle one is replaced at once, a busy one finishes its job first.
    await api.patch(`${COLLECTION}/${e.id}`, { image: "ghcr.io/acme/sleep:1" });
    const rolled = (await api.get(`${COLLECTION}/${e.id}/workers`)).body;
    expect(rolled.workers).toEqual([
      expect.objectContaining({ isStale: false, version: 1, image: "ghcr.io/acme/sleep:1" }),
    ]);
    expect(rolled.workers[0].id).not.toBe(worker.id);
    await api.post(`/v2/${e.id}/run`, { input: { seconds: 60 } });
    await api.patch(`${COLLECTION}/${e.id}`, { env: { MODE: "new" } });
    const stale = (await api.get(`${COLLECTION}/${e.id}/workers`)).body;
    expect(stale.workers[0]).toMatchObject({ isStale: true, version: 1, status: "RUNNING" });
    expect(stale.endpointVersion).toBe(2);
    const rollout = (await api.get(`${COLLECTION}/${e.id}/releases`)).body.rollout;
    expect(rollout).toEqual({ inProgress: true, workersOnLatest: 0, workersTotal: 1, percentOnLatest: 0 });
  });

  it("deletes (204), then answers 404; other accounts see nothing", async () => {
    const e = await create({ name: "gone" });
    expect((await other.get(`${COLLECTION}/${e.id}`)).status).toBe(404);
    expect(conforms("DELETE", ITEM, await api.del(`${COLLECTION}/${e.id}`)).status).toBe(204);
    expect(conforms("GET", ITEM, await api.get(`${COLLECTION}/${e.id}`)).status).toBe(404);
    expect(conforms("DELETE", ITEM, await api.del(`${COLLECTION}/${e.id}`)).status).toBe(404);
  });
});

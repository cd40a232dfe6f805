import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually, KEY, useTestEmulator } from "./helpers";

/*
 * The platform's rolling release (docs/emulator.md "Rolling releases"): workers take
 * `workerBootMs` to start, a new release replaces idle workers at once and busy ones after their
 * job, new work goes to new-version workers, and an image whose container throws when loaded is a
 * crash at start. On a manual clock, so every step is seen as it happens.
 */
const dir = mkdtempSync(path.join(tmpdir(), "emulator-rollout-"));
writeFileSync(path.join(dir, "crash.mjs"), `throw new Error("CUDA error: out of memory");\n`);
writeFileSync(path.join(dir, "v2-echo.mjs"), `export default async ({ input }) => ({ version: 2, input });\n`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BOOT_MS = 5000;
const ctx = useTestEmulator({ handlersDir: dir, workerBootMs: BOOT_MS });
const { api } = ctx;

type WorkerView = { id: string; status: string; version: number; isStale: boolean; image: string };

async function create(image: string, workers: { min: number; max: number }) {
  const res = await api.post("/v2/serverless", {
    name: "rolled",
    type: "QUEUE",
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    image,
    gpu: { pools: ["ADA_24"] },
    workers: { ...workers, idleTimeout: 600 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}
const workersOf = async (id: string) =>
  (await api.get(`/v2/serverless/${id}/workers`)).body as { workers: WorkerView[]; endpointVersion: number };
const rolloutOf = async (id: string) => (await api.get(`/v2/serverless/${id}/releases`)).body.rollout;
const statuses = (ws: WorkerView[]) => ws.map((w) => `${w.status}@${w.version}`).sort();
/** The first `count` lines of a worker's log stream, as `source: line`. */
async function logLines(route: string, count: number): Promise<string[]> {
  const controller = new AbortController();
  const res = await fetch(`${ctx.emu.url}${route}`, {
    headers: { authorization: `Bearer ${KEY}` },
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  let text = "";
  while ((text.match(/\n\n/g) ?? []).length < count) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return text
    .trim()
    .split("\n\n")
    .map(
      (b) =>
        JSON.parse(
          b
            .split("\n")
            .find((l) => l.startsWith("data: "))!
            .slice(6),
        ) as { source: string; line: string },
    )
    .map((l) => `${l.source}: ${l.line}`);
}
const health = async (id: string) => (await api.get(`/v2/${id}/health`)).body;

describe("rolling releases", () => {
  it("starts a worker in workerBootMs: INITIALIZING, no job taken, then IDLE and serving", async () => {
    const id = await create("ghcr.io/acme/echo:1", { min: 1, max: 1 });
    expect(statuses((await workersOf(id)).workers)).toEqual(["INITIALIZING@0"]);
    expect((await health(id)).workers).toMatchObject({ idle: 0, initializing: 1, ready: 0 });
    const job = (await api.post(`/v2/${id}/run`, { input: { n: 1 } })).body.id;
    await ctx.clock.advance(BOOT_MS - 1);
    expect((await api.get(`/v2/${id}/status/${job}`)).body.status).toBe("IN_QUEUE");
    await ctx.clock.advance(1);
    await eventually(async () => expect((await api.get(`/v2/${id}/status/${job}`)).body.status).toBe("COMPLETED"));
    expect(statuses((await workersOf(id)).workers)).toEqual(["IDLE@0"]);
  });

  it("replaces idle workers at once, lets a busy one finish first, and sends new work to the new version", async () => {
    const id = await create("ghcr.io/acme/sleep:1", { min: 2, max: 3 });
    await ctx.clock.advance(BOOT_MS);
    const busyJob = (await api.post(`/v2/${id}/run`, { input: { seconds: 60 } })).body.id;
    const before = (await workersOf(id)).workers;
    expect(statuses(before)).toEqual(["IDLE@0", "RUNNING@0"]);
    const busy = before.find((w) => w.status === "RUNNING")!;

    await api.patch(`/v2/serverless/${id}`, { image: "ghcr.io/acme/v2-echo:2" });
    const rolling = await workersOf(id);
    expect(rolling.endpointVersion).toBe(1);
    expect(statuses(rolling.workers)).toEqual(["INITIALIZING@1", "RUNNING@0"]);
    expect(rolling.workers.find((w) => w.id === busy.id)).toMatchObject({
      isStale: true,
      image: "ghcr.io/acme/sleep:1",
    });
    expect(await rolloutOf(id)).toEqual({ inProgress: true, workersOnLatest: 1, workersTotal: 2, percentOnLatest: 50 });

    // A job sent now waits for the new version's worker, not for the old one.
    const fresh = (await api.post(`/v2/${id}/run`, { input: { n: 7 } })).body.id;
    await ctx.clock.advance(BOOT_MS);
    await eventually(async () =>
      expect((await api.get(`/v2/${id}/status/${fresh}`)).body).toMatchObject({
        status: "COMPLETED",
        output: { version: 2, input: { n: 7 } },
      }),
    );
    expect((await api.get(`/v2/${id}/status/${busyJob}`)).body.status).toBe("IN_PROGRESS");

    // The busy worker finishes its job on the old image, then is replaced.
    await ctx.clock.advance(60_000 - BOOT_MS);
    await eventually(async () =>
      expect((await api.get(`/v2/${id}/status/${busyJob}`)).body).toMatchObject({
        status: "COMPLETED",
        output: { slept: 60 },
      }),
    );
    expect(statuses((await workersOf(id)).workers)).toEqual(["IDLE@1", "INITIALIZING@1"]);
    expect((await rolloutOf(id)).inProgress).toBe(false);
    await ctx.clock.advance(BOOT_MS);
    const after = (await workersOf(id)).workers;
    expect(statuses(after)).toEqual(["IDLE@1", "IDLE@1"]);
    expect(after.every((w) => !w.isStale && w.image === "ghcr.io/acme/v2-echo:2")).toBe(true);
    expect(after.map((w) => w.id)).not.toContain(busy.id);
  });

  it("runs an image whose handler throws when loaded as a container that crashes at start, and recovers on a rollback", async () => {
    const id = await create("ghcr.io/acme/echo:1", { min: 1, max: 1 });
    await ctx.clock.advance(BOOT_MS);
    await api.patch(`/v2/serverless/${id}`, { image: "ghcr.io/acme/crash:2" });
    await ctx.clock.advance(BOOT_MS);
    const [crashed] = (await workersOf(id)).workers;
    expect(crashed).toMatchObject({ status: "UNHEALTHY", version: 1, isStale: false });
    expect((await health(id)).workers).toMatchObject({ unhealthy: 1, ready: 0 });
    const lines = await logLines(`/v2/serverless/${id}/workers/${crashed!.id}/logs?tail=10`, 3);
    expect(lines).toEqual([
      `system: worker ${crashed!.id} pulling its image and starting`,
      "container: Error: CUDA error: out of memory",
      `system: worker ${crashed!.id} cannot start: its container exited at start (exit code 1); trying again every 30 s`,
    ]);
    // A job waits: no worker can take it. Retrying changes nothing while the image crashes.
    const job = (await api.post(`/v2/${id}/run`, { input: { n: 1 } })).body.id;
    await ctx.clock.advance(60_000);
    expect((await api.get(`/v2/${id}/status/${job}`)).body.status).toBe("IN_QUEUE");
    expect(statuses((await workersOf(id)).workers)).toEqual(["UNHEALTHY@1"]);

    // Rolled back: the old image's worker starts and serves the job.
    await api.patch(`/v2/serverless/${id}`, { image: "ghcr.io/acme/echo:1" });
    await ctx.clock.advance(BOOT_MS);
    await eventually(async () =>
      expect((await api.get(`/v2/${id}/status/${job}`)).body).toMatchObject({ status: "COMPLETED", output: { n: 1 } }),
    );
    expect(statuses((await workersOf(id)).workers)).toEqual(["IDLE@2"]);
  });

  it("rolls the v1 endpoints linked to a template when the template changes", async () => {
    const t = await api.post("/v1/templates", { name: "tpl", imageName: "ghcr.io/acme/echo:1", isServerless: true });
    const e = await api.post("/v1/endpoints", {
      name: "linked",
      templateId: t.body.id,
      workersMin: 1,
      gpuTypeIds: ["NVIDIA L4"],
    });
    await ctx.clock.advance(BOOT_MS);
    const read = async () => (await api.get(`/v1/endpoints/${e.body.id}?includeWorkers=true`)).body;
    expect((await read()).workers.map((w: { image: string }) => w.image)).toEqual(["ghcr.io/acme/echo:1"]);

    await api.patch(`/v1/templates/${t.body.id}`, { imageName: "ghcr.io/acme/v2-echo:2", env: { MODE: "b" } });
    const releases = (await api.get(`/v2/serverless/${e.body.id}/releases`)).body;
    expect(releases.releases[0].diff).toEqual([
      { field: "template.imageName", old: "ghcr.io/acme/echo:1", new: "ghcr.io/acme/v2-echo:2" },
      { field: "template.env.MODE", old: null, new: "[hidden]" },
    ]);
    expect(releases.rollout.inProgress).toBe(false); // the idle worker was replaced; its successor starts
    expect((await read()).version).toBe(1);
    await ctx.clock.advance(BOOT_MS);
    expect((await read()).workers.map((w: { image: string }) => w.image)).toEqual(["ghcr.io/acme/v2-echo:2"]);
    const out = (await api.post(`/v2/${e.body.id}/runsync`, { input: { n: 2 } })).body;
    expect(out).toMatchObject({ status: "COMPLETED", output: { version: 2 } });
  });

  it("holds a load-balancing request while its worker boots; /ping answers 204 until it is up", async () => {
    const res = await api.post("/v2/serverless", {
      name: "lb",
      type: "LOAD_BALANCER",
      image: "ghcr.io/acme/echo:1",
      gpu: { pools: ["ADA_24"] },
      scaling: { type: "REQUEST_COUNT", requestCount: 1 },
      workers: { min: 1, max: 1, idleTimeout: 600 },
    });
    const base = `/lb/${res.body.id}`;
    expect((await api.get(`${base}/ping`)).status).toBe(204);
    const pending = api.post(`${base}/hello`, { a: 1 });
    await ctx.clock.advance(BOOT_MS);
    expect((await pending).status).toBe(200);
    expect((await api.get(`${base}/ping`)).status).toBe(200);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Answer, eventually, settle, useTestEmulator } from "./helpers";

/**
 * Worker affinity on load-balancing endpoints (docs/emulator.md "Worker affinity"): every answer a
 * worker gives names it in `X-Runpod-Worker-Id`, and the request header pins a request softly,
 * strictly or strictly with resumption, with the 404 and 400 of the platform. A manual clock, so
 * the strict wait of 5 minutes passes at once.
 */
const dir = mkdtempSync(path.join(tmpdir(), "emulator-affinity-"));
writeFileSync(
  path.join(dir, "slow-http.mjs"),
  `export default async ({ input, sleep }) => {
    await sleep(Number(input.query.ms ?? 0));
    if (input.path === "/boom") return { statusCode: 500, body: { error: "boom" } };
    return { path: input.path };
  };\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = useTestEmulator({ handlersDir: dir }, "file");
const { api } = ctx;
const WORKER = "x-runpod-worker-id";

async function balancer(workers: { min: number; max: number }): Promise<{ id: string; base: string }> {
  const res = await api.post("/v2/serverless", {
    name: "pinned",
    type: "LOAD_BALANCER",
    image: "ghcr.io/acme/slow-http:1",
    gpu: { pools: ["ADA_24"] },
    scaling: { type: "REQUEST_COUNT", requestCount: 1 },
    workers: { ...workers, idleTimeout: 5 },
    timeout: 3_600_000, // longer than every request here, the strict wait's 5 minutes included
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, base: `/lb/${res.body.id}` };
}

const get = (url: string, pin?: string) => api.send("GET", url, undefined, pin === undefined ? {} : { [WORKER]: pin });
const servedBy = (res: Answer) => res.headers[WORKER] as string | undefined;
const workerIds = async (id: string) =>
  ((await api.get(`/v2/serverless/${id}/workers`)).body.workers as { id: string }[]).map((w) => w.id).sort();

/** Waits until `n` of the endpoint's workers are serving requests. */
const untilRunning = (id: string, n: number) =>
  eventually(async () => expect((await api.get(`/v2/serverless/${id}/workers`)).body.summary.running).toBe(n));

/** Two workers up and idle: two slow requests at once start them. */
async function twoWorkers(id: string, base: string): Promise<[string, string]> {
  const both = [get(`${base}/warm?ms=100`), get(`${base}/warm?ms=100`)];
  await untilRunning(id, 2);
  await ctx.clock.advance(100);
  const ids = (await Promise.all(both)).map(servedBy);
  expect(new Set(ids).size).toBe(2);
  return ids as [string, string];
}

describe("worker affinity on load-balancing endpoints", () => {
  it("names the serving worker on every answer, errors included", async () => {
    const { id, base } = await balancer({ min: 0, max: 2 });
    const ok = await get(`${base}/hello`);
    expect(ok.status).toBe(200);
    expect(await workerIds(id)).toEqual([servedBy(ok)]);
    const failed = await get(`${base}/boom`);
    expect(failed.status).toBe(500);
    expect(servedBy(failed)).toBe(servedBy(ok));
    const none = await balancer({ min: 0, max: 0 });
    const refused = await get(`${none.base}/x`);
    expect(refused.status).toBe(503);
    expect(servedBy(refused)).toBeUndefined();
  });

  it("soft: prefers the worker, and routes elsewhere without waiting when it is busy or unknown", async () => {
    const { id, base } = await balancer({ min: 0, max: 2 });
    const [a, b] = await twoWorkers(id, base);
    for (let i = 0; i < 3; i++) expect(servedBy(await get(`${base}/again`, b))).toBe(b);
    const busy = get(`${base}/long?ms=1000`, b);
    await untilRunning(id, 1);
    expect(servedBy(await get(`${base}/meanwhile`, b))).toBe(a);
    await ctx.clock.advance(1000);
    expect(servedBy(await busy)).toBe(b);
    expect((await get(`${base}/x`, "nosuchworker")).status).toBe(200);
  });

  it("strict: only that worker, waiting while it is at capacity; 404 when it is gone, 400 after 5 minutes", async () => {
    const { id, base } = await balancer({ min: 0, max: 2 });
    const [, b] = await twoWorkers(id, base);
    const long = get(`${base}/long?ms=2000`, `strict ${b}`);
    await untilRunning(id, 1);
    const waiting = get(`${base}/after`, `strict ${b}`);
    await settle();
    await ctx.clock.advance(2000);
    const [first, second] = await Promise.all([long, waiting]);
    expect([servedBy(first), servedBy(second)]).toEqual([b, b]);
    expect(second.body).toEqual({ path: "/after" });

    const gone = await get(`${base}/x`, "strict nosuchworker");
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: "affinity_worker_gone" });

    const hog = get(`${base}/hog?ms=600000`, `strict ${b}`);
    await untilRunning(id, 1);
    const starved = get(`${base}/starved`, `strict ${b}`);
    await settle();
    await ctx.clock.advance(300_000);
    const timedOut = await starved;
    expect(timedOut.status).toBe(400);
    // The platform's table says worker_timeout, its prose "timed out waiting for worker": both are sent.
    expect(timedOut.body).toMatchObject({
      error: "worker_timeout",
      message: expect.stringContaining("timed out waiting for worker"),
    });
    await ctx.clock.advance(300_000);
    expect((await hog).status).toBe(200);
  });

  it("strict-resume: brings a scaled-down worker back under its id; 404 once a new release replaced it", async () => {
    const { id, base } = await balancer({ min: 0, max: 1 });
    const worker = servedBy(await get(`${base}/once`))!;
    await ctx.clock.advance(6000); // past the idle timeout: scaled down
    await eventually(async () => expect(await workerIds(id)).toEqual([]));
    expect((await get(`${base}/x`, `strict ${worker}`)).status).toBe(404);
    const resumed = await get(`${base}/x`, `strict-resume ${worker}`);
    expect(resumed.status).toBe(200);
    expect(servedBy(resumed)).toBe(worker);
    expect(await workerIds(id)).toEqual([worker]);
    expect((await get(`${base}/x`, "strict-resume neverseen")).status).toBe(404);

    await ctx.clock.advance(6000);
    await eventually(async () => expect(await workerIds(id)).toEqual([]));
    const patched = await api.patch(`/v2/serverless/${id}`, { image: "ghcr.io/acme/slow-http:2" });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const redeployed = await get(`${base}/x`, `strict-resume ${worker}`);
    expect(redeployed.status).toBe(404);
    expect(redeployed.body.error).toBe("affinity_worker_gone");
  });
});

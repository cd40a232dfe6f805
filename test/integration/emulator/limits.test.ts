import { describe, expect, it } from "vitest";
import { LIMITS } from "../../../sdk/schemas";
import { createEndpoint, runJob, untilJobs, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "manual");
const { api } = ctx;
const start = ctx.start;

function bodyOfSize(bytes: number): string {
  const head = '{"input":{"data":"';
  const tail = '"}}';
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

describe("payload limits (docs/platform.md 'Payloads and retention')", () => {
  it("accepts a /run body of exactly 10 MB and refuses one byte more with 413", async () => {
    await start();
    const ep = await createEndpoint(api, { workersMax: 0 });
    expect((await api.send("POST", `/v2/${ep}/run`, bodyOfSize(LIMITS.runPayloadBytes))).status).toBe(200);
    const res = await api.send("POST", `/v2/${ep}/run`, bodyOfSize(LIMITS.runPayloadBytes + 1));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "payload_too_large", message: expect.stringContaining("10 MB") });
  });

  it("accepts a /runsync body of exactly 20 MB and refuses one byte more with 413", async () => {
    await start();
    const ep = await createEndpoint(api, { workersMax: 1 });
    const ok = await api.send("POST", `/v2/${ep}/runsync`, bodyOfSize(LIMITS.runSyncPayloadBytes));
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("COMPLETED");
    const res = await api.send("POST", `/v2/${ep}/runsync`, bodyOfSize(LIMITS.runSyncPayloadBytes + 1));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain("20 MB");
  });
});

describe("policy bounds (docs/platform.md 'Job request')", () => {
  it.each([
    [{ ttl: 9_999 }, "policy.ttl", "ttl must be at least 10000 ms"],
    [{ ttl: 604_800_001 }, "policy.ttl", "ttl must be at most 604800000 ms"],
    [{ executionTimeout: 4_999 }, "policy.executionTimeout", "executionTimeout must be at least 5000 ms"],
    [{ executionTimeout: 604_800_001 }, "policy.executionTimeout", "executionTimeout must be at most 604800000 ms"],
    [{ lowPriority: "yes" }, "policy.lowPriority", expect.any(String)],
  ])("refuses policy %j with 400 naming %s", async (policy, field, rule) => {
    await start();
    const ep = await createEndpoint(api);
    const res = await api.post(`/v2/${ep}/run`, { input: {}, policy });
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([{ field, value: expect.any(String), rule }]);
    expect(res.body.message).toContain(`${field} = `);
  });

  it("accepts the policy bounds themselves", async () => {
    await start();
    const ep = await createEndpoint(api);
    for (const policy of [
      { ttl: 10_000, executionTimeout: 5_000 },
      { ttl: 604_800_000, executionTimeout: 604_800_000, lowPriority: false },
    ]) {
      expect((await api.post(`/v2/${ep}/run`, { input: {}, policy })).status).toBe(200);
    }
  });
});

describe("rate limits (docs/platform.md 'Rate limits', per endpoint and per user)", () => {
  it("answers the third /purge-queue within 10 s with 429 and Retry-After, and allows it again in the next window", async () => {
    await start();
    const ep = await createEndpoint(api);
    await ctx.clock.advance(3000);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
    const limited = await api.post(`/v2/${ep}/purge-queue`);
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("7");
    expect(limited.body).toEqual({ error: "rate_limited", message: expect.stringContaining("2 requests per 10 s") });
    await ctx.clock.advance(7000);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
    expect((await api.get("/_emulator/stats")).body.rateLimited).toBe(1);
  });

  it("counts per endpoint and per key", async () => {
    await start();
    const a = await createEndpoint(api);
    const b = await createEndpoint(api);
    const mine = await createEndpoint(ctx.other);
    for (let i = 0; i < 2; i++) await api.post(`/v2/${a}/purge-queue`);
    expect((await api.post(`/v2/${a}/purge-queue`)).status).toBe(429);
    expect((await api.post(`/v2/${b}/purge-queue`)).status).toBe(200);
    expect((await ctx.other.post(`/v2/${mine}/purge-queue`)).status).toBe(200);
  });

  it("applies the /run rate of 1000 per 10 s (scaled by the multiplier option)", async () => {
    await start({ rateLimits: { multiplier: 0.005 } });
    const ep = await createEndpoint(api, { workersMax: 0 });
    for (let i = 0; i < 5; i++) expect((await api.post(`/v2/${ep}/run`, { input: {} })).status).toBe(200);
    const res = await api.post(`/v2/${ep}/run`, { input: {} });
    expect(res.status).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });

  it("gives Retry-After in real seconds when the clock runs fast (a 10 s window at --time-scale 100 is 100 ms)", async () => {
    await start({ timeScale: 100, rateLimits: { multiplier: 0.005 } });
    const ep = await createEndpoint(api, { workersMax: 0 });
    let res = await api.post(`/v2/${ep}/run`, { input: {} });
    while (res.status === 200) res = await api.post(`/v2/${ep}/run`, { input: {} });
    expect(res.status).toBe(429);
    // Platform seconds would say up to 10; the client waits on its own clock, where the window ends within 100 ms.
    expect(res.headers["retry-after"]).toBe("1");
  });

  it("raises the limit with running workers (dynamic rule: max(base, running workers x requests per worker))", async () => {
    await start({ rateLimits: { requestsPerWorker: 3 } });
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 2 });
    await runJob(api, ep, { input: { seconds: 100 } });
    await runJob(api, ep, { input: { seconds: 100 } });
    // 2 running workers x 3 = 6 > base 2 for /purge-queue.
    for (let i = 0; i < 6; i++) expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(429);
    await ctx.clock.advance(100_000);
    expect((await api.get(`/v2/${ep}/health`)).body.workers.running).toBe(0);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
    expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(429);
  });

  it("limits requests in flight (the concurrency column)", async () => {
    await start({ rateLimits: { multiplier: 0.0025 } });
    const ep = await createEndpoint(api, { workersMax: 0 });
    const first = api.post(`/v2/${ep}/runsync`, { input: {} });
    await untilJobs(api, ep, { inQueue: 1 });
    const second = await api.post(`/v2/${ep}/runsync`, { input: {} });
    expect(second.status).toBe(429);
    expect(second.body.message).toContain("in flight");
    await ctx.clock.advance(90_000);
    expect((await first).status).toBe(200);
    await ctx.clock.advance(10_000);
    const third = api.post(`/v2/${ep}/runsync?wait=1000`, { input: {} });
    await untilJobs(api, ep, { inQueue: 2 });
    await ctx.clock.advance(1000);
    expect((await third).status).toBe(200);
  });

  it("turns rate limiting off with rateLimits: false", async () => {
    await start({ rateLimits: false });
    const ep = await createEndpoint(api);
    for (let i = 0; i < 10; i++) expect((await api.post(`/v2/${ep}/purge-queue`)).status).toBe(200);
  });
});

import { describe, expect, it } from "vitest";
import { createEndpoint, runJob, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "manual");
const { api } = ctx;
const start = ctx.start;

describe("admin routes (/_emulator/)", () => {
  it("counts API requests per route and per account, not admin requests, and resets the counters", async () => {
    await start();
    const ep = await createEndpoint(api);
    await runJob(api, ep, { input: {} });
    await api.get(`/v2/${ep}/health`);
    await api.get("/v1/nothing");
    const stats = (await api.get("/_emulator/stats")).body;
    expect(stats.requests).toEqual({
      total: 4,
      byRoute: {
        "POST /v1/endpoints": 1,
        "POST /v2/:endpointId/run": 1,
        "GET /v2/:endpointId/health": 1,
        "(no route)": 1,
      },
    });
    expect((await ctx.other.get("/_emulator/stats")).body.requests.total).toBe(0);
    expect((await api.post("/_emulator/stats/reset")).status).toBe(204);
    expect((await api.get("/_emulator/stats")).body.requests).toEqual({ total: 0, byRoute: {} });
  });

  it("shows the account's volumes, endpoints and job counts", async () => {
    await start();
    const ep = await createEndpoint(api, { workersMax: 0 });
    await runJob(api, ep, { input: {} });
    await api.post("/v1/networkvolumes", { name: "v", size: 1, dataCenterId: "EU-RO-1" });
    const state = (await api.get("/_emulator/state")).body;
    expect(state.networkVolumes).toHaveLength(1);
    expect(state.endpoints.map((e: { id: string }) => e.id)).toEqual([ep]);
    expect(state.jobs[ep]).toMatchObject({ IN_QUEUE: 1, held: 1, workers: { idle: 0, running: 0 } });
    expect(state.handlers).toContain("echo");
    expect((await ctx.other.get("/_emulator/state")).body.endpoints).toEqual([]);
  });

  it("resets the account's state and only that account's", async () => {
    await start();
    const ep = await createEndpoint(api);
    const theirs = await createEndpoint(ctx.other);
    expect((await api.post("/_emulator/reset")).status).toBe(204);
    expect((await api.get("/v1/endpoints")).body).toEqual([]);
    expect((await api.get(`/v2/${ep}/health`)).status).toBe(404);
    expect((await ctx.other.get(`/v1/endpoints/${theirs}`)).status).toBe(200);
  });

  it("advances a manual clock (--time-scale 0) through POST /_emulator/clock/advance", async () => {
    await start({ timeScale: 0 });
    const ep = await createEndpoint(api, { templateId: "sleep" });
    const id = await runJob(api, ep, { input: { seconds: 30 } });
    const before = (await api.get("/_emulator/clock")).body;
    expect(before.manual).toBe(true);
    const advanced = await api.post("/_emulator/clock/advance", { ms: 30_000 });
    expect(advanced.body.now).toBe(before.now + 30_000);
    expect((await api.get(`/v2/${ep}/status/${id}`)).body).toMatchObject({
      status: "COMPLETED",
      executionTime: 30_000,
    });
    expect((await api.post("/_emulator/clock/advance", { ms: -1 })).status).toBe(400);
  });

  it("refuses to advance a scaled clock with 400", async () => {
    await start({ timeScale: 1 });
    const res = await api.post("/_emulator/clock/advance", { ms: 1000 });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("--time-scale 0");
  });
});

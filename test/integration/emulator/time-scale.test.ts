import { afterEach, describe, expect, it } from "vitest";
import { createEndpoint, eventually, runJob, startTestEmulator } from "./helpers";

let ctx: Awaited<ReturnType<typeof startTestEmulator>>;
afterEach(() => ctx.emu.close());

describe("--time-scale N: one real millisecond counts as N platform milliseconds", () => {
  it("lets a 10 s TTL pass in about 10 ms with time scale 1000", async () => {
    ctx = await startTestEmulator({ timeScale: 1000 });
    const ep = await createEndpoint(ctx.api, { workersMax: 0 });
    const t0 = performance.now();
    const id = await runJob(ctx.api, ep, { input: {}, policy: { ttl: 10_000 } });
    await eventually(async () => expect((await ctx.api.get(`/v2/${ep}/status/${id}`)).status).toBe(404), 2000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("runs the sleep template on the scaled clock", async () => {
    ctx = await startTestEmulator({ timeScale: 1000 });
    const ep = await createEndpoint(ctx.api, { templateId: "sleep" });
    const t0 = performance.now();
    const res = await ctx.api.post(`/v2/${ep}/runsync`, { input: { seconds: 60 } });
    expect(res.body).toMatchObject({ status: "COMPLETED", output: { slept: 60 } });
    expect(res.body.executionTime).toBeGreaterThanOrEqual(60_000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("answers /runsync after wait elapses on the scaled clock", async () => {
    ctx = await startTestEmulator({ timeScale: 1000 });
    const ep = await createEndpoint(ctx.api, { workersMax: 0 });
    const res = await ctx.api.post(`/v2/${ep}/runsync`, { input: {} });
    expect(res.body.status).toBe("IN_QUEUE");
  });
});

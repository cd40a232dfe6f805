import { describe, expect, it } from "vitest";
import { createEndpoint, eventually, runJob, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({ timeScale: 1000 }, "manual");

describe("--time-scale N: one real millisecond counts as N platform milliseconds", () => {
  // No wall-clock assertion: a test that waited 10 s or 60 s of real time would run into the
  // test's own timeout; what is checked is the platform time the emulator reports.
  it("lets a 10 s TTL pass in a few real milliseconds with time scale 1000", async () => {
    await ctx.start();
    const ep = await createEndpoint(ctx.api, { workersMax: 0 });
    const start = (await ctx.api.get("/_emulator/clock")).body.now;
    const id = await runJob(ctx.api, ep, { input: {}, policy: { ttl: 10_000 } });
    await eventually(async () => expect((await ctx.api.get(`/v2/${ep}/status/${id}`)).status).toBe(404), 5000);
    expect((await ctx.api.get("/_emulator/clock")).body.now - start).toBeGreaterThanOrEqual(10_000);
  });

  it("runs the sleep template on the scaled clock", async () => {
    await ctx.start();
    const ep = await createEndpoint(ctx.api, { templateId: "sleep" });
    const id = await runJob(ctx.api, ep, { input: { seconds: 60 } });
    const done = await eventually(async () => {
      const res = await ctx.api.get(`/v2/${ep}/status/${id}`);
      expect(res.body.status).toBe("COMPLETED");
      return res.body;
    }, 5000);
    expect(done).toMatchObject({ output: { slept: 60 } });
    expect(done.executionTime).toBeGreaterThanOrEqual(60_000);
  });

  it("answers /runsync after wait elapses on the scaled clock", async () => {
    await ctx.start();
    const ep = await createEndpoint(ctx.api, { workersMax: 0 });
    const res = await ctx.api.post(`/v2/${ep}/runsync`, { input: {} });
    expect(res.body.status).toBe("IN_QUEUE");
  });
});

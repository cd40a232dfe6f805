import { describe, expect, it } from "vitest";
import { HealthSchema } from "../../../sdk/schemas";
import { createEndpoint, runJob, useTestEmulator } from "./helpers";

const ctx = useTestEmulator();
const { api } = ctx;

const health = async (ep: string) => HealthSchema.parse((await api.get(`/v2/${ep}/health`)).body);
const workers = async (ep: string) => (await health(ep)).workers;

describe("simulated workers (workersMin, workersMax, idleTimeout)", () => {
  it("keeps workersMin workers up and idle from creation on", async () => {
    const ep = await createEndpoint(api, { workersMin: 2, workersMax: 4 });
    expect(await workers(ep)).toEqual({ idle: 2, running: 0 });
    await ctx.clock.advance(3_600_000);
    expect(await workers(ep)).toEqual({ idle: 2, running: 0 });
  });

  it("scales up to workersMax when jobs queue, and no further", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMin: 0, workersMax: 3, idleTimeout: 60 });
    for (let i = 0; i < 5; i++) await runJob(api, ep, { input: { seconds: 10 } });
    expect(await health(ep)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 3, inQueue: 2, retried: 0 },
      workers: { idle: 0, running: 3 },
    });
    await ctx.clock.advance(10_000);
    expect((await health(ep)).jobs).toMatchObject({ completed: 3, inProgress: 2, inQueue: 0 });
    await ctx.clock.advance(10_000);
    expect(await health(ep)).toEqual({
      jobs: { completed: 5, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
      workers: { idle: 3, running: 0 },
    });
  });

  it("stops idle workers above workersMin after idleTimeout seconds", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMin: 1, workersMax: 3, idleTimeout: 30 });
    for (let i = 0; i < 3; i++) await runJob(api, ep, { input: { seconds: 1 } });
    await ctx.clock.advance(1000);
    expect(await workers(ep)).toEqual({ idle: 3, running: 0 });
    await ctx.clock.advance(29_999);
    expect(await workers(ep)).toEqual({ idle: 3, running: 0 });
    await ctx.clock.advance(1);
    expect(await workers(ep)).toEqual({ idle: 1, running: 0 });
  });

  it("does not let a lowPriority job trigger scaling: it waits for a worker that is already up", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMin: 0, workersMax: 2 });
    const low = await runJob(api, ep, { input: { seconds: 1 }, policy: { lowPriority: true } });
    expect(await health(ep)).toMatchObject({ jobs: { inQueue: 1 }, workers: { idle: 0, running: 0 } });
    await ctx.clock.advance(60_000);
    expect((await api.get(`/v2/${ep}/status/${low}`)).body.status).toBe("IN_QUEUE");
    const normal = await runJob(api, ep, { input: { seconds: 5 } });
    expect((await api.get(`/v2/${ep}/status/${normal}`)).body.status).toBe("IN_PROGRESS");
    expect((await api.get(`/v2/${ep}/status/${low}`)).body.status).toBe("IN_QUEUE");
    expect(await workers(ep)).toEqual({ idle: 0, running: 1 });
    await ctx.clock.advance(5000);
    expect((await api.get(`/v2/${ep}/status/${low}`)).body.status).toBe("IN_PROGRESS");
  });

  it("runs a lowPriority job at once on an idle worker", async () => {
    const ep = await createEndpoint(api, { workersMin: 1, workersMax: 1 });
    const id = await runJob(api, ep, { input: { v: 1 }, policy: { lowPriority: true } });
    expect((await api.get(`/v2/${ep}/status/${id}`)).body.status).toBe("COMPLETED");
  });

  it("never runs jobs on an endpoint with workersMax 0: they stay IN_QUEUE", async () => {
    const ep = await createEndpoint(api, { workersMax: 0 });
    const id = await runJob(api, ep, { input: {} });
    await ctx.clock.advance(3_600_000);
    expect((await api.get(`/v2/${ep}/status/${id}`)).body).toEqual({ id, status: "IN_QUEUE" });
    expect(await health(ep)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 1, retried: 0 },
      workers: { idle: 0, running: 0 },
    });
  });

  it("applies an update of the bounds: raising workersMax runs queued jobs, raising workersMin starts idle workers", async () => {
    const ep = await createEndpoint(api, { workersMax: 0 });
    const id = await runJob(api, ep, { input: { q: 1 } });
    await api.patch(`/v1/endpoints/${ep}`, { workersMax: 2, workersMin: 2 });
    expect((await api.get(`/v2/${ep}/status/${id}`)).body.status).toBe("COMPLETED");
    expect(await workers(ep)).toEqual({ idle: 2, running: 0 });
    await api.patch(`/v1/endpoints/${ep}`, { workersMin: 0, workersMax: 0 });
    expect(await workers(ep)).toEqual({ idle: 0, running: 0 });
  });

  it("runs new jobs with the endpoint's new template after an update", async () => {
    const ep = await createEndpoint(api);
    await api.patch(`/v1/endpoints/${ep}`, { templateId: "fail" });
    const res = await api.post(`/v2/${ep}/runsync`, { input: { message: "now failing" } });
    expect(res.body).toMatchObject({ status: "FAILED", error: "now failing" });
  });

  it("simulates at most 1000 workers however large workersMin is, and keeps the value in the record", async () => {
    const ep = await createEndpoint(api, { workersMin: 2_000_000_000, workersMax: 2_000_000_000 });
    expect(await workers(ep)).toEqual({ idle: 1000, running: 0 });
    expect((await api.get(`/v1/endpoints/${ep}`)).body.workersMin).toBe(2_000_000_000);
  });

  it("handles deadlines beyond what a real timer can hold (a sleep of a billion seconds)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", executionTimeoutMs: 10 ** 15 });
    const id = await runJob(api, ep, { input: { seconds: 1e9 }, policy: { ttl: 604_800_000 } });
    await ctx.clock.advance(604_800_000);
    expect((await api.get(`/v2/${ep}/status/${id}`)).status).toBe(404);
  });

  it("counts jobs by state in /health (rule 8)", async () => {
    const ep = await createEndpoint(api, { templateId: "fail", workersMax: 1 });
    const a = await runJob(api, ep, { input: {} });
    await runJob(api, ep, { input: {} });
    await api.post(`/v2/${ep}/retry/${a}`);
    expect((await health(ep)).jobs).toEqual({ completed: 0, failed: 2, inProgress: 0, inQueue: 0, retried: 1 });
  });
});

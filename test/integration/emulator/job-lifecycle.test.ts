import { describe, expect, it } from "vitest";
import { JobRecordSchema } from "../../../sdk/schemas";
import { createEndpoint, runJob, settle, useTestEmulator } from "./helpers";

const ctx = useTestEmulator();
const { api } = ctx;

const status = (ep: string, id: string) => api.get(`/v2/${ep}/status/${id}`);

describe("job lifecycle (docs/platform.md 'States and transitions')", () => {
  it("answers /run with the job id and IN_QUEUE, and the job completes with delayTime and executionTime", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const run = await api.post(`/v2/${ep}/run`, { input: { seconds: 3 } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ id: expect.any(String), status: "IN_QUEUE" });
    expect((await status(ep, run.body.id)).body.status).toBe("IN_PROGRESS");
    await ctx.clock.advance(3000);
    const done = await status(ep, run.body.id);
    expect(done.status).toBe(200);
    expect(JobRecordSchema.parse(done.body)).toMatchObject({
      id: run.body.id,
      status: "COMPLETED",
      output: { slept: 3 },
      delayTime: 0,
      executionTime: 3000,
    });
  });

  it("measures delayTime as the time the job waited in the queue", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const first = await runJob(api, ep, { input: { seconds: 2 } });
    const second = await runJob(api, ep, { input: { seconds: 1 } });
    expect((await status(ep, second)).body).toEqual({ id: second, status: "IN_QUEUE" });
    await ctx.clock.advance(3000);
    expect((await status(ep, first)).body).toMatchObject({ status: "COMPLETED", delayTime: 0, executionTime: 2000 });
    expect((await status(ep, second)).body).toMatchObject({
      status: "COMPLETED",
      delayTime: 2000,
      executionTime: 1000,
    });
  });

  it("cancels a queued job: it is removed from the queue and never runs (row IN_QUEUE -> CANCELLED)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    await runJob(api, ep, { input: { seconds: 5 } });
    const queued = await runJob(api, ep, { input: { seconds: 1 } });
    const cancel = await api.post(`/v2/${ep}/cancel/${queued}`);
    expect(cancel.body).toEqual({ id: queued, status: "CANCELLED" });
    expect((await api.get(`/v2/${ep}/health`)).body.jobs).toMatchObject({ inQueue: 0, inProgress: 1 });
    await ctx.clock.advance(10_000);
    const after = await status(ep, queued);
    expect(after.body).toEqual({ id: queued, status: "CANCELLED" });
  });

  it("cancels a running job at once and frees its worker (row IN_PROGRESS -> CANCELLED)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const running = await runJob(api, ep, { input: { seconds: 60 } });
    const next = await runJob(api, ep, { input: { seconds: 1 } });
    await ctx.clock.advance(2000);
    const cancel = await api.post(`/v2/${ep}/cancel/${running}`);
    expect(cancel.body).toEqual({ id: running, status: "CANCELLED" });
    expect((await status(ep, running)).body).toMatchObject({ status: "CANCELLED", executionTime: 2000 });
    expect((await status(ep, next)).body.status).toBe("IN_PROGRESS");
    await ctx.clock.advance(60_000);
    expect((await status(ep, running)).body.status).toBe("CANCELLED");
  });

  it("answers the current status, unchanged, when cancelling a job that already ended", async () => {
    const ep = await createEndpoint(api);
    const id = await runJob(api, ep, { input: { a: 1 } });
    await settle();
    expect((await api.post(`/v2/${ep}/cancel/${id}`)).body).toEqual({ id, status: "COMPLETED" });
    expect((await status(ep, id)).body).toMatchObject({ status: "COMPLETED", output: { a: 1 } });
  });

  it("retries a FAILED job with the same id and input and without the previous output (row 4, rule 6)", async () => {
    const ep = await createEndpoint(api, { templateId: "fail" });
    const id = await runJob(api, ep, { input: { message: "boom" } });
    await settle();
    const failed = await status(ep, id);
    expect(failed.body).toMatchObject({ id, status: "FAILED", error: "boom" });
    const retry = await api.post(`/v2/${ep}/retry/${id}`);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ id, status: "IN_QUEUE" });
    await settle();
    const again = await status(ep, id);
    expect(again.body).toMatchObject({ id, status: "FAILED", error: "boom", retries: 1 });
    expect((await api.get(`/v2/${ep}/health`)).body.jobs).toMatchObject({ failed: 1, retried: 1 });
  });

  it("clears the previous output on retry until the job runs again", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1, executionTimeoutMs: 5000 });
    const id = await runJob(api, ep, { input: { seconds: 6 } });
    await ctx.clock.advance(5000);
    expect((await status(ep, id)).body).toMatchObject({ status: "TIMED_OUT", error: expect.stringContaining("5000") });
    await runJob(api, ep, { input: { seconds: 100 } });
    const retry = await api.post(`/v2/${ep}/retry/${id}`);
    expect(retry.body).toEqual({ id, status: "IN_QUEUE" });
    const queued = await status(ep, id);
    expect(queued.body).toEqual({ id, status: "IN_QUEUE", retries: 1 });
  });

  it("retries a TIMED_OUT job (rule 1)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep" });
    const id = await runJob(api, ep, { input: { seconds: 10 }, policy: { executionTimeout: 5000 } });
    await ctx.clock.advance(5000);
    expect((await status(ep, id)).body.status).toBe("TIMED_OUT");
    expect((await api.post(`/v2/${ep}/retry/${id}`)).body).toEqual({ id, status: "IN_QUEUE" });
    expect((await status(ep, id)).body.status).toBe("IN_PROGRESS");
  });

  it.each([
    ["COMPLETED", "echo", {}],
    ["CANCELLED", "sleep", { seconds: 100 }],
    ["IN_PROGRESS", "sleep", { seconds: 100 }],
  ])("refuses to retry a %s job with 400 (rule 1)", async (state, templateId, input) => {
    const ep = await createEndpoint(api, { templateId });
    const id = await runJob(api, ep, { input });
    if (state === "CANCELLED") await api.post(`/v2/${ep}/cancel/${id}`);
    await settle();
    expect((await status(ep, id)).body.status).toBe(state);
    const retry = await api.post(`/v2/${ep}/retry/${id}`);
    expect(retry.status).toBe(400);
    expect(retry.body.error).toBe("bad_request");
    expect(retry.body.problems[0]).toMatchObject({ field: "status", value: JSON.stringify(state) });
  });

  it("refuses to retry a queued job with 400 (rule 1)", async () => {
    const ep = await createEndpoint(api, { workersMax: 0 });
    const id = await runJob(api, ep, { input: {} });
    expect((await api.post(`/v2/${ep}/retry/${id}`)).status).toBe(400);
  });

  it("cannot retry a failed job once its results expired: it is gone (rule 2)", async () => {
    const ep = await createEndpoint(api, { templateId: "fail" });
    const id = await runJob(api, ep, { input: {} });
    await settle();
    await ctx.clock.advance(30 * 60_000);
    expect((await status(ep, id)).status).toBe(404);
    const retry = await api.post(`/v2/${ep}/retry/${id}`);
    expect(retry.status).toBe(404);
    expect(retry.body.error).toBe("not_found");
  });

  it("keeps /run results for 30 minutes after completion", async () => {
    const ep = await createEndpoint(api);
    const id = await runJob(api, ep, { input: { x: 1 } });
    await settle();
    await ctx.clock.advance(30 * 60_000 - 1);
    expect((await status(ep, id)).status).toBe(200);
    await ctx.clock.advance(1);
    expect((await status(ep, id)).status).toBe(404);
  });

  it("deletes a queued job when its TTL expires (row 5)", async () => {
    const ep = await createEndpoint(api, { workersMax: 0 });
    const id = await runJob(api, ep, { input: {}, policy: { ttl: 10_000 } });
    await ctx.clock.advance(9_999);
    expect((await status(ep, id)).body.status).toBe("IN_QUEUE");
    await ctx.clock.advance(1);
    expect((await status(ep, id)).status).toBe(404);
    expect((await api.get(`/v2/${ep}/health`)).body.jobs.inQueue).toBe(0);
  });

  it("deletes a running job when its TTL expires and frees the worker (row 5, rule 4: TTL covers queue and execution)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const blocker = await runJob(api, ep, { input: { seconds: 4 } });
    const id = await runJob(api, ep, { input: { seconds: 60 }, policy: { ttl: 10_000 } });
    await ctx.clock.advance(4000);
    expect((await status(ep, blocker)).body.status).toBe("COMPLETED");
    expect((await status(ep, id)).body.status).toBe("IN_PROGRESS");
    await ctx.clock.advance(6000);
    expect((await status(ep, id)).status).toBe(404);
    expect((await api.get(`/v2/${ep}/health`)).body).toMatchObject({
      jobs: { inProgress: 0, inQueue: 0 },
      workers: { running: 0, idle: 1 },
    });
  });

  it("enforces executionTimeout only while the job executes, not while it queues (rule 3)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    await runJob(api, ep, { input: { seconds: 20 } });
    const id = await runJob(api, ep, { input: { seconds: 4 }, policy: { executionTimeout: 5000 } });
    await ctx.clock.advance(20_000);
    expect((await status(ep, id)).body.status).toBe("IN_PROGRESS");
    await ctx.clock.advance(4000);
    expect((await status(ep, id)).body).toMatchObject({ status: "COMPLETED", delayTime: 20_000, executionTime: 4000 });
  });

  it("times a job out when it executes longer than executionTimeout", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep" });
    const id = await runJob(api, ep, { input: { seconds: 30 }, policy: { executionTimeout: 5000 } });
    await ctx.clock.advance(5000);
    expect((await status(ep, id)).body).toMatchObject({ status: "TIMED_OUT", executionTime: 5000 });
    expect((await api.get(`/v2/${ep}/health`)).body.jobs.failed).toBe(1);
  });

  it("uses the endpoint's executionTimeoutMs when the job has no policy", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", executionTimeoutMs: 7000 });
    const id = await runJob(api, ep, { input: { seconds: 30 } });
    await ctx.clock.advance(7000);
    expect((await status(ep, id)).body.status).toBe("TIMED_OUT");
  });

  it("purges only pending jobs and reports how many; running jobs continue (row 6, rule 7)", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const running = await runJob(api, ep, { input: { seconds: 2 } });
    const queued = [await runJob(api, ep, { input: { seconds: 1 } }), await runJob(api, ep, { input: { seconds: 1 } })];
    const purge = await api.post(`/v2/${ep}/purge-queue`);
    expect(purge.body).toEqual({ removed: 2, status: "completed" });
    for (const id of queued) expect((await status(ep, id)).status).toBe(404);
    await ctx.clock.advance(2000);
    expect((await status(ep, running)).body.status).toBe("COMPLETED");
    expect((await api.post(`/v2/${ep}/purge-queue`)).body).toEqual({ removed: 0, status: "completed" });
  });

  it("sets an individual job's time to live with /status?ttl= (rule 3)", async () => {
    const ep = await createEndpoint(api);
    const id = await runJob(api, ep, { input: {} });
    await settle();
    expect((await api.get(`/v2/${ep}/status/${id}?ttl=6000`)).body.status).toBe("COMPLETED");
    await ctx.clock.advance(5999);
    expect((await status(ep, id)).status).toBe(200);
    await ctx.clock.advance(1);
    expect((await status(ep, id)).status).toBe(404);
  });

  it.each([["abc"], ["-5"], ["0"], ["604800001"]])("rejects /status?ttl=%s with 400 naming ttl", async (ttl) => {
    const ep = await createEndpoint(api);
    const id = await runJob(api, ep, { input: {} });
    const res = await api.get(`/v2/${ep}/status/${id}?ttl=${ttl}`);
    expect(res.status).toBe(400);
    expect(res.body.problems[0].field).toBe("ttl");
  });

  it("answers 404 for unknown endpoints and jobs", async () => {
    const ep = await createEndpoint(api);
    for (const path of [
      `/v2/nope/status/x`,
      `/v2/${ep}/status/x`,
      `/v2/${ep}/cancel/x`,
      `/v2/${ep}/retry/x`,
      `/v2/${ep}/stream/x`,
      `/v2/nope/health`,
    ]) {
      const res = path.includes("cancel") || path.includes("retry") ? await api.post(path) : await api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
    }
    expect((await api.post(`/v2/nope/run`, { input: {} })).status).toBe(404);
    expect((await api.post(`/v2/nope/purge-queue`)).status).toBe(404);
  });
});

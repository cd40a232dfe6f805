import { describe, expect, it } from "vitest";
import { StreamChunkSchema } from "../../../sdk/schemas";
import { STREAM_POLL_MS } from "../../../emulator/api/v2/job-routes";
import { createEndpoint, runJob, settle, untilJobs, untilTimers, useTestEmulator } from "./helpers";

const ctx = useTestEmulator();
const { api } = ctx;

describe("/runsync (rule 1 of the job operations)", () => {
  it("answers the full record of a job that completes within wait", async () => {
    const ep = await createEndpoint(api);
    const res = await api.post(`/v2/${ep}/runsync`, { input: { hello: "world" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      status: "COMPLETED",
      output: { hello: "world" },
      delayTime: 0,
      executionTime: 0,
    });
  });

  it("waits on the emulator clock and answers the full record once the job completes", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep" });
    const pending = api.post(`/v2/${ep}/runsync?wait=10000`, { input: { seconds: 4 } });
    await untilJobs(api, ep, { inProgress: 1 });
    await ctx.clock.advance(4000);
    const res = await pending;
    expect(res.body).toMatchObject({ status: "COMPLETED", output: { slept: 4 }, executionTime: 4000 });
  });

  it("answers the current IN_PROGRESS record when the job is not done when wait elapses", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep" });
    const pending = api.post(`/v2/${ep}/runsync?wait=1000`, { input: { seconds: 60 } });
    await untilJobs(api, ep, { inProgress: 1 });
    await ctx.clock.advance(1000);
    const res = await pending;
    expect(res.body).toEqual({ id: expect.any(String), status: "IN_PROGRESS", delayTime: 0 });
    await ctx.clock.advance(59_000);
    expect((await api.get(`/v2/${ep}/status/${res.body.id}`)).body.status).toBe("COMPLETED");
  });

  it("waits 90 seconds by default and answers IN_QUEUE when no worker can take the job", async () => {
    const ep = await createEndpoint(api, { workersMax: 0 });
    let answered = false;
    const pending = api.post(`/v2/${ep}/runsync`, { input: {} }).finally(() => {
      answered = true;
    });
    await untilJobs(api, ep, { inQueue: 1 });
    await ctx.clock.advance(89_999);
    await settle();
    expect(answered).toBe(false);
    await ctx.clock.advance(1);
    expect((await pending).body).toEqual({ id: expect.any(String), status: "IN_QUEUE" });
  });

  it.each([
    ["999", "wait must be at least 1000 ms"],
    ["300001", "wait must be at most 300000 ms"],
    ["soon", "wait must be a whole number of milliseconds"],
  ])("rejects wait=%s with 400 (%s)", async (wait, rule) => {
    const ep = await createEndpoint(api);
    const res = await api.post(`/v2/${ep}/runsync?wait=${wait}`, { input: {} });
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([{ field: "wait", value: expect.any(String), rule }]);
  });

  it.each([["1000"], ["300000"]])("accepts wait=%s", async (wait) => {
    const ep = await createEndpoint(api);
    expect((await api.post(`/v2/${ep}/runsync?wait=${wait}`, { input: {} })).body.status).toBe("COMPLETED");
  });

  it("keeps /runsync results for 1 minute after completion", async () => {
    const ep = await createEndpoint(api);
    const { id } = (await api.post(`/v2/${ep}/runsync`, { input: {} })).body;
    await ctx.clock.advance(59_999);
    expect((await api.get(`/v2/${ep}/status/${id}`)).status).toBe(200);
    await ctx.clock.advance(1);
    expect((await api.get(`/v2/${ep}/status/${id}`)).status).toBe(404);
  });

  it("keeps /runsync results for 5 minutes when wait was given", async () => {
    const ep = await createEndpoint(api);
    const { id } = (await api.post(`/v2/${ep}/runsync?wait=2000`, { input: {} })).body;
    await ctx.clock.advance(5 * 60_000 - 1);
    expect((await api.get(`/v2/${ep}/status/${id}`)).status).toBe(200);
    await ctx.clock.advance(1);
    expect((await api.get(`/v2/${ep}/status/${id}`)).status).toBe(404);
  });

  it("answers a failed job's record with its error", async () => {
    const ep = await createEndpoint(api, { templateId: "fail" });
    const res = await api.post(`/v2/${ep}/runsync`, { input: { message: "bad input" } });
    expect(res.body).toMatchObject({ status: "FAILED", error: "bad input" });
  });
});

describe("/stream (rule 4 of the job operations)", () => {
  it("answers { status, stream } with the chunks produced since the last call, in the platform's chunk shape", async () => {
    const ep = await createEndpoint(api, { templateId: "stream", workersMax: 1 });
    const id = await runJob(api, ep, { input: { chunks: 4, delayMs: 1000, prompt: "two words" } });
    await ctx.clock.advance(2000);
    const first = await api.get(`/v2/${ep}/stream/${id}`);
    expect(first.body.status).toBe("IN_PROGRESS");
    expect(first.body.stream).toHaveLength(2);
    for (const chunk of first.body.stream) StreamChunkSchema.parse(chunk);
    expect(first.body.stream[0]).toEqual({
      output: { input_tokens: 2, output_tokens: 1, text: ["chunk 1 of 4"] },
      metrics: {
        avg_gen_throughput: expect.any(Number),
        avg_prompt_throughput: expect.any(Number),
        cpu_kv_cache_usage: expect.any(Number),
        gpu_kv_cache_usage: expect.any(Number),
        input_tokens: 2,
        output_tokens: 1,
        pending: expect.any(Number),
        running: expect.any(Number),
        scenario: "stream",
        stream_index: 0,
        swapped: expect.any(Number),
      },
    });
    await ctx.clock.advance(2000);
    const second = await api.get(`/v2/${ep}/stream/${id}`);
    expect(second.body.status).toBe("COMPLETED");
    expect(second.body.stream.map((c: { output: { text: string[] } }) => c.output.text[0])).toEqual([
      "chunk 3 of 4",
      "chunk 4 of 4",
    ]);
    expect((await api.get(`/v2/${ep}/stream/${id}`)).body).toEqual({ status: "COMPLETED", stream: [] });
    const record = (await api.get(`/v2/${ep}/status/${id}`)).body;
    expect(record.output).toHaveLength(4);
    expect(record.output[3].text).toEqual(["chunk 4 of 4"]);
  });

  it("holds a /stream request open until the next chunk arrives", async () => {
    const ep = await createEndpoint(api, { templateId: "stream" });
    const id = await runJob(api, ep, { input: { chunks: 2, delayMs: 3000 } });
    const timers = ctx.emu.scheduler.pending;
    const pending = api.get(`/v2/${ep}/stream/${id}`);
    await untilTimers(ctx.emu, timers + 1);
    await ctx.clock.advance(3000);
    const res = await pending;
    expect(res.body.stream).toHaveLength(1);
  });

  it("answers an empty stream for a queued job after the long-poll window, well within a client's 10 s timeout", async () => {
    // runpod-python gives every request 10 s; the hold must end well before that (platform time = real time at scale 1).
    expect(STREAM_POLL_MS).toBeLessThanOrEqual(5_000);
    const ep = await createEndpoint(api, { templateId: "stream", workersMax: 0 });
    const id = await runJob(api, ep, { input: {} });
    const timers = ctx.emu.scheduler.pending;
    let answered = false;
    const pending = api.get(`/v2/${ep}/stream/${id}`).finally(() => (answered = true));
    await untilTimers(ctx.emu, timers + 1);
    await ctx.clock.advance(STREAM_POLL_MS - 1);
    await settle();
    expect(answered).toBe(false);
    await ctx.clock.advance(1);
    expect((await pending).body).toEqual({ status: "IN_QUEUE", stream: [] });
  });

  it("streams the output of a non-streaming handler once, when the job completes", async () => {
    const ep = await createEndpoint(api);
    const id = await runJob(api, ep, { input: { v: 1 } });
    await settle();
    expect((await api.get(`/v2/${ep}/stream/${id}`)).body).toEqual({
      status: "COMPLETED",
      stream: [{ output: { v: 1 } }],
    });
    expect((await api.get(`/v2/${ep}/stream/${id}`)).body).toEqual({ status: "COMPLETED", stream: [] });
  });
});

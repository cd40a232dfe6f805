import { beforeAll, describe, expect, it } from "vitest";
import { createEndpoint, KEY, useTestEmulator } from "../emulator/helpers";
import { runPythonJson } from "./python-runner";

/**
 * runpod-python (`runpod` on PyPI, pinned in requirements.txt), the client most ML teams call
 * their endpoints with, run unchanged against the emulator over real HTTP: `runpod.Endpoint`
 * (requests) and `runpod.AsyncioEndpoint` (aiohttp). The script runs every scenario at once and
 * prints what each call returned; the tests read that, and the emulator's own view of the jobs.
 *
 * The emulator runs on a real-time clock (time scale 1, the CLI's default): the client sleeps
 * and times out in real seconds, and its 10 s timeout on every request is part of what is tested.
 */
const ctx = useTestEmulator({ timeScale: 1 }, "file");

type Result = Record<string, unknown> & { error?: string };
let results: Record<string, Result> & { retries?: string[] };
const endpoints: Record<string, string> = {};

beforeAll(async () => {
  endpoints.echo = await createEndpoint(ctx.api, { templateId: "echo", workersMax: 3 });
  endpoints.sleep = await createEndpoint(ctx.api, { templateId: "sleep", workersMax: 3 });
  endpoints.stream = await createEndpoint(ctx.api, { templateId: "stream", workersMax: 3 });
  endpoints.queue = await createEndpoint(ctx.api, { workersMax: 0 });
  endpoints.asyncQueue = await createEndpoint(ctx.api, { workersMax: 0 });
  endpoints.missing = "nosuchendpoint1";
  const plan = { base: ctx.emu.queueUrl, key: KEY, wrongKey: "not-a-key-of-this-emulator", endpoints };
  results = await runPythonJson<Record<string, Result>>("runpod_endpoint.py", [JSON.stringify(plan)], {
    timeoutMs: 150_000,
  });
}, 180_000);

/** One scenario's result, failing the test with the client's own error when it raised. */
function scenario(name: string): Result {
  const result = results[name];
  expect(result, `scenario ${name} printed nothing`).toBeDefined();
  expect(result!.error, `runpod-python raised in ${name}`).toBeUndefined();
  return result!;
}

describe("runpod-python's runpod.Endpoint against the emulator", () => {
  it("run_sync returns the output, for a bare input and for one wrapped in {input}", () => {
    expect(scenario("runSync")).toEqual({ bare: { prompt: "hello" }, wrapped: { prompt: "wrapped" } });
  });

  it("run gives a Job whose status() and output() follow the job to COMPLETED", async () => {
    const r = scenario("runStatusOutput") as { id: string; first: string; output: unknown; last: string };
    expect(["IN_QUEUE", "IN_PROGRESS"]).toContain(r.first);
    expect(r.output).toEqual({ slept: 2 });
    expect(r.last).toBe("COMPLETED");
    const record = await ctx.api.get(`/v2/${endpoints.sleep}/status/${r.id}`);
    expect(record.body).toMatchObject({ id: r.id, status: "COMPLETED", output: { slept: 2 } });
  });

  it("stream yields each chunk's output in order, then stops when the job completes", () => {
    const r = scenario("stream") as { chunks: { text: string[] }[]; last: string };
    expect(r.chunks.map((c) => c.text[0])).toEqual(["chunk 1 of 4", "chunk 2 of 4", "chunk 3 of 4", "chunk 4 of 4"]);
    expect(r.chunks[0]).toEqual({ input_tokens: 2, output_tokens: 1, text: ["chunk 1 of 4"] });
    expect(r.last).toBe("COMPLETED");
  });

  it("stream waits out a first chunk that takes longer than the client's 10 s request timeout, with no timeout", () => {
    const r = scenario("streamSlowFirstChunk") as { chunks: { text: string[] }[]; seconds: number };
    expect(r.chunks.map((c) => c.text[0])).toEqual(["chunk 1 of 1"]);
    expect(r.seconds).toBeGreaterThanOrEqual(21);
  });

  it("no request of any scenario timed out or was retried by the client's session", () => {
    expect(results.retries).toEqual([]);
  });

  it("cancel stops a running job and answers {id, status: CANCELLED}; status() then reads CANCELLED", async () => {
    const r = scenario("cancel") as { id: string; seen: string[]; cancel: unknown; after: string };
    expect(r.seen.at(-1)).toBe("IN_PROGRESS");
    expect(r.cancel).toEqual({ id: r.id, status: "CANCELLED" });
    expect(r.after).toBe("CANCELLED");
    expect((await ctx.api.get(`/v2/${endpoints.sleep}/status/${r.id}`)).body.status).toBe("CANCELLED");
  });

  it("health counts the queued jobs; purge_queue removes them and answers {removed, status}", async () => {
    const r = scenario("healthAndPurge") as { ids: string[]; before: Result; purged: unknown; after: Result };
    expect(r.ids).toHaveLength(3);
    expect(r.before).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 3, retried: 0 },
      workers: expect.objectContaining({ idle: 0, running: 0 }),
    });
    expect(r.purged).toEqual({ removed: 3, status: "completed" });
    expect((r.after as { jobs: Result }).jobs).toMatchObject({ inQueue: 0 });
    expect((await ctx.api.get(`/v2/${endpoints.queue}/status/${r.ids[0]}`)).status).toBe(404);
  });

  it("a wrong key raises the client's 401 error; an unknown endpoint raises HTTPError 404", () => {
    expect(scenario("wrongKey")).toEqual({
      raised: "RuntimeError",
      message: expect.stringContaining("401 Unauthorized"),
    });
    expect(scenario("unknownEndpoint")).toEqual({ raised: "HTTPError", status: 404 });
  });
});

describe("runpod-python's runpod.AsyncioEndpoint (aiohttp) against the emulator", () => {
  it("runs, reads status and output, streams, cancels, reads health and purges", () => {
    const r = scenario("asyncioEndpoint") as Record<string, unknown>;
    expect(r.output).toEqual({ prompt: "async" });
    expect(r.status).toBe("COMPLETED");
    expect((r.chunks as { text: string[] }[]).map((c) => c.text[0])).toEqual(["chunk 1 of 2", "chunk 2 of 2"]);
    expect(r.cancel).toEqual({ id: expect.any(String), status: "CANCELLED" });
    expect((r.healthBefore as { jobs: Result }).jobs).toMatchObject({ inQueue: 2 });
    expect(r.purged).toEqual({ removed: 2, status: "completed" });
  });
});

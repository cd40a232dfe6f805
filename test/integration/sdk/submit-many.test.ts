import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../emulator";
import { type BatchOutcome, RequestValidationError, RunpodClient, type SubmitManyOptions } from "../../../sdk";
import { endpointPacers } from "../../../sdk/jobs/endpoint-pacers";

/**
 * `submitMany` against the emulator over real HTTP. The emulator runs 10x fast (`timeScale: 10`)
 * with a tenth of the platform's limits (`multiplier: 0.1`): its 10 s window lasts 1 real second and
 * allows 100 `/run` and 200 `/status`, so a test meets the limit within a second or two. The
 * client is told the same limits, as a user with raised or lowered limits would tell it.
 */
const KEY = "batch-key";
const LIMITS: SubmitManyOptions["limits"] = {
  run: { perWindow: 100, windowMs: 1000, concurrent: 20 },
  status: { perWindow: 200, windowMs: 1000, concurrent: 40 },
  stream: { perWindow: 200, windowMs: 1000, concurrent: 40 },
};
const FAST: SubmitManyOptions = { limits: LIMITS, pollIntervalMs: 50 };

let emulator: RunningEmulator | undefined;
let client: RunpodClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}) {
  emulator = await startEmulator({
    port: 0,
    apiKeys: [KEY],
    timeScale: 10,
    rateLimits: { multiplier: 0.1 },
    seed: 7,
    ...options,
  });
  client = new RunpodClient({ apiKey: KEY, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl });
  return { emulator, client };
}

async function admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emulator!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Stats {
  requests: { byRoute: Record<string, number> };
  rateLimited: number;
  faults: { lostResponse: number; rateLimit: number };
}
const stats = () => admin<Stats>("GET", "/_emulator/stats");
const runRequests = async () => (await stats()).requests.byRoute["POST /v2/:endpointId/run"] ?? 0;
const health = (ep: string) =>
  admin<{ jobs: { completed: number; failed: number; inQueue: number; inProgress: number } }>(
    "GET",
    `/v2/${ep}/health`,
  );

async function* numbered(count: number, input: (i: number) => Record<string, unknown> = (i) => ({ i })) {
  for (let i = 0; i < count; i++) yield { input: input(i) };
}

async function collect<O>(outcomes: AsyncIterable<BatchOutcome<O>>): Promise<BatchOutcome<O>[]> {
  const all: BatchOutcome<O>[] = [];
  for await (const outcome of outcomes) all.push(outcome);
  return all;
}

/** Asserts each index 0..count-1 has exactly one outcome. */
function expectOneEach(outcomes: readonly BatchOutcome<unknown>[], count: number) {
  expect(outcomes.map((o) => o.index).sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
}

describe("submitMany", () => {
  it("runs every input once and yields each job's final record, within the limits (no 429)", async () => {
    const { client } = await start();
    const ep = (await client.endpoints.create({ name: "batch-echo", templateId: "echo", workersMax: 5 })).id;
    const outcomes = await collect(client.jobs(ep).submitMany(numbered(250), FAST));
    expectOneEach(outcomes, 250);
    for (const o of outcomes) {
      expect(o.kind).toBe("ended");
      if (o.kind === "ended") expect(o.job).toMatchObject({ id: o.jobId, status: "COMPLETED", output: { i: o.index } });
    }
    expect(await runRequests()).toBe(250);
    expect((await stats()).rateLimited).toBe(0);
  });

  it("reports a refused input and a failed job, and goes on with the rest", async () => {
    const { client } = await start();
    const ep = (await client.endpoints.create({ name: "batch-fail", templateId: "fail", workersMax: 2 })).id;
    const inputs = [
      { input: { message: "boom" } },
      { input: { message: "ok" }, policy: { ttl: 5 } },
      { input: { message: "again" } },
    ];
    const outcomes = await collect(client.jobs(ep).submitMany(inputs, FAST));
    expectOneEach(outcomes, 3);
    const byIndex = new Map(outcomes.map((o) => [o.index, o]));
    expect(byIndex.get(0)).toMatchObject({ kind: "ended", job: { status: "FAILED", error: "boom" } });
    const refused = byIndex.get(1);
    expect(refused?.kind).toBe("error");
    if (refused?.kind === "error") {
      expect(refused.error).toBeInstanceOf(RequestValidationError);
      expect(refused.error.message).toContain("input 1 of submitMany");
      expect(refused.error.message).toContain("policy.ttl = 5");
    }
    expect(byIndex.get(2)).toMatchObject({ kind: "ended", job: { status: "FAILED" } });
    expect(await runRequests()).toBe(2);
  });

  it("reports each input once /run accepted it when not waiting for results, applying the batch's policy", async () => {
    const { client } = await start();
    const ep = (await client.endpoints.create({ name: "batch-echo", templateId: "echo", workersMax: 0 })).id;
    const outcomes = await collect(
      client.jobs(ep).submitMany(numbered(30), { ...FAST, waitForResults: false, policy: { ttl: 60_000 } }),
    );
    expectOneEach(outcomes, 30);
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(["submitted"]));
    expect((await health(ep)).jobs.inQueue).toBe(30);
  });

  it("never resends a /run whose answer was lost: that input is reported unknown", async () => {
    const { client, emulator } = await start({ faults: [{ route: "POST /v2/*/run", lostResponseRate: 0.1 }] });
    const ep = (await client.endpoints.create({ name: "batch-echo", templateId: "echo", workersMax: 5 })).id;
    const outcomes = await collect(client.jobs(ep).submitMany(numbered(200), FAST));
    expectOneEach(outcomes, 200);
    const lost = (await stats()).faults.lostResponse;
    expect(lost).toBeGreaterThan(0);
    const unknown = outcomes.filter((o) => o.kind === "unknown");
    expect(unknown).toHaveLength(lost);
    for (const o of unknown) if (o.kind === "unknown") expect(o.error.code).toBe("connection_error");
    expect(outcomes.filter((o) => o.kind === "ended")).toHaveLength(200 - lost);
    // One /run per input, and every one of them made a job (the lost answers' jobs ran too).
    expect(await runRequests()).toBe(200);
    const jobs = (await health(ep)).jobs;
    expect(jobs.completed + jobs.inQueue + jobs.inProgress).toBe(200);
    void emulator;
  });

  it("with at-least-once delivery, resends after a lost answer, so every input ends (some twice on the platform)", async () => {
    const { client } = await start({ faults: [{ route: "POST /v2/*/run", lostResponseRate: 0.1 }] });
    const ep = (await client.endpoints.create({ name: "batch-echo", templateId: "echo", workersMax: 5 })).id;
    const outcomes = await collect(client.jobs(ep).submitMany(numbered(100), { ...FAST, delivery: "at-least-once" }));
    expectOneEach(outcomes, 100);
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(["ended"]));
    const lost = (await stats()).faults.lostResponse;
    expect(lost).toBeGreaterThan(0);
    expect(await runRequests()).toBe(100 + lost);
    expect((await health(ep)).jobs.completed).toBe(100 + lost);
  });

  it("stops at the signal: inputs in progress are reported aborted (with the job id once submitted), and reading stops", async () => {
    const { client } = await start();
    const ep = (await client.endpoints.create({ name: "batch-sleep", templateId: "sleep", workersMax: 3 })).id;
    let read = 0;
    let closed = false;
    async function* inputs() {
      try {
        for (let i = 0; i < 1000; i++) {
          read++;
          yield { input: { seconds: i < 5 ? 0 : 3600 } };
        }
      } finally {
        closed = true;
      }
    }
    const controller = new AbortController();
    const outcomes: BatchOutcome[] = [];
    for await (const o of client
      .jobs(ep)
      .submitMany(inputs(), { ...FAST, concurrency: 50, signal: controller.signal })) {
      outcomes.push(o);
      if (outcomes.length === 5) controller.abort();
    }
    expect(read).toBeLessThanOrEqual(56);
    expect(closed).toBe(true);
    expectOneEach(outcomes, read);
    const ended = outcomes.filter((o) => o.kind === "ended");
    const aborted = outcomes.filter((o) => o.kind === "aborted");
    expect(ended.length + aborted.length).toBe(read);
    expect(aborted.length).toBeGreaterThan(0);
    const submittedAborts = aborted.filter((o) => o.kind === "aborted" && o.jobId !== undefined);
    expect(submittedAborts.length).toBeGreaterThan(0);
    for (const o of aborted) if (o.kind === "aborted") expect(o.error.code).toBe("aborted");
    // Nothing was sent after the abort: every /run the emulator saw is an input with an outcome naming its job.
    const jobs = (await health(ep)).jobs;
    expect(await runRequests()).toBe(ended.length + submittedAborts.length);
    expect(jobs.completed + jobs.inQueue + jobs.inProgress).toBe(ended.length + submittedAborts.length);
  });

  it("shares the endpoint's budget with another client on the same account: 429s slow it, every input still ends once", async () => {
    const { client, emulator } = await start();
    const ep = (await client.endpoints.create({ name: "batch-echo", templateId: "echo", workersMax: 5 })).id;
    // Another process on the same account: 40 /run per window, sent at once every 200 ms.
    const other = new RunpodClient({
      apiKey: KEY,
      apiUrl: emulator.apiUrl,
      queueUrl: emulator.queueUrl,
      maxAttempts: 1,
    });
    let running = true;
    const otherLoop = (async () => {
      while (running) {
        await Promise.allSettled(Array.from({ length: 8 }, () => other.jobs(ep).run({ input: { other: true } })));
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    try {
      const outcomes = await collect(client.jobs(ep).submitMany(numbered(300), FAST));
      expectOneEach(outcomes, 300);
      expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(["ended"]));
    } finally {
      running = false;
      await otherLoop;
      await other.close();
    }
    const pacer = endpointPacers(client.transport, ep, LIMITS).run;
    expect(pacer.counts.refused).toBeGreaterThan(0);
    expect(pacer.counts.sent).toBe(300 + pacer.counts.refused);
    // It adapted instead of hammering: most of its requests were accepted.
    expect(pacer.counts.refused / pacer.counts.sent).toBeLessThan(0.25);
  });

  it("follows the dynamic rule when told requests_per_worker: /health's running workers raise the pace, still without a 429", async () => {
    const { client } = await start({ rateLimits: { multiplier: 0.1, requestsPerWorker: 50 } });
    // Ten workers kept busy by long jobs: the emulator allows max(100, 10 x 50) = 500 /run per window.
    const ep = (await client.endpoints.create({ name: "batch-sleep", templateId: "sleep", workersMax: 10 })).id;
    const options: SubmitManyOptions = { ...FAST, waitForResults: false, requestsPerWorker: 50 };
    const outcomes = await collect(
      client.jobs(ep).submitMany(
        numbered(500, () => ({ seconds: 3600 })),
        options,
      ),
    );
    expectOneEach(outcomes, 500);
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(["submitted"]));
    expect((await stats()).rateLimited).toBe(0);
    const pacer = endpointPacers(client.transport, ep, LIMITS).run;
    // It started from the table's 100 and grew towards 500 once /health showed the workers.
    expect(pacer.currentLimit).toBeGreaterThan(100);
    expect(pacer.currentLimit).toBeLessThanOrEqual(500);
  });

  it("collects a streaming handler's chunks through /stream", async () => {
    const { client } = await start();
    const ep = (await client.endpoints.create({ name: "batch-stream", templateId: "stream", workersMax: 3 })).id;
    const outcomes = await collect(
      client.jobs(ep).submitMany(
        numbered(20, () => ({ chunks: 3, prompt: "a b" })),
        { ...FAST, collectWith: "stream" },
      ),
    );
    expectOneEach(outcomes, 20);
    for (const o of outcomes) {
      expect(o.kind).toBe("ended");
      if (o.kind === "ended") {
        expect(o.job.status).toBe("COMPLETED");
        expect(o.stream).toHaveLength(3);
      }
    }
  });

  it("stops the whole batch when nothing can succeed (unknown endpoint): the inputs read get the error, then it throws", async () => {
    const { client } = await start();
    const outcomes: BatchOutcome[] = [];
    const error = await (async () => {
      for await (const o of client.jobs("no-such-endpoint").submitMany(numbered(1000), { ...FAST, concurrency: 10 }))
        outcomes.push(o);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "not_found" });
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.length).toBeLessThanOrEqual(10);
    expectOneEach(outcomes, outcomes.length);
    for (const o of outcomes) expect(o).toMatchObject({ kind: "error", error: { code: "not_found" } });
  });

  it("refuses bad options at once, naming the field, the value and the rule", async () => {
    const { client } = await start();
    const jobs = client.jobs("ep");
    expect(() => jobs.submitMany([], { concurrency: 0 })).toThrow(
      /concurrency = 0: must be a whole number, at least 1/,
    );
    expect(() => jobs.submitMany([], { limits: { run: { perWindow: 1.5 } } })).toThrow(/limits\.run\.perWindow = 1\.5/);
    expect(() => jobs.submitMany(42 as never)).toThrow(/inputs = number: must be an iterable/);
  });
});

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type BatchOutcome,
  type JobRequest,
  RequestValidationError,
  RunpodClient,
  type SubmitManyOptions,
  type SubmitProgress,
} from "../../../sdk";
import { createEndpoint, KEY, useTestEmulator } from "../emulator/helpers";

/**
 * `submitMany(..., { submitWith: "batch" })` against the emulator over real HTTP: the same
 * outcome per input as the `/run` path, batches split by count and bytes, progress, lost answers
 * settled without duplicates, and a journal that lets a stopped run resume. The handler
 * (fixtures/handlers/count-runs.mjs) counts the runs of every input, so a duplicate cannot hide.
 */
const HANDLERS = path.join(__dirname, "fixtures", "handlers");
const ctx = useTestEmulator({ timeScale: 1, handlersDir: HANDLERS, seed: 11 }, "file");
let client: RunpodClient;
let dir: string;
beforeAll(() => {
  client = new RunpodClient({ apiKey: KEY, apiUrl: ctx.emu.apiUrl, queueUrl: ctx.emu.queueUrl });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "submit-batches-"));
});
afterAll(async () => {
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => void (await ctx.api.put("/_emulator/faults", { rules: [] })));

const BATCH: SubmitManyOptions = { submitWith: "batch", pollIntervalMs: 20 };

async function collect(outcomes: AsyncIterable<BatchOutcome>): Promise<Map<number, BatchOutcome>> {
  const byIndex = new Map<number, BatchOutcome>();
  for await (const o of outcomes) {
    expect(byIndex.has(o.index), `input ${o.index} reported twice`).toBe(false);
    byIndex.set(o.index, o);
  }
  return byIndex;
}

function* numbered(tag: string, count: number, extra: (i: number) => Partial<JobRequest> = () => ({})) {
  for (let i = 0; i < count; i++) yield { input: { tag, i }, ...extra(i) } as JobRequest;
}

/** The handler's counts for a job set: runs, distinct inputs, and inputs that ran twice. */
async function runs(ep: string, tag: string): Promise<{ executions: number; distinct: number; twice: number[] }> {
  const res = await ctx.api.post(`/v2/${ep}/runsync`, { input: { tag, report: true } });
  return res.body.output;
}

async function countOf(route: string): Promise<number> {
  return (await ctx.api.get("/_emulator/stats")).body.requests.byRoute[route] ?? 0;
}
const APPENDS = "POST /v2/:endpointId/batch/:batchId/requests";
const CREATES = "POST /v2/:endpointId/batch";

/** What an outcome says, apart from ids: its kind, the job's status, output and error. */
function gist(o: BatchOutcome | undefined) {
  if (!o) return undefined;
  if (o.kind === "ended") return { kind: o.kind, status: o.job.status, output: o.job.output, error: o.job.error };
  return { kind: o.kind, message: "error" in o ? o.error.message : undefined };
}

describe("submitMany through the batch API", () => {
  it("gives each input the outcome the /run path gives it, running each once", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "count-runs", workersMax: 4 });
    const inputs = (tag: string) =>
      numbered(tag, 300, (i) =>
        i === 17 ? { policy: { ttl: 5 } } : i % 50 === 3 ? { input: { tag, i, fail: true } } : {},
      );
    const viaBatch = await collect(client.jobs(ep).submitMany(inputs("same-b"), BATCH));
    const viaRun = await collect(client.jobs(ep).submitMany(inputs("same-r"), { pollIntervalMs: 20 }));
    expect(viaBatch.size).toBe(300);
    for (let i = 0; i < 300; i++) {
      const batch = gist(viaBatch.get(i));
      const run = gist(viaRun.get(i));
      if (i === 17) {
        expect(batch).toEqual(run);
        expect(batch?.message).toContain("policy.ttl = 5");
      } else expect(batch, `input ${i}`).toEqual(run);
    }
    expect(gist(viaBatch.get(3))).toMatchObject({ status: "FAILED", error: "input 3 failed as asked" });
    expect(await runs(ep, "same-b")).toEqual({ executions: 299, distinct: 299, twice: [] });
  });

  it("splits into batches by count and by bytes, keeps within maxActiveBatches, and reports progress", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "count-runs", workersMax: 4 });
    const creates = await countOf(CREATES);
    const progress: SubmitProgress[] = [];
    const options = {
      ...BATCH,
      batchSize: 100,
      maxActiveBatches: 3,
      onProgress: (p: SubmitProgress) => progress.push(p),
    };
    const outcomes = await collect(client.jobs(ep).submitMany(numbered("split", 1050), options));
    expect([...outcomes.values()].every((o) => o.kind === "ended")).toBe(true);
    expect((await countOf(CREATES)) - creates).toBe(11);
    expect(Math.max(...progress.map((p) => p.activeBatches))).toBeLessThanOrEqual(3);
    expect(progress.at(-1)).toMatchObject({ read: 1050, sent: 1050, completed: 1050, failed: 0, batches: 11 });
    expect((await client.jobs(ep).batches.list()).length).toBe(11);

    // 3 MiB inputs: three to an append (10 MiB), so 7 of them make a batch of 3 appends.
    const appends = await countOf(APPENDS);
    const blob = "b".repeat(3 * 1024 * 1024);
    const large = await collect(
      client.jobs(ep).submitMany(
        (function* () {
          for (let i = 0; i < 7; i++) yield { input: { tag: "bytes-2", i, blob } };
        })(),
        BATCH,
      ),
    );
    expect([...large.values()].every((o) => o.kind === "ended")).toBe(true);
    expect((await countOf(APPENDS)) - appends).toBe(3);
    expect(await runs(ep, "bytes-2")).toEqual({ executions: 7, distinct: 7, twice: [] });
  });

  it("reports each input once its batch is finalized when not waiting for results", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "count-runs", workersMax: 2 });
    const outcomes = await collect(
      client.jobs(ep).submitMany(numbered("submitted", 20), { ...BATCH, waitForResults: false }),
    );
    const [listed] = await client.jobs(ep).batches.list();
    const children = [];
    for await (const child of client.jobs(ep).batches.requests(listed!.id)) children.push(child.id);
    for (let i = 0; i < 20; i++) expect(outcomes.get(i)).toEqual({ kind: "submitted", index: i, jobId: children[i] });
  });

  it("settles lost answers by the batch's counters: nothing runs twice", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "count-runs", workersMax: 4 });
    await ctx.api.put("/_emulator/faults", {
      rules: [
        { route: "POST /v2/*/batch/*/requests", lostResponseRate: 0.5 },
        { route: "POST /v2/*/batch/*/finalize", lostResponseRate: 0.5 },
        { route: "POST /v2/*/batch", lostResponseRate: 0.3 },
      ],
    });
    const appends = await countOf(APPENDS);
    const outcomes = await collect(client.jobs(ep).submitMany(numbered("lost", 600), { ...BATCH, batchSize: 50 }));
    expect([...outcomes.values()].filter((o) => o.kind !== "ended")).toEqual([]);
    expect((await ctx.api.get("/_emulator/stats")).body.faults.lostResponse).toBeGreaterThan(3);
    expect((await countOf(APPENDS)) - appends).toBeGreaterThanOrEqual(12);
    expect(await runs(ep, "lost")).toEqual({ executions: 600, distinct: 600, twice: [] });
  });

  it("resumes a stopped run from its journal, sending nothing twice, and refuses other inputs", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "count-runs", workersMax: 4 });
    const journal = path.join(dir, "resume.jsonl");
    const stop = new AbortController();
    const options = { ...BATCH, batchSize: 100, maxActiveBatches: 2, journal };
    const first = new Map<number, BatchOutcome>();
    for await (const o of client.jobs(ep).submitMany(numbered("resume", 1000), { ...options, signal: stop.signal })) {
      first.set(o.index, o);
      if (first.size === 150) stop.abort();
    }
    expect([...first.values()].some((o) => o.kind === "aborted")).toBe(true);
    const sentBefore = await countOf(APPENDS);

    // Other inputs under the same journal: refused before any write.
    const other = client.jobs(ep).submitMany(numbered("not-resume", 1000), options);
    const error = await collect(other).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(`journal = ${JSON.stringify(journal)}: records inputs 0 to 99`);
    expect(await countOf(APPENDS)).toBe(sentBefore);

    const second = await collect(client.jobs(ep).submitMany(numbered("resume", 1000), options));
    expect(second.size).toBe(1000);
    expect([...second.values()].every((o) => o.kind === "ended")).toBe(true);
    expect(await runs(ep, "resume")).toEqual({ executions: 1000, distinct: 1000, twice: [] });
    // A third run finds everything in the journal's batches: it reads, and sends nothing.
    const creates = await countOf(CREATES);
    expect((await collect(client.jobs(ep).submitMany(numbered("resume", 1000), options))).size).toBe(1000);
    expect(await countOf(CREATES)).toBe(creates);
    expect(await runs(ep, "resume")).toMatchObject({ executions: 1000 });

    const elsewhere = await createEndpoint(ctx.api, { templateId: "count-runs" });
    expect(() => client.jobs(elsewhere).submitMany(numbered("resume", 1), options)).toThrow(
      `is the journal of a run on endpoint ${ep}, not ${elsewhere}`,
    );
  });

  it("refuses options that do not go together, naming the field", () => {
    const jobs = client.jobs("ep");
    expect(() => jobs.submitMany([], { journal: "x.jsonl" })).toThrow(
      'journal = (set): applies only with submitWith: "batch"',
    );
    expect(() => jobs.submitMany([], { ...BATCH, collectWith: "stream" })).toThrow("a batch request has no /stream");
    expect(() => jobs.submitMany([], { ...BATCH, batchSize: 5001 })).toThrow(
      "batchSize = 5001: a batch holds at most 5000 requests",
    );
    expect(() => jobs.submitMany([], { ...BATCH, maxActiveBatches: 11 })).toThrow("maxActiveBatches = 11");
    expect(() => jobs.submitMany([], { submitWith: "batches" as never })).toThrow('must be "run" or "batch"');
  });

  it("ends the run when the key lacks the scope: every input read an error, then the iterator throws it", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "count-runs" });
    await ctx.api.put("/_emulator/faults", { rules: [{ route: "POST /v2/*/batch", forbiddenRate: 1 }] });
    const seen: BatchOutcome[] = [];
    const error = await (async () => {
      for await (const o of client.jobs(ep).submitMany(numbered("forbidden", 5), BATCH)) seen.push(o);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "forbidden", status: 403 });
    expect((error as Error).message).toContain("may lack the scope POST");
    // Only the first input was read (the batch for it could not be made): it has its error.
    expect(seen).toEqual([{ kind: "error", index: 0, error }]);
    expect(await runs(ep, "forbidden")).toEqual({ executions: 0, distinct: 0, twice: [] });
  });
});

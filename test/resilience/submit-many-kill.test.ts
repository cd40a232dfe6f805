import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import type { FaultRule } from "../../emulator/faults/fault-rules";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { RunpodClient } from "../../sdk";
import { foldJournal } from "../../sdk/jobs/batch-journal";
import { ensureBuilt } from "./engine-harness";
import { accountCounters } from "./inventory";
import { killTree } from "./process-tree";
import { announceSeed, resilienceSeed, seedStreams, withSeed } from "./seed";

/**
 * `submitMany` through the batch API killed with SIGKILL and run again on its journal
 * (docs/client.md "Batch jobs through submitMany"). A child process submits 2,000 inputs in
 * batches of 200; it is killed while the emulator holds the answer of its first create (an empty
 * DRAFT is left behind), of an append (the append took effect, the journal has it announced and
 * unconfirmed), of a finalize, and at a seeded moment; then it runs to its end. Every input must have run exactly once (the handler
 * counts the runs of each), the batches must hold exactly the 2,000 requests, and the last run
 * must report every input once.
 */
const SEED = resilienceSeed();
const streams = seedStreams(SEED, "submit-many-kill");
const KEY = "rpa_SUBMITMANYKILL0001";
const COUNT = 2000;
const TAG = `kill-${SEED}`;
const CHILD = path.join(__dirname, "programs", "submit-many", "child.mjs");
const HANDLERS = path.join(REPO_ROOT, "test", "integration", "sdk", "fixtures", "handlers");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "submit-many-kill-"));
const journal = path.join(dir, "journal.jsonl");

let emulator: RunningEmulator;
let client: RunpodClient;
let endpointId: string;
beforeAll(async () => {
  ensureBuilt();
  emulator = await startEmulator({
    port: 0,
    apiKeys: [KEY],
    timeScale: 1,
    handlersDir: HANDLERS,
    seed: streams.emulator,
    managementQuota: false,
  });
  client = new RunpodClient({ apiKey: KEY, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl });
  endpointId = (await client.endpoints.create({ name: "kill", templateId: "count-runs", workersMax: 4 })).id;
});
afterAll(async () => {
  await client?.close();
  await emulator?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startChild(out: string): ChildProcess {
  const env = {
    ...process.env,
    KEY,
    API_URL: emulator.apiUrl,
    QUEUE_URL: emulator.queueUrl,
    ENDPOINT: endpointId,
    COUNT: String(COUNT),
    TAG,
    JOURNAL: journal,
    OUT: out,
  };
  return spawn(process.execPath, [CHILD], { env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => child.once("exit", (code) => r(code)));
}

async function setFaults(rules: FaultRule[]): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulator/faults`, {
    method: "PUT",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  expect(res.status).toBe(200);
}

/** Runs the child until the emulator holds `held` more answers (then kills it), or until `afterMs`; true when it was killed. */
async function runAndKill(round: number, trigger: { held: number } | { afterMs: number }): Promise<boolean> {
  const heldNow = () => accountCounters(emulator, KEY).faults.heldResponse;
  const before = heldNow();
  const child = startChild(path.join(dir, `out-${round}.jsonl`));
  const deadline = Date.now() + ("afterMs" in trigger ? trigger.afterMs : 60_000);
  const reached = () => ("held" in trigger ? heldNow() - before >= trigger.held : false);
  while (!reached() && child.exitCode === null && Date.now() < deadline) await sleep(2);
  if (child.exitCode !== null) return false;
  await killTree(child);
  return true;
}

describe("submitMany through the batch API under SIGKILL", { timeout: 300_000 }, () => {
  it("runs every input exactly once across kills and reruns on one journal", async () => {
    announceSeed("submit-many-kill", SEED);
    const why = (what: string) => withSeed(SEED, what);
    const hold = (route: string): FaultRule[] => [{ route, holdResponseMs: 2000 }];
    // Each pattern is a prefix: the first round holds the first write of all, the first create.
    const rounds: { faults: FaultRule[]; trigger: { held: number } | { afterMs: number }; unconfirmed?: boolean }[] = [
      { faults: hold("POST /v2/*/batch"), trigger: { held: 1 } },
      {
        faults: hold("POST /v2/*/batch/*/requests"),
        trigger: { held: 1 + Math.floor(streams.random() * 3) },
        unconfirmed: true,
      },
      { faults: hold("POST /v2/*/batch/*/finalize"), trigger: { held: 1 } },
      { faults: [], trigger: { afterMs: 200 + Math.floor(streams.random() * 800) } },
    ];
    let kills = 0;
    for (const [round, r] of rounds.entries()) {
      await setFaults(r.faults);
      if (!(await runAndKill(round, r.trigger))) continue;
      kills++;
      if (r.unconfirmed) {
        // The kill landed inside the window: an append the platform took, which the journal never confirmed.
        const parts = foldJournal(fs.readFileSync(journal, "utf8")).batches.flatMap((b) => b.parts);
        expect(
          parts.some((p) => !p.confirmed),
          why("an unconfirmed append in the journal"),
        ).toBe(true);
      }
    }
    expect(kills, why("kills")).toBeGreaterThanOrEqual(3);

    await setFaults([]);
    const out = path.join(dir, "out-final.jsonl");
    const child = startChild(out);
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    expect(await exited(child), why(`the last run's exit (${stderr})`)).toBe(0);
    const lines = fs.readFileSync(out, "utf8").trim().split("\n");
    expect(lines.pop()).toBe("done");
    const reported = lines.map((l) => JSON.parse(l) as { index: number; kind: string; status?: string });
    expect(reported.length, why("outcomes of the last run")).toBe(COUNT);
    expect(new Set(reported.map((o) => o.index)).size).toBe(COUNT);
    expect(
      reported.filter((o) => o.kind !== "ended" || o.status !== "COMPLETED"),
      why("not completed"),
    ).toEqual([]);

    // The platform's side: each input ran once, and the batches hold each exactly once.
    const tally = await client
      .jobs(endpointId)
      .runSync<Record<string, unknown>, { executions: number; twice: number[] }>({
        input: { tag: TAG, report: true },
      });
    expect(tally.output, why("runs per input")).toEqual({ executions: COUNT, distinct: COUNT, twice: [] });
    const batches = await client.jobs(endpointId).batches.list();
    const held = batches.reduce((sum, b) => sum + (b.requestTotal ?? 0), 0);
    expect(held, why("requests in the endpoint's batches")).toBe(COUNT);
    console.log(`resilience/submit-many-kill: seed=${SEED} kills=${kills} batches=${batches.length}`);
  });
});

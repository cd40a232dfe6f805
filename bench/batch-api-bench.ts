import { performance } from "node:perf_hooks";
import { Agent } from "undici";
import { RunpodClient } from "../sdk/client";
import { dispatcherFetch } from "../sdk/jobs/dispatcher-fetch";
import type { BatchAlternative, BatchClientResult } from "./batch-alternatives";
import { oursAlternative } from "./batch-alternatives";
import { CONDITIONS, runBatch, type BatchRun } from "./batch-bench";
import { EmulatorApi, startEmulatorProcess } from "./emulator-process";
import { interleaved, median, timed } from "./stats";

/*
 * `npm run bench -- --only batch-api`: submitMany through the platform's batch API against the
 * `/run` path on the same emulator flags, and a session pinned to one worker of a load-balancing
 * endpoint against the same requests unpinned (docs/benchmarks.md "Batch jobs and worker affinity").
 */

/** Sizes of the benchmark. */
export interface BatchApiBenchSettings {
  /** Inputs of each submitMany run, and rounds of the pair (run path, batch path). */
  jobs: number;
  rounds: number;
  /** The emulator's clock: 10x, with the client told the 1-second window (as batch-bench's memory runs). */
  timeScale: number;
  /** Requests of one session, and rounds of the pair (unpinned, pinned). */
  sessionRequests: number;
  sessionRounds: number;
}

/** 20,000 jobs per path, 2 rounds; a session of 100 requests, 40 rounds (a round is a few hundred ms of noise). */
export const BATCH_API_FULL: BatchApiBenchSettings = {
  jobs: 20_000,
  rounds: 2,
  timeScale: 10,
  sessionRequests: 100,
  sessionRounds: 40,
};
/** `--quick`: a tenth of the jobs, one round, 5 sessions. */
export const BATCH_API_QUICK: BatchApiBenchSettings = {
  jobs: 2_000,
  rounds: 1,
  timeScale: 10,
  sessionRequests: 100,
  sessionRounds: 5,
};

/** How often the client's live heap is sampled (after a full GC): the batch path runs for seconds only. */
const HEAP_SAMPLE_MS = 100;

/** The two paths of submitMany, as the batch benchmark runs its alternatives. */
export const RUN_PATH = "submitMany, /run";
export const BATCH_PATH = "submitMany, batch API";

/** Ours through the batch API, with its defaults (batches of 5,000, 10 at once, a summary read a second). */
function batchApiAlternative(): BatchAlternative {
  return {
    name: BATCH_PATH,
    async run(t, count): Promise<BatchClientResult> {
      const client = new RunpodClient({ apiKey: t.apiKey, apiUrl: t.apiUrl, queueUrl: t.queueUrl });
      const result: BatchClientResult = { reports: new Uint8Array(count), reportedTwice: 0, unknown: 0 };
      function* inputs() {
        for (let i = 0; i < count; i++) yield { input: { i } };
      }
      try {
        for await (const o of client.jobs(t.endpointId).submitMany(inputs(), { submitWith: "batch" })) {
          if (result.reports[o.index] !== 0) result.reportedTwice++;
          else result.reports[o.index] = o.kind === "ended" ? 1 : 2;
        }
      } finally {
        await client.close();
      }
      return result;
    },
  };
}

/** The sessions' timing: each round's total time of its requests, unpinned and pinned. */
export interface SessionRuns {
  unpinnedMs: number[];
  pinnedMs: number[];
  /** Answers of the pinned rounds that came from the worker the session was pinned to. */
  pinnedSameWorker: number;
  pinnedRequests: number;
  /** What the pin itself costs the client per call, with no network (median over rounds), in µs. */
  pinCostUs: number;
}

/** What the benchmark measured. */
export interface BatchApiResult {
  runs: BatchRun[];
  session: SessionRuns;
}

/** Runs the submitMany pair `rounds` times (alternating which goes first), then the sessions. */
export async function runBatchApiBench(s: BatchApiBenchSettings, log: (line: string) => void): Promise<BatchApiResult> {
  const window = { windowMs: 10_000 / s.timeScale };
  const alternatives = [oursAlternative({ run: window, status: window }), batchApiAlternative()];
  alternatives[0]!.name = RUN_PATH;
  const runs: BatchRun[] = [];
  for (let round = 0; round < s.rounds; round++) {
    for (const alternative of interleaved(alternatives, round)) {
      log(`batch-api: ${alternative.name}, ${s.jobs.toLocaleString("en-US")} jobs, round ${round + 1}`);
      const run = await runBatch(alternative, CONDITIONS[0]!, s.jobs, s.timeScale, HEAP_SAMPLE_MS);
      log(
        `batch-api: ${(run.wallMs / 1000).toFixed(1)} s, client CPU ${(run.cpuMs / 1000).toFixed(2)} s, ` +
          `peak heap ${(run.peakHeapBytes / 2 ** 20).toFixed(1)} MiB, ${run.duplicates} duplicates`,
      );
      runs.push(run);
    }
  }
  log(`batch-api: a session of ${s.sessionRequests} requests, unpinned and pinned, ${s.sessionRounds} rounds`);
  return { runs, session: await runSessions(s) };
}

const KEY = "bench-affinity-key";

/**
 * The sessions: per round, a session of `sessionRequests` requests one after the other to a
 * load-balancing endpoint with two warm workers through `client.pinnedFetch()` (pinned to the
 * worker of its first answer), each request beside the same request unpinned (undici's dispatch).
 */
async function runSessions(s: BatchApiBenchSettings): Promise<SessionRuns> {
  const emulator = await startEmulatorProcess(KEY, ["--no-rate-limits", "--no-management-quota"]);
  const dispatcher = new Agent({ connections: 8 });
  const client = new RunpodClient({ apiKey: KEY, apiUrl: `${emulator.url}/v2`, queueUrl: emulator.queueUrl });
  try {
    const api = new EmulatorApi(emulator.url, KEY);
    const lb = await api.call<{ requestUrls: { base: string } }>("POST", "/v2/serverless", {
      name: "bench-affinity",
      type: "LOAD_BALANCER",
      image: "ghcr.io/acme/echo:1",
      gpu: { pools: ["ADA_24"] },
      scaling: { type: "REQUEST_COUNT", requestCount: 100 },
      workers: { min: 2, max: 2 },
    });
    const url = `${lb.requestUrls.base}/generate`;
    const body = JSON.stringify({ prompt: "a session", step: 1 });
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    const plain = dispatcherFetch(dispatcher);
    /** One request, timed from its sending to its body's end; answers the time and the worker that served it. */
    const one = async (send: typeof fetch): Promise<[number, string | null]> => {
      const started = performance.now();
      const res = await send(url, { method: "POST", body, headers });
      await res.arrayBuffer();
      return [performance.now() - started, res.headers.get("x-runpod-worker-id")];
    };
    const result: SessionRuns = {
      unpinnedMs: [],
      pinnedMs: [],
      pinnedSameWorker: 0,
      pinnedRequests: 0,
      pinCostUs: await pinCostUs(client, url),
    };
    for (let i = 0; i < 20; i++) await one(plain); // warm the connections and both workers
    // Request by request, each pinned request beside an unpinned one (alternating which goes
    // first): the machine's load swings in milliseconds, a round of 100 requests lasts about as
    // long, and timing whole sessions one after the other measured those swings more than the pin.
    for (let round = 0; round < s.sessionRounds; round++) {
      const pinned = client.pinnedFetch({ fetch: dispatcherFetch(dispatcher) });
      const times = { unpinned: 0, pinned: 0 };
      const workers: (string | null)[] = [];
      for (let i = 0; i < s.sessionRequests; i++) {
        for (const kind of interleaved(["unpinned", "pinned"] as const, round + i)) {
          const [ms, worker] = await one(kind === "pinned" ? pinned : plain);
          times[kind] += ms;
          if (kind === "pinned") workers.push(worker);
        }
      }
      result.unpinnedMs.push(times.unpinned);
      result.pinnedMs.push(times.pinned);
      result.pinnedSameWorker += workers.filter((w) => w === workers[0]).length;
      result.pinnedRequests += workers.length;
    }
    return result;
  } finally {
    await client.close();
    await dispatcher.close();
    await emulator.stop();
  }
}

/**
 * The pinned fetch's own cost per call, apart from the network and the emulator: the same calls
 * through a `fetch` that answers at once, pinned and not, 7 rounds of 50,000 interleaved; the
 * median of the rounds' differences, in µs.
 */
async function pinCostUs(client: RunpodClient, url: string): Promise<number> {
  const answer = new Response("{}", { headers: { "x-runpod-worker-id": "benchworker01" } });
  const instant: typeof fetch = () => Promise.resolve(answer);
  const pinned = client.pinnedFetch({ fetch: instant });
  const init = { method: "POST", body: "{}", headers: { authorization: `Bearer ${KEY}` } };
  const calls = 50_000;
  const loop = async (send: typeof fetch) => {
    for (let i = 0; i < calls; i++) (await send(url, init)).headers.get("x-runpod-worker-id");
  };
  const differences: number[] = [];
  for (let round = 0; round < 7; round++) {
    const plainMs = await timed(() => loop(instant));
    const pinnedMs = await timed(() => loop(pinned));
    differences.push(((pinnedMs - plainMs) * 1000) / calls);
  }
  return median(differences);
}

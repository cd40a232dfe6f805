import * as path from "node:path";
import * as os from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type { FaultRule } from "../emulator/faults/fault-rules";
import {
  type BatchAlternative,
  type BatchClientResult,
  officialPromiseAllAlternative,
  oursAlternative,
  undiciFixedConcurrencyAlternative,
} from "./batch-alternatives";
import { EmulatorApi, startEmulatorProcess } from "./emulator-process";
import { heapSampler, processCpuMs, threadCpuUsage } from "./process-usage";

/** Sizes of the batch benchmark. */
export interface BatchBenchSettings {
  /** Inputs of ours' runs from an idle account (a batch of a few windows' worth), and how many rounds of it. */
  startJobs: number;
  startRounds: number;
  /** Inputs of each alternative's run at the platform's real limits. */
  jobs: number;
  /** Inputs of ours' memory runs (the emulator's clock sped up by `memoryTimeScale`). */
  memoryJobs: [number, number];
  memoryTimeScale: number;
}

/** Ours at 3,000 inputs from an idle account, 3 rounds; 10,000 inputs per alternative and condition; ours' memory at 10,000 and 100,000 inputs, 10x clock. */
export const BATCH_FULL: BatchBenchSettings = {
  startJobs: 3_000,
  startRounds: 3,
  jobs: 10_000,
  memoryJobs: [10_000, 100_000],
  memoryTimeScale: 10,
};
/** `--quick`: one round from an idle account, a tenth of the rest. */
export const BATCH_QUICK: BatchBenchSettings = {
  startJobs: 3_000,
  startRounds: 1,
  jobs: 1_000,
  memoryJobs: [1_000, 10_000],
  memoryTimeScale: 10,
};

/** Workers of the benchmark's endpoint: 20 x 10 requests per worker = 200, under the base 1000, so the table's limit is the effective one. */
export const BATCH_WORKERS = 20;
/** The `/run` limit the runs are judged against: the table's 1000 per 10 s (the dynamic rule gives 200 here). */
export const RUN_LIMIT_PER_WINDOW = 1000;
const WINDOW_MS = 10_000;

/**
 * The least time `jobs` inputs can take from an idle account at the `/run` limit, in ms: a client
 * that does not know where the platform's windows start must keep every 10 s stretch within the
 * limit, so it sends the first window's worth at once and each later one a window after the one
 * before: `(ceil(jobs / limit) - 1)` windows (20 s for 3,000). The jobs' run and the reading of
 * their results come on top; the target leaves them a quarter of it.
 */
export function batchFloorMs(jobs: number): number {
  return (Math.ceil(jobs / RUN_LIMIT_PER_WINDOW) - 1) * WINDOW_MS;
}
const KEY = "bench-batch-key";
/** The handler that counts runs per input (bench/handlers/tally.mjs, next to the compiled bench/). */
const HANDLERS_DIR = path.join(__dirname, "..", "..", "bench", "handlers");

/** A condition a batch runs under. */
export interface BatchCondition {
  name: string;
  faults: FaultRule[];
}

/** The two conditions: the real limits alone, then 10% injected 429s and 2% lost answers on every job route. */
export const CONDITIONS: readonly BatchCondition[] = [
  { name: "real limits", faults: [] },
  {
    name: "real limits + 10% 429s + 2% lost answers",
    faults: [{ route: "/v2/*/", rateLimitRate: 0.1, lostResponseRate: 0.02 }],
  },
];

/** What one run measured. */
export interface BatchRun {
  alternative: string;
  condition: string;
  jobs: number;
  timeScale: number;
  wallMs: number;
  cpuMs: number;
  /** Distinct inputs that ran, per second from the first job's start to the last's, over the `/run` limit per second. */
  rateShare: number;
  /** From the first job's start to the last's, as the handler saw them (the platform's side), in real ms. */
  spanMs: number;
  /** When the 1,000th, 2,000th, ... input first ran, in real ms after the first job. */
  thousandsMs: number[];
  /** Requests to job routes, and the 429s among them from the limiter and from fault injection. */
  requests: number;
  limiter429: number;
  injected429: number;
  lostAnswers: number;
  /** Jobs that ran beyond one per input. */
  duplicates: number;
  /** Inputs with no report at all, and inputs reported more than once. */
  withoutOutcome: number;
  reportedTwice: number;
  /** Inputs the client reported as a record, as `unknown` (ours), or as another error. */
  ended: number;
  unknown: number;
  errors: number;
  /** Peak heap above the heap before the run (after a full GC), in bytes. */
  peakHeapBytes: number;
  /**
   * CPU time of the client's main thread alone (its JavaScript), less the forced collections; the
   * rest of `cpuMs` is other threads: the collector's helpers, the file system's and DNS pool. NaN
   * before Node.js 23.9 (no `process.threadCpuUsage`).
   */
  mainThreadCpuMs: number;
  /** The kernel's part of the main thread's CPU time (system calls: sockets, timers, polling), in ms. */
  mainThreadSystemMs: number;
  /** CPU time (user + system) of the emulator's process during the run, in ms; NaN where /proc is not there. */
  emulatorCpuMs: number;
  /** The client's event-loop delay during the run (how late a 20 ms timer ran): 99th percentile and longest, in ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** The machine's 1-minute load average when the run started and when it ended. */
  load: [number, number];
}

interface TallyReport {
  executions: number;
  distinct: number;
  duplicates: number;
  firstMs: number;
  lastMs: number;
  thousandsMs: number[];
}

interface EmulatorStats {
  requests: { byRoute: Record<string, number> };
  rateLimited: number;
  faults: { rateLimit: number; lostResponse: number };
}

/**
 * Runs one alternative on one condition against a fresh emulator process with the platform's
 * limits; the client's live heap is sampled every `heapSampleMs` (a run of a few seconds needs
 * more than one sample a second).
 */
export async function runBatch(
  alternative: BatchAlternative,
  condition: BatchCondition,
  jobs: number,
  timeScale: number,
  heapSampleMs = 1000,
): Promise<BatchRun> {
  const args = ["--handlers", HANDLERS_DIR, "--seed", "24", "--time-scale", String(timeScale)];
  const emulator = await startEmulatorProcess(KEY, args);
  try {
    const api = new EmulatorApi(emulator.url, KEY);
    const endpointId = await api.createEndpoint("tally", BATCH_WORKERS, BATCH_WORKERS);
    if (condition.faults.length > 0) await api.setFaults(condition.faults);
    const target = { apiKey: KEY, apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl, endpointId };
    const loadAtStart = os.loadavg()[0]!;
    const memory = await heapSampler(heapSampleMs);
    const loop = monitorEventLoopDelay({ resolution: 20 });
    const emulatorCpu = processCpuMs(emulator.pid);
    const cpu = process.cpuUsage();
    const thread = threadCpuUsage();
    const started = performance.now();
    loop.enable();
    let result: BatchClientResult;
    try {
      result = await alternative.run(target, jobs);
    } finally {
      loop.disable();
      memory.stop();
    }
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const threadUsed = threadCpuUsage(thread);
    const emulatorCpuMs = processCpuMs(emulator.pid) - emulatorCpu;
    await api.setFaults([]);
    const stats = await api.call<EmulatorStats>("GET", "/_emulator/stats");
    const tally = (
      await api.call<{ output: TallyReport }>("POST", `/v2/${endpointId}/runsync`, { input: { report: true } })
    ).output;
    let ended = 0;
    let other = 0;
    let missing = 0;
    for (const r of result.reports) {
      if (r === 1) ended++;
      else if (r === 2) other++;
      else missing++;
    }
    const perSecond = (RUN_LIMIT_PER_WINDOW * 1000 * timeScale) / WINDOW_MS;
    const spanS = (tally.lastMs - tally.firstMs) / 1000;
    return {
      alternative: alternative.name,
      condition: condition.name,
      jobs,
      timeScale,
      wallMs,
      cpuMs: (used.user + used.system) / 1000 - memory.gcMs(),
      mainThreadCpuMs: threadUsed ? (threadUsed.user + threadUsed.system) / 1000 - memory.gcMs() : Number.NaN,
      mainThreadSystemMs: threadUsed ? threadUsed.system / 1000 : Number.NaN,
      rateShare: spanS > 0 ? (tally.distinct - 1) / spanS / perSecond : Number.NaN,
      spanMs: spanS * 1000,
      thousandsMs: tally.thousandsMs,
      requests: Object.entries(stats.requests.byRoute)
        .filter(([route]) => route.includes("/v2/:endpointId/"))
        .reduce((sum, [, n]) => sum + n, 0),
      limiter429: stats.rateLimited,
      injected429: stats.faults.rateLimit,
      lostAnswers: stats.faults.lostResponse,
      duplicates: tally.duplicates,
      withoutOutcome: missing,
      reportedTwice: result.reportedTwice,
      ended,
      unknown: result.unknown,
      errors: other - result.unknown,
      peakHeapBytes: memory.peak(),
      emulatorCpuMs,
      // The histogram counts from when each timer was due; its 20 ms resolution is not delay.
      loopDelayP99Ms: Math.max(0, loop.percentile(99) / 1e6 - 20),
      loopDelayMaxMs: Math.max(0, loop.max / 1e6 - 20),
      load: [loadAtStart, os.loadavg()[0]!],
    };
  } finally {
    await emulator.stop();
  }
}

/** When each thousandth job ran, after the first: "0.4 / 10.6 / 20.9 s" (the floor: 0 / 10 / 20). */
export function thousandths(run: BatchRun): string {
  return `${run.thousandsMs.map((ms) => (ms / 1000).toFixed(1)).join(" / ")} s`;
}

/**
 * The runs of the benchmark, in order: ours' rounds from an idle account, each condition's three
 * alternatives at real limits, then ours' memory runs.
 */
export async function runBatchBench(s: BatchBenchSettings, log: (line: string) => void): Promise<BatchRun[]> {
  const runs: BatchRun[] = [];
  for (let round = 1; round <= s.startRounds; round++) {
    log(`batch: ours from an idle account, ${s.startJobs.toLocaleString("en-US")} jobs, round ${round}`);
    const run = await runBatch(oursAlternative(), CONDITIONS[0]!, s.startJobs, 1);
    log(
      `batch: ${(run.wallMs / 1000).toFixed(1)} s (floor ${(batchFloorMs(s.startJobs) / 1000).toFixed(0)} s), each thousandth job ${thousandths(run)} after the first, load ${run.load.map((l) => l.toFixed(2)).join(" -> ")}`,
    );
    runs.push(run);
  }
  const alternatives = [oursAlternative(), officialPromiseAllAlternative(), undiciFixedConcurrencyAlternative()];
  for (const condition of CONDITIONS) {
    for (const alternative of alternatives) {
      log(`batch: ${alternative.name}, ${condition.name}, ${s.jobs.toLocaleString("en-US")} jobs`);
      const run = await runBatch(alternative, condition, s.jobs, 1);
      log(
        `batch: ${(run.wallMs / 1000).toFixed(1)} s, rate ${run.rateShare.toFixed(3)} of the limit, load ${run.load.map((l) => l.toFixed(2)).join(" -> ")}`,
      );
      runs.push(run);
    }
  }
  // The same limits with a window of one real second, told to ours: the 10x clock's 10 s window.
  const fast = oursAlternative({
    run: { windowMs: WINDOW_MS / s.memoryTimeScale },
    status: { windowMs: WINDOW_MS / s.memoryTimeScale },
  });
  for (const jobs of s.memoryJobs) {
    log(`batch: memory, ${fast.name}, ${jobs.toLocaleString("en-US")} jobs at --time-scale ${s.memoryTimeScale}`);
    const run = await runBatch(fast, CONDITIONS[0]!, jobs, s.memoryTimeScale);
    log(`batch: ${(run.wallMs / 1000).toFixed(1)} s, peak heap ${(run.peakHeapBytes / 2 ** 20).toFixed(1)} MiB`);
    runs.push(run);
  }
  return runs;
}

import { performance } from "node:perf_hooks";
import { ManualClock, startEmulator } from "../emulator";
import { JOB_DEFAULTS } from "../sdk/schemas";
import { measureJobMemory } from "./emulator-memory";

/*
 * Child-process entry of the emulator benchmark: one measurement per process, so a million held
 * jobs get a fresh heap sized for them and the parent's own heap does not blur the figure.
 *
 *   node --expose-gc --max-old-space-size=4096 dist/bench/emulator-child.js memory 1000000
 *   node --max-old-space-size=4096 dist/bench/emulator-child.js ttl 1000000
 *
 * Prints one JSON line on stdout.
 */

/** What `memory N` prints. */
export interface MemoryFigures {
  jobs: number;
  /** Heap bytes per held job, from bench/emulator-memory.ts (payload excluded). */
  heapBytesPerJob: number;
  /** Resident set size before any job, and at its peak while the jobs were held. */
  baseRssBytes: number;
  peakRssBytes: number;
}

/** What `ttl N` prints. */
export interface TtlFigures {
  /** Jobs held while the expiring ones go. */
  held: number;
  /** Jobs whose TTL passes. */
  expired: number;
  /** Platform-clock advance that expires them, per expired job, in µs of real time. */
  expireMicrosPerJob: number;
  /** One pass over every held job, in ms: what a scan per expiry tick would cost at least. */
  scanMs: number;
  /** Submitting the held jobs, per job, in µs (a heap insert each). */
  submitMicrosPerJob: number;
}

async function memory(jobs: number): Promise<MemoryFigures> {
  const baseRssBytes = process.memoryUsage().rss;
  const { bytesPerJob } = await measureJobMemory(jobs);
  // maxRSS is in KiB and covers the moment the jobs were all held (before the emulator closed).
  return { jobs, heapBytesPerJob: bytesPerJob, baseRssBytes, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
}

/**
 * Holds `held` jobs with the default 24 h TTL plus `expired` jobs with the minimum 10 s TTL, then
 * advances the manual clock past 10 s. With a deadline heap the cost per expired job is O(log n):
 * nearly flat from 100,000 to 1,000,000 held jobs; a scan would grow tenfold.
 */
async function ttl(held: number, expired = 10_000): Promise<TtlFigures> {
  const key = "bench-ttl-key";
  const clock = new ManualClock();
  const emu = await startEmulator({ port: 0, apiKeys: [key], clock, rateLimits: false });
  try {
    const res = await fetch(`${emu.apiUrlV1}/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ templateId: "echo", workersMax: 0, gpuTypeIds: ["NVIDIA L4"] }),
    });
    const { id } = (await res.json()) as { id: string };
    const runtime = emu.store.accountForKey(key)!.runtime(id)!;
    const input = {};
    const submitStarted = performance.now();
    for (let i = 0; i < held; i++) runtime.submit({ input }, JOB_DEFAULTS.runRetentionMs);
    const submitMicrosPerJob = ((performance.now() - submitStarted) * 1000) / held;
    // Interleaved with the long-lived ones, so the short deadlines sit all over the heap's insertion order.
    for (let i = 0; i < expired; i++) runtime.submit({ input, policy: { ttl: 10_000 } }, JOB_DEFAULTS.runRetentionMs);
    const scanStarted = performance.now();
    let queued = 0;
    for (const job of runtime.jobs.values()) if (job.status === "IN_QUEUE") queued++;
    const scanMs = performance.now() - scanStarted;
    const before = runtime.jobs.size;
    const expireStarted = performance.now();
    await clock.advance(10_001);
    const expireMs = performance.now() - expireStarted;
    const gone = before - runtime.jobs.size;
    if (gone !== expired || queued !== before) throw new Error(`expected ${expired} expiries, saw ${gone}`);
    return { held, expired, expireMicrosPerJob: (expireMs * 1000) / expired, scanMs, submitMicrosPerJob };
  } finally {
    await emu.close();
  }
}

async function main(mode: string | undefined, n: number): Promise<void> {
  if (!(n > 0)) throw new Error("usage: emulator-child.js memory|ttl JOBS");
  if (mode === "memory") process.stdout.write(`${JSON.stringify(await memory(n))}\n`);
  else if (mode === "ttl") process.stdout.write(`${JSON.stringify(await ttl(n))}\n`);
  else throw new Error(`unknown mode ${mode}; use memory or ttl`);
}

if (require.main === module) {
  main(process.argv[2], Number(process.argv[3])).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

import * as fs from "node:fs";

/*
 * What a batch run costs its processes: CPU time of the client's threads and of the emulator's
 * process, and the client's live heap (bench/batch-bench.ts).
 */

/** `process.threadCpuUsage` (Node.js 23.9 and later): the calling thread's CPU time, or since `previous`. */
export function threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage | undefined {
  const usage = (process as { threadCpuUsage?: (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage;
  if (!usage) return undefined;
  return previous ? usage.call(process, previous) : usage.call(process);
}

/** CPU time (user + system) a process has used so far, in ms, from /proc; NaN where there is none. */
export function processCpuMs(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / CLOCK_TICKS_PER_S;
  } catch {
    return Number.NaN;
  }
}
/** `getconf CLK_TCK` on Linux. */
const CLOCK_TICKS_PER_S = 100;

/**
 * The live heap: every second (or every `sampleMs`) a full GC (`node --expose-gc`, as `npm run bench` runs), then
 * `heapUsed`, so a sample counts what the client keeps, not garbage the collector has not come
 * to yet (which grows with a run's length, not its size). `peak()` is the highest sample above
 * the live heap before the run; `gcMs()` the CPU time of those collections (their helper threads
 * included), which the client CPU figure leaves out. Without `--expose-gc` it samples `heapUsed` as it is.
 */
export async function heapSampler(sampleMs = 1000): Promise<{ stop(): void; peak(): number; gcMs(): number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let spent = 0;
  const live = () => {
    const before = process.cpuUsage();
    gc?.();
    const used = process.cpuUsage(before);
    spent += (used.user + used.system) / 1000;
    return process.memoryUsage().heapUsed;
  };
  await new Promise<void>((r) => setImmediate(r));
  const base = live();
  spent = 0;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, live());
  }, sampleMs);
  return {
    stop: () => clearInterval(timer),
    peak: () => peak - base,
    gcMs: () => spent,
  };
}

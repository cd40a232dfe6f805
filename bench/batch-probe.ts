import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { type BatchAlternative, oursAlternative, undiciFixedConcurrencyAlternative } from "./batch-alternatives";
import { type BatchRun, CONDITIONS, runBatch, thousandths } from "./batch-bench";

/*
 * `node --expose-gc dist/bench/batch-probe.js [options]` (after `npm run build`): a few batch runs
 * looked at closely, one at a time, each against a fresh emulator process with the platform's
 * limits as in the batch benchmark (bench/batch-bench.ts), no faults.
 *
 *   --jobs N         inputs per run (default 3000)
 *   --clients LIST   comma-separated, run in this order each round (default: ours):
 *                    ours, undici (raw undici, 200 at once), or the path of another checkout
 *                    (its built dist/bench/batch-alternatives.js provides its ours: the same
 *                    benchmark, that checkout's client)
 *   --rounds N       rounds of the list, interleaved (default 1)
 *   --block-ms B     a timer in this process busy-waits B ms (default 0: none) ...
 *   --every-ms E     ... every E ms (default 1000): the event loop held up on purpose
 *
 * Prints per run the rate the platform saw as a share of the `/run` limit, the client's CPU
 * (the process, and its main thread alone), the emulator's CPU, and the client's event-loop
 * delay; then each client's CPU per job over its rounds.
 */

/** `alternative`, with the event loop blocked `blockMs` of every `everyMs`. */
function blocked(alternative: BatchAlternative, blockMs: number, everyMs: number): BatchAlternative {
  return {
    name: `${alternative.name}, loop blocked ${blockMs} ms every ${everyMs} ms`,
    async run(target, count) {
      const timer = setInterval(() => {
        const until = performance.now() + blockMs;
        while (performance.now() < until) {
          // busy: the event loop runs nothing else meanwhile
        }
      }, everyMs);
      try {
        return await alternative.run(target, count);
      } finally {
        clearInterval(timer);
      }
    },
  };
}

/** The client a `--clients` entry names. */
function client(entry: string): BatchAlternative {
  if (entry === "ours") return oursAlternative();
  if (entry === "undici") return undiciFixedConcurrencyAlternative();
  const file = path.resolve(entry, "dist", "bench", "batch-alternatives.js");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- another checkout's build, chosen at run time
  const other = (require(file) as { oursAlternative: () => BatchAlternative }).oursAlternative();
  return { name: `${other.name} of ${entry}`, run: (t, n) => other.run(t, n) };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      jobs: { type: "string", default: "3000" },
      clients: { type: "string", default: "ours" },
      rounds: { type: "string", default: "1" },
      "block-ms": { type: "string", default: "0" },
      "every-ms": { type: "string", default: "1000" },
    },
  });
  const jobs = Number(values.jobs);
  const rounds = Number(values.rounds);
  const blockMs = Number(values["block-ms"]);
  const everyMs = Number(values["every-ms"]);
  const clients = values.clients.split(",").map((entry) => {
    const alternative = client(entry.trim());
    return blockMs > 0 ? blocked(alternative, blockMs, everyMs) : alternative;
  });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ");
  out(`Node.js ${process.version}; load average (1, 5, 15 min) at the start: ${load()}`);
  const runs: BatchRun[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const alternative of clients) {
      const run = await runBatch(alternative, CONDITIONS[0]!, jobs, 1);
      runs.push(run);
      out(
        [
          `round ${round}, ${run.alternative}: ${run.jobs} jobs in ${seconds(run.wallMs)}`,
          `  each thousandth job ${thousandths(run)} after the first; rate / limit ${run.rateShare.toFixed(3)}; requests ${run.requests}, 429s from the limiter ${run.limiter429}, duplicates ${run.duplicates}, without outcome ${run.withoutOutcome + run.reportedTwice}, errors ${run.errors}`,
          `  CPU: client ${seconds(run.cpuMs)} (main thread ${seconds(run.mainThreadCpuMs)}, of which in the kernel ${seconds(run.mainThreadSystemMs)}; any busy loop included), emulator ${seconds(run.emulatorCpuMs)}`,
          `  client event-loop delay: p99 ${run.loopDelayP99Ms.toFixed(0)} ms, longest ${run.loopDelayMaxMs.toFixed(0)} ms; load average now ${load()}`,
        ].join("\n"),
      );
    }
  }
  out("CPU per job, mean over the rounds (client process / its main thread / emulator):");
  for (const alternative of clients) {
    const mine = runs.filter((r) => r.alternative === alternative.name);
    const mean = (f: (r: BatchRun) => number) => mine.reduce((sum, r) => sum + f(r) / r.jobs, 0) / mine.length;
    out(
      `  ${alternative.name}: ${mean((r) => r.cpuMs).toFixed(3)} / ${mean((r) => r.mainThreadCpuMs).toFixed(3)} / ${mean((r) => r.emulatorCpuMs).toFixed(3)} ms`,
    );
  }
  out(`load average at the end: ${load()}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

import * as os from "node:os";
import { parseArgs } from "node:util";
import { type BatchAlternative, oursAlternative } from "./batch-alternatives";
import { CONDITIONS, runBatch } from "./batch-bench";

/*
 * `node dist/bench/batch-stall.js [--jobs N] [--block-ms B] [--every-ms E]` (after `npm run
 * build`): the pacer with its event loop held up on purpose. Ours runs N jobs (default 3000)
 * through `submitMany` against a fresh emulator process with the spec's limits, as in the batch
 * benchmark, while a timer in the same process busy-waits B ms (default 300) every E ms
 * (default 1000): 30% of the client's time, the loop blocked. Prints the rate the platform saw
 * as a share of the `/run` limit, and what else the batch benchmark measures.
 */

/** Ours, with the event loop blocked `blockMs` of every `everyMs`. */
function blockedAlternative(blockMs: number, everyMs: number): BatchAlternative {
  const ours = oursAlternative();
  return {
    name: `${ours.name}, loop blocked ${blockMs} ms every ${everyMs} ms`,
    async run(target, count) {
      const timer = setInterval(() => {
        const until = performance.now() + blockMs;
        while (performance.now() < until) {
          // busy: the event loop runs nothing else meanwhile
        }
      }, everyMs);
      try {
        return await ours.run(target, count);
      } finally {
        clearInterval(timer);
      }
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      jobs: { type: "string", default: "3000" },
      "block-ms": { type: "string", default: "300" },
      "every-ms": { type: "string", default: "1000" },
    },
  });
  const jobs = Number(values.jobs);
  const blockMs = Number(values["block-ms"]);
  const everyMs = Number(values["every-ms"]);
  const load = () => os.loadavg()[0]!.toFixed(2);
  process.stdout.write(`load average (1 min) at the start: ${load()}\n`);
  const alternative = blockMs > 0 ? blockedAlternative(blockMs, everyMs) : oursAlternative();
  const run = await runBatch(alternative, CONDITIONS[0]!, jobs, 1);
  const lines = [
    `client: ${run.alternative}`,
    `jobs: ${run.jobs}; wall ${(run.wallMs / 1000).toFixed(1)} s`,
    `rate / limit: ${run.rateShare.toFixed(3)}`,
    `requests ${run.requests}, 429s from the limiter ${run.limiter429}, duplicates ${run.duplicates}, without outcome ${run.withoutOutcome + run.reportedTwice}, errors ${run.errors}`,
    `client event-loop delay: p99 ${run.loopDelayP99Ms.toFixed(0)} ms, longest ${run.loopDelayMaxMs.toFixed(0)} ms`,
    `CPU: client ${(run.cpuMs / 1000).toFixed(2)} s (the busy loop included), emulator ${(run.emulatorCpuMs / 1000).toFixed(2)} s`,
    `load average (1 min) at the end: ${load()}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

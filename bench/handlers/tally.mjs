// Emulator handler `tally` of the batch benchmark (bench/batch-bench.ts), loaded with
// `--handlers bench/handlers`. A job with input `{ i }` counts one run of input i and outputs
// `{ i }`; a job with `{ report: true }` answers the counts, so the benchmark learns from the
// platform's side how many jobs each input made (duplicates) and when they started (the rate).
import { performance } from "node:perf_hooks";

/** Runs per input index. */
const runs = new Map();
let executions = 0;
let first = Number.POSITIVE_INFINITY;
let last = Number.NEGATIVE_INFINITY;
/** When the 1,000th, 2,000th, ... input first ran, in ms after the first job: how a batch's windows fell. */
const thousands = [];

export default function tally({ input }) {
  if (input.report === true) {
    return {
      executions,
      distinct: runs.size,
      duplicates: executions - runs.size,
      firstMs: first,
      lastMs: last,
      thousandsMs: thousands,
    };
  }
  const now = performance.now();
  if (now < first) first = now;
  if (now > last) last = now;
  executions++;
  const before = runs.get(input.i) ?? 0;
  runs.set(input.i, before + 1);
  if (before === 0 && runs.size % 1000 === 0) thousands.push(now - first);
  return { i: input.i };
}

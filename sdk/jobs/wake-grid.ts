import { performance } from "node:perf_hooks";

/**
 * The grid a batch's timers wake on, in ms. A batch at 100 `/run` and 100 `/status`
 * a second would otherwise wake the event loop for each request alone, and on a shared machine
 * each wake costs more than the request (a context switch and cold caches: measured in
 * docs/benchmarks.md, "Batches"). On the grid, the pacer's waits and every job's next poll that
 * fall in the same 50 ms wake together, a few requests per wake, none of them more than 50 ms late.
 */
export const WAKE_GRID_MS = 50;

/** The delay from `now` (the `performance.now()` clock) to the first grid point at least `ms` away. */
export function gridDelay(ms: number, now: number = performance.now()): number {
  return Math.ceil((now + ms) / WAKE_GRID_MS) * WAKE_GRID_MS - now;
}

import { describe, expect, it } from "vitest";
import { BATCH_API_FULL, BATCH_PATH, RUN_PATH, type SessionRuns } from "../../../bench/batch-api-bench";
import { batchApiSection } from "../../../bench/batch-api-report";
import { type BatchRun, CONDITIONS } from "../../../bench/batch-bench";

function run(alternative: string, cpuMs: number, peakHeapBytes: number, duplicates = 0): BatchRun {
  return {
    alternative,
    condition: CONDITIONS[0]!.name,
    jobs: BATCH_API_FULL.jobs,
    timeScale: BATCH_API_FULL.timeScale,
    wallMs: 10_000,
    cpuMs,
    rateShare: Number.NaN,
    spanMs: 0,
    thousandsMs: [],
    requests: 100,
    limiter429: 0,
    injected429: 0,
    lostAnswers: 0,
    duplicates,
    withoutOutcome: 0,
    reportedTwice: 0,
    ended: BATCH_API_FULL.jobs,
    unknown: 0,
    errors: 0,
    peakHeapBytes,
    mainThreadCpuMs: cpuMs,
    mainThreadSystemMs: 0,
    emulatorCpuMs: 100,
    loopDelayP99Ms: 0,
    loopDelayMaxMs: 0,
    load: [1, 1],
  };
}

const session = (pinnedMs: number[]): SessionRuns => ({
  unpinnedMs: pinnedMs.map(() => 100),
  pinnedMs,
  pinnedSameWorker: 300,
  pinnedRequests: 300,
  pinCostUs: 0.5,
});

describe("the batch-api section", () => {
  it("judges CPU per job, peak heap and duplicates of the batch path against the /run path, round by round", () => {
    const runs = [
      run(RUN_PATH, 10_000, 4e6),
      run(BATCH_PATH, 700, 7e5),
      run(BATCH_PATH, 900, 6e5),
      run(RUN_PATH, 9000, 3e6),
    ];
    const section = batchApiSection(BATCH_API_FULL, { runs, session: session([101, 103, 99]) });
    expect(section.targets.map((t) => [t.benchmark, t.met])).toEqual([
      ["batch API", true],
      ["batch API", true],
      ["batch API", true],
      ["worker affinity", true],
    ]);
    expect(section.targets[0]!.measured).toMatch(/^0\.09x/);
    for (const table of section.tables) for (const row of table.rows) expect(row).toHaveLength(table.columns.length);
  });

  it("misses on a duplicate, on memory past 1.2x, and on a pinned session past 1.05x, saying why", () => {
    const runs = [run(RUN_PATH, 1000, 1e6), run(BATCH_PATH, 600, 2e6, 1)];
    const section = batchApiSection(BATCH_API_FULL, { runs, session: session([120, 110, 115]) });
    expect(section.targets.map((t) => t.met)).toEqual([false, false, false, false]);
    expect(section.targets[3]!.whyMissed).toContain("0.50 µs a call");
  });
});

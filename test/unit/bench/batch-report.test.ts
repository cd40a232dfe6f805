import { describe, expect, it } from "vitest";
import { BATCH_FULL, batchFloorMs, type BatchRun, CONDITIONS } from "../../../bench/batch-bench";
import { batchSection } from "../../../bench/batch-report";

/** A clean run of ours from an idle account at `jobs`, taking `wallMs`. */
function startRun(jobs: number, wallMs: number, limiter429 = 0): BatchRun {
  return {
    alternative: "ours (submitMany)",
    condition: CONDITIONS[0]!.name,
    jobs,
    timeScale: 1,
    wallMs,
    cpuMs: 1000,
    rateShare: 1.1,
    spanMs: wallMs - 1500,
    thousandsMs: [400, 10_600, 20_900],
    requests: 2 * jobs,
    limiter429,
    injected429: 0,
    lostAnswers: 0,
    duplicates: 0,
    withoutOutcome: 0,
    reportedTwice: 0,
    ended: jobs,
    unknown: 0,
    errors: 0,
    peakHeapBytes: 1,
    mainThreadCpuMs: 500,
    mainThreadSystemMs: 100,
    emulatorCpuMs: 800,
    loopDelayP99Ms: 10,
    loopDelayMaxMs: 20,
    load: [1, 1],
  };
}

describe("batchFloorMs", () => {
  it.each([
    [1, 0],
    [1000, 0],
    [1001, 10_000],
    [3000, 20_000],
    [10_000, 90_000],
  ])("%d jobs at 1000 per 10 s from an idle account: %d ms from the first /run to the last", (jobs, floor) => {
    expect(batchFloorMs(jobs)).toBe(floor);
  });
});

describe("batchSection, from an idle account", () => {
  const target = (runs: BatchRun[]) =>
    batchSection(BATCH_FULL, runs).targets.find((t) => t.target.includes("within 1.25x the floor"));

  it("judges the median round against 1.25 times the floor (25 s for 3,000 jobs)", () => {
    const met = target([startRun(3000, 22_000), startRun(3000, 24_000), startRun(3000, 40_000)]);
    expect(met?.met).toBe(true);
    expect(met?.measured).toBe("24.00 s (1.20x)");
    const missed = target([startRun(3000, 22_000), startRun(3000, 26_000), startRun(3000, 27_000)]);
    expect(missed?.met).toBe(false);
    expect(missed?.measured).toBe("26.00 s (1.30x)");
  });

  it("puts the idle-account rounds in their own table, not among the 10,000-job rows, and counts their 429s", () => {
    const section = batchSection(BATCH_FULL, [startRun(3000, 22_000, 3)]);
    const [start, atLimits] = section.tables;
    expect(start!.rows).toHaveLength(1);
    expect(start!.rows[0]!.slice(0, 4)).toEqual(["1", "22.00 s", "1.10x", "0.4 / 10.6 / 20.9 s"]);
    expect(atLimits!.rows).toHaveLength(0);
    const refusals = section.targets.find((t) => t.target.includes("0 429s and 0 duplicates from an idle account"));
    expect(refusals?.met).toBe(false);
    expect(refusals?.measured).toBe("3 429s, 0 duplicates");
  });

  it("judges the rate on the 10,000-job run, not on an idle-account round", () => {
    const round = { ...startRun(3000, 30_000), rateShare: 0.9 };
    const large = { ...startRun(10_000, 100_000), rateShare: 1.0 };
    const rate = batchSection(BATCH_FULL, [round, large]).targets.find((t) => t.target.includes("of the /run limit"));
    expect(rate?.measured).toBe("1.000");
    expect(rate?.met).toBe(true);
  });
});

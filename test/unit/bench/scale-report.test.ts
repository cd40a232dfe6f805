import { describe, expect, it } from "vitest";
import {
  growthPer10x,
  type ScaleOperation,
  type ScalePoint,
  type ScaleProgram,
  type ScaleResult,
  scaleChartSeries,
  scaleSection,
} from "../../../bench/scale-report";

const times = (up: number, preview: number, destroy: number): Record<ScaleOperation, number[]> => ({
  up: [up],
  preview: [preview],
  destroy: [destroy],
});
const pt = (program: ScalePoint["program"], size: number, ms: number, bytes = size * 1000): ScalePoint => ({
  program,
  size,
  times: times(ms, ms / 2, ms / 3),
  stateFileBytes: bytes,
});

describe("growthPer10x", () => {
  it("is the plain ratio from 10 to 100 resources", () => {
    expect(growthPer10x(10, 2_000, 100, 7_000)).toBeCloseTo(3.5, 10);
  });

  it("normalizes a 5x step to a 10x step: (t500 / t100) ^ (1 / log10 5)", () => {
    expect(growthPer10x(100, 1_000, 500, 5_000)).toBeCloseTo(10, 10); // linear
    expect(growthPer10x(100, 1_000, 500, 25_000)).toBeCloseTo(100, 10); // quadratic
    expect(growthPer10x(100, 1_000, 500, 2_000)).toBeCloseTo(2 ** (1 / Math.log10(5)), 10);
  });

  it("gives 1 for a flat time and handles the quick sizes 10 -> 20", () => {
    expect(growthPer10x(10, 3_000, 100, 3_000)).toBe(1);
    expect(growthPer10x(10, 1_000, 20, 2_000)).toBeCloseTo(10, 10);
  });

  it.each([
    ["a missing time", 10, Number.NaN, 100, 1],
    ["a zero time", 10, 0, 100, 1],
    ["sizes not ascending", 100, 1, 10, 2],
    ["equal sizes", 10, 1, 10, 2],
    ["an infinite time", 10, 1, 100, Number.POSITIVE_INFINITY],
  ])("is NaN for %s", (_why, n1, t1, n2, t2) => {
    expect(growthPer10x(n1, t1, n2, t2)).toBeNaN();
  });
});

describe("scaleSection", () => {
  const result = (programs: ScaleProgram[], rounds = 1): ScaleResult => ({
    sizes: [10, 100, 500],
    rounds: () => rounds,
    previewRequests: 0,
    points: programs.flatMap((program) => {
      const factor = program === "ours" ? 1.5 : 1;
      // Baseline up: 2 s, 4 s, 40 s (faster than linear into 500).
      return [pt(program, 10, 2_000 * factor), pt(program, 100, 4_000 * factor), pt(program, 500, 40_000 * factor)];
    }),
  });

  it("lists every operation at every size with ours, baseline, their ratio and the growth from the size above", () => {
    const section = scaleSection(result(["ours", "baseline"]));
    const [table] = section.tables;
    expect(table!.rows).toHaveLength(9);
    const up100 = table!.rows.find((r) => r[0] === "up" && r[1] === "100")!;
    expect(up100).toEqual(["up", "100", "6.00 s", "4.00 s", "1.50x", "2.0x", "2.0x"]);
    const up10 = table!.rows.find((r) => r[0] === "up" && r[1] === "10")!;
    expect(up10.slice(-2)).toEqual(["-", "-"]);
  });

  it("reports the state file of both programs per size", () => {
    const state = scaleSection(result(["ours", "baseline"])).tables[1]!;
    expect(state.rows[0]).toEqual(["10", "10,000 B", "10,000 B", "1.00x", "1,000 B", "1,000 B"]);
  });

  it("says when a size ran a single round, and names the super-linear engine growth it measured", () => {
    const section = scaleSection(result(["ours", "baseline"]));
    expect(section.method.join(" ")).toContain("With one round (10, 100, 500 resources)");
    const growth = 10 ** (1 / Math.log10(5)); // t500 / t100 = 10, so 10 ^ (1 / log10 5), about 26.8
    expect(section.notes.join(" ")).toContain(`grows ${growth.toFixed(1)}x per 10x resources into 500`);
  });

  it("compares ours with and without checkpoints at the largest size when that program ran", () => {
    const section = scaleSection(result(["ours", "baseline", "ours, no checkpoints"]));
    expect(section.tables[0]!.columns).toContain("ours, no checkpoints (/ baseline)");
    expect(section.notes.join(" ")).toMatch(/At 500 resources `up` takes 1\.50x the baseline with checkpoints/);
  });

  it("draws one series per operation for ours and for the baseline, in seconds", () => {
    const series = scaleChartSeries(result(["ours", "baseline", "ours, no checkpoints"]));
    expect(series.map((s) => s.label)).toEqual([
      "up, ours",
      "up, no-op baseline",
      "preview, ours",
      "preview, no-op baseline",
      "destroy, ours",
      "destroy, no-op baseline",
    ]);
    expect(series[1]!.points).toEqual([
      { x: 10, y: 2 },
      { x: 100, y: 4 },
      { x: 500, y: 40 },
    ]);
    expect(scaleSection(result(["ours", "baseline"])).charts![0]!.file).toBe("scale.svg");
  });
});

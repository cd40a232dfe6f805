import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../sdk/seeded-random";
import {
  interleaved,
  median,
  medianInterval,
  pairedDifference,
  pairedRatio,
  perRoundDifferences,
  perRoundRatios,
} from "../../../bench/stats";

/** Counts, over `rounds` rounds of `interleaved`, each position of each item and each item directly after another. */
function tally(n: number, rounds: number) {
  const items = Array.from({ length: n }, (_, i) => i);
  const positions = new Map<string, number>();
  const follows = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    const row = interleaved(items, round);
    expect([...row].sort((a, b) => a - b)).toEqual(items);
    row.forEach((item, pos) => positions.set(`${item}@${pos}`, (positions.get(`${item}@${pos}`) ?? 0) + 1));
    for (let i = 1; i < n; i++)
      follows.set(`${row[i - 1]}>${row[i]}`, (follows.get(`${row[i - 1]}>${row[i]}`) ?? 0) + 1);
  }
  return { positions, follows };
}

describe("interleaved", () => {
  it.each([2, 3, 4, 5, 6, 7])("balances positions and predecessors for %i alternatives", (n) => {
    const cycle = n % 2 === 0 ? n : 2 * n;
    const { positions, follows } = tally(n, cycle);
    // Every item in every position, equally often.
    expect(positions.size).toBe(n * n);
    expect(new Set(positions.values())).toEqual(new Set([cycle / n]));
    // Every ordered pair of different items adjacent, equally often; never an item after itself.
    expect(follows.size).toBe(n * (n - 1));
    expect(new Set(follows.values()).size).toBe(1);
  });

  it("gives four alternatives a different predecessor in each of four rounds, unlike a rotation", () => {
    const rows = [0, 1, 2, 3].map((r) => interleaved(["ours", "undici", "fetch", "official"], r).join(" "));
    expect(rows).toEqual([
      "ours undici official fetch",
      "undici fetch ours official",
      "fetch official undici ours",
      "official ours fetch undici",
    ]);
  });

  it("leaves zero or one alternative as it is", () => {
    expect(interleaved([], 3)).toEqual([]);
    expect(interleaved(["a"], 3)).toEqual(["a"]);
  });
});

describe("median and pairedRatio", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it("pairs values of the same round before taking the median", () => {
    // Ratios per round: 0.5, 2 and 1.
    expect(pairedRatio([1, 8, 3], [2, 4, 3])).toBe(1);
  });
});

describe("perRoundRatios and perRoundDifferences", () => {
  it("pairs each round's values, in round order, and feed the paired medians", () => {
    expect(perRoundRatios([1, 8, 3], [2, 4, 3])).toEqual([0.5, 2, 1]);
    expect(perRoundDifferences([5, 1, 9], [2, 4, 3])).toEqual([3, -3, 6]);
    expect(pairedDifference([5, 1, 9], [2, 4, 3])).toBe(3);
  });
});

describe("medianInterval", () => {
  it("gives six values their minimum and maximum, at 1 - 2/64 coverage", () => {
    expect(medianInterval([40, -10, 300, 5, 120, 60])).toEqual({ low: -10, high: 300, coverage: 1 - 2 / 64 });
  });

  it("gives twelve values their 3rd smallest and 3rd largest, at 1 - 2 P(Bin(12, 1/2) <= 2)", () => {
    const values = [9, 1, 12, 4, 7, 2, 11, 3, 10, 6, 8, 5];
    // P(Bin(12, 1/2) <= 2) = (1 + 12 + 66) / 4096.
    expect(medianInterval(values)).toEqual({ low: 3, high: 10, coverage: 1 - (2 * 79) / 4096 });
    // Asked for less confidence, it narrows: k = 4 covers 1 - 2 (79 + 220) / 4096 = 85.4%.
    expect(medianInterval(values, 0.8)).toEqual({ low: 4, high: 9, coverage: 1 - (2 * 299) / 4096 });
  });

  it("gives no interval where even the extremes cover too little", () => {
    // Five values: the minimum and maximum cover 1 - 2/32 = 93.75%.
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    expect(medianInterval([])).toBeUndefined();
    expect(medianInterval([1, 2, 3, 4, 5], 0.9)).toEqual({ low: 1, high: 5, coverage: 1 - 2 / 32 });
  });

  it("holds the true median as often as it claims, for a skewed distribution", () => {
    // Exponential draws (median ln 2), twelve per trial; the claimed coverage is 96.1%.
    const random = seededRandom(20261123);
    const trials = 4000;
    let held = 0;
    for (let t = 0; t < trials; t++) {
      const draws = Array.from({ length: 12 }, () => -Math.log(1 - random()));
      const interval = medianInterval(draws)!;
      if (interval.low <= Math.LN2 && Math.LN2 <= interval.high) held++;
    }
    // Binomial spread of the count at 4000 trials is about 0.3 percentage points.
    expect(held / trials).toBeGreaterThan(0.95);
    expect(held / trials).toBeLessThan(0.972);
  });
});

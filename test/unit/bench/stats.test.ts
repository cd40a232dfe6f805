import { describe, expect, it } from "vitest";
import { interleaved, median, pairedRatio } from "../../../bench/stats";

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

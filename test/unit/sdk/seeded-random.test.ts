import { describe, expect, it } from "vitest";
import { deriveSeed, freshSeed, isSeed, MAX_SEED, seededRandom } from "../../../sdk/seeded-random";

describe("seeded randomness", () => {
  it("replays the same sequence for the same seed, in [0, 1), and another for another seed", () => {
    const take = (seed: number) => Array.from({ length: 1000 }, seededRandom(seed));
    const a = take(42);
    expect(take(42)).toEqual(a);
    expect(take(43)).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    // Roughly uniform: each tenth of [0, 1) gets 60..140 of 1000 draws.
    const tenths = Array.from({ length: 10 }, (_, i) => a.filter((x) => Math.floor(x * 10) === i).length);
    expect(Math.min(...tenths)).toBeGreaterThan(60);
    expect(Math.max(...tenths)).toBeLessThan(140);
  });

  it("derives a distinct, stable seed per component label, always a valid seed", () => {
    const labels = ["faults", "kills", "retries", "fuzz", "user_a", "user_b"];
    const derived = labels.map((l) => deriveSeed(7, l));
    expect(new Set(derived).size).toBe(labels.length);
    expect(labels.map((l) => deriveSeed(7, l))).toEqual(derived);
    expect(deriveSeed(8, "faults")).not.toBe(deriveSeed(7, "faults"));
    expect([...derived, deriveSeed(MAX_SEED, "x"), freshSeed()].every(isSeed)).toBe(true);
  });

  it("accepts only whole numbers in [0, 2^31) as seeds", () => {
    expect([0, 1, MAX_SEED].every(isSeed)).toBe(true);
    expect([-1, 1.5, MAX_SEED + 1, Number.NaN, "1", undefined].some(isSeed)).toBe(false);
  });
});

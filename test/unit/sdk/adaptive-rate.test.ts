import { describe, expect, it } from "vitest";
import {
  AdaptiveRate,
  CUT_FACTOR,
  EVIDENCE,
  FLOOR_SHARE,
  GROWTH_PER_WINDOW,
  PAUSE_AFTER_REFUSALS,
} from "../../../sdk/jobs/adaptive-rate";
import { seededRandom } from "../../../sdk/seeded-random";

const WINDOW = 10_000;

describe("AdaptiveRate", () => {
  it("starts at the stated limit and stays there while requests are accepted", () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    for (let t = 0; t < 50_000; t += 10) rate.onAccepted(t);
    expect(rate.limit).toBe(1000);
    expect(rate.pausedUntil).toBe(0);
  });

  it(`pauses until Retry-After after ${PAUSE_AFTER_REFUSALS} refusals in a row, not before`, () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    for (let i = 1; i < PAUSE_AFTER_REFUSALS; i++) rate.onRefused(100 + i, 3000);
    expect(rate.pausedUntil).toBe(0);
    rate.onRefused(200, 3000);
    expect(rate.pausedUntil).toBe(3200);
  });

  it("pauses a tenth of a window when the refusal gave no Retry-After, and never more than a window", () => {
    const noHint = new AdaptiveRate(1000, WINDOW, 0);
    for (let i = 0; i < PAUSE_AFTER_REFUSALS; i++) noHint.onRefused(500, undefined);
    expect(noHint.pausedUntil).toBe(500 + WINDOW / 10);
    const longHint = new AdaptiveRate(1000, WINDOW, 0);
    for (let i = 0; i < PAUSE_AFTER_REFUSALS; i++) longHint.onRefused(500, 3_600_000);
    expect(longHint.pausedUntil).toBe(500 + WINDOW);
  });

  it("an accepted request in between restarts the count of refusals in a row", () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    for (let round = 0; round < 10; round++) {
      for (let i = 1; i < PAUSE_AFTER_REFUSALS; i++) rate.onRefused(round * 10 + i, 1000);
      rate.onAccepted(round * 10 + 9);
    }
    expect(rate.pausedUntil).toBe(0);
  });

  it("cuts the rate when 30% or more of the last answers were refusals, at most once per tenth of a window", () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    // Two accepted, one refused, repeated: a third refused, spread so no five come in a row.
    let t = 0;
    for (let i = 0; i < EVIDENCE + 3; i++) {
      t += 1;
      if (i % 3 === 2) rate.onRefused(t, 1000);
      else rate.onAccepted(t);
    }
    expect(rate.limit).toBeCloseTo(1000 * CUT_FACTOR, 0);
    // More of the same within the same tenth of a window: no second cut.
    for (let i = 0; i < EVIDENCE; i++) {
      t += 1;
      if (i % 3 === 2) rate.onRefused(t, 1000);
      else rate.onAccepted(t);
    }
    expect(rate.limit).toBeCloseTo(1000 * CUT_FACTOR, 0);
  });

  it("keeps the rate at random refusals of 10% (injected faults), and pauses almost never", () => {
    const random = seededRandom(24);
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    let pauses = 0;
    let lastPause = 0;
    for (let i = 0; i < 20_000; i++) {
      const t = i * 10;
      if (random() < 0.1) rate.onRefused(t, 1000);
      else rate.onAccepted(t);
      if (rate.pausedUntil !== lastPause) {
        pauses++;
        lastPause = rate.pausedUntil;
      }
    }
    expect(rate.limit).toBeGreaterThan(950);
    expect(pauses).toBeLessThanOrEqual(2);
  });

  it("grows back to the stated limit by a tenth of it per window of accepted requests", () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    for (let i = 0; i < EVIDENCE; i++) rate.onRefused(i, 1000);
    expect(rate.limit).toBeLessThan(1000);
    rate.onAccepted(EVIDENCE);
    const cut = rate.limit;
    rate.onAccepted(EVIDENCE + WINDOW);
    expect(rate.limit).toBeCloseTo(cut + 1000 * GROWTH_PER_WINDOW, 6);
    for (let w = 2; w < 20; w++) rate.onAccepted(EVIDENCE + w * WINDOW);
    expect(rate.limit).toBe(1000);
  });

  it(`never cuts below ${FLOOR_SHARE * 100}% of the stated limit`, () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    for (let i = 0; i < 100_000; i++) rate.onRefused(i * 100, 1000);
    expect(rate.limit).toBe(1000 * FLOOR_SHARE);
  });

  it("follows a lower stated limit at once and a higher one by growth", () => {
    const rate = new AdaptiveRate(1000, WINDOW, 0);
    rate.setStatedLimit(500, 0);
    expect(rate.limit).toBe(500);
    rate.setStatedLimit(2000, 0);
    expect(rate.limit).toBe(500);
    rate.onAccepted(WINDOW);
    expect(rate.limit).toBe(500 + 2000 * GROWTH_PER_WINDOW);
  });
});

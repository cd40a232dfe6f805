import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetShape, HOLD_MARGIN, SendBudget } from "../../../sdk/jobs/send-budget";
import { seededRandom } from "../../../sdk/seeded-random";
import { busiestClosedStretch, busiestStretch, fixedWindowMost, simulate, STEADY, toStalls } from "./pacing-simulation";

const WINDOW = 10_000;

describe("budgetShape", () => {
  it.each([
    [1000, 1000],
    [2000, 2000],
    [100, 100],
    [562.5, 562],
    [1, 1],
    [0.2, 1],
  ])("for %d per window: at most %d counted, each until 1.01 windows after its answer", (perWindow, cap) => {
    const shape = budgetShape(perWindow, WINDOW);
    expect(shape.cap).toBe(cap);
    expect(shape.holdMs).toBe(WINDOW * (1 + HOLD_MARGIN));
    expect(HOLD_MARGIN).toBe(0.01);
  });

  it("allows the whole limit (never more, but always one request), and holds each answer longer than a window", () => {
    for (let perWindow = 1; perWindow <= 5000; perWindow++) {
      const { cap, holdMs } = budgetShape(perWindow, WINDOW);
      expect(cap).toBe(perWindow);
      expect(holdMs).toBeGreaterThan(WINDOW);
    }
  });
});

describe("SendBudget", () => {
  it("does not count a refused request; an accepted one counts until a hold after its answer", () => {
    const budget = new SendBudget(100, WINDOW);
    const { holdMs } = budget.current;
    expect(budget.trySend(0)).toBe(true);
    expect(budget.counted(0)).toBe(1);
    budget.onAnswer(5, false);
    expect(budget.counted(5)).toBe(0);
    expect(budget.trySend(5)).toBe(true);
    budget.onAnswer(10, true);
    expect(budget.counted(10)).toBe(1);
    // It counts until one hold after its answer, and not a moment longer.
    expect(budget.counted(10 + holdMs - 1)).toBe(1);
    expect(budget.counted(10 + holdMs)).toBe(0);
  });

  it("an idle budget allows its whole window at once", () => {
    const budget = new SendBudget(1000, WINDOW);
    let sent = 0;
    while (budget.trySend(0)) sent++;
    expect(sent).toBe(1000);
    expect(budget.waitMs(0)).toBe(Number.POSITIVE_INFINITY);
  });

  it("waits for an answer (Infinity) when every counted request is in flight, and for the oldest answer to age out otherwise", () => {
    const budget = new SendBudget(2, WINDOW);
    const { holdMs } = budget.current;
    expect(budget.trySend(0)).toBe(true);
    expect(budget.trySend(WINDOW)).toBe(true);
    expect(budget.waitMs(2 * WINDOW)).toBe(Number.POSITIVE_INFINITY);
    budget.onAnswer(2 * WINDOW + 100, true);
    expect(budget.waitMs(2 * WINDOW + 100)).toBe(holdMs);
    expect(budget.trySend(2 * WINDOW + 100 + holdMs - 1)).toBe(false);
    expect(budget.trySend(2 * WINDOW + 100 + holdMs)).toBe(true);
  });

  it("a lower limit holds sending back until enough counted requests age out", () => {
    const budget = new SendBudget(1000, WINDOW);
    for (let t = 0; t < 500; t++) {
      expect(budget.trySend(t)).toBe(true);
      budget.onAnswer(t, true);
    }
    budget.setLimit(100);
    expect(budget.current.cap).toBe(100);
    expect(budget.trySend(500)).toBe(false);
    // Sending resumes once the count is under the new cap: when all but 99 of the 500 aged out.
    const wait = budget.waitMs(500);
    expect(budget.counted(500 + wait)).toBe(99);
    expect(budget.trySend(500 + wait)).toBe(true);
  });

  it("property: from an idle start on, no stretch of one window holds more requests than the limit, for a platform with fixed windows at any phase or a sliding window, its clock up to 0.9% slower or 2% faster (random stalls, latency, refusals, caps and limit cuts)", () => {
    const scenario = fc.record({
      perWindow: fc.integer({ min: 1, max: 400 }),
      windowMs: fc.integer({ min: 50, max: 20_000 }),
      stalls: fc.array(
        fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), ms: fc.double({ min: 0, max: 2, noNaN: true }) }),
        { maxLength: 20 },
      ),
      latency: fc.double({ min: 0, max: 0.5, noNaN: true }),
      refusedShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
      concurrent: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
      cuts: fc.array(
        fc.record({
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          share: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        { maxLength: 6 },
      ),
      /** How fast the platform's clock runs against ours. */
      clockRate: fc.double({ min: 0.991, max: 1.02, noNaN: true }),
      /** Where the platform's fixed windows start, as a share of one. */
      phase: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const horizonMs = 6 * s.windowMs;
        const result = simulate({
          perWindow: s.perWindow,
          windowMs: s.windowMs,
          horizonMs,
          stalls: toStalls(s.stalls, horizonMs, s.windowMs),
          latencyMs: s.latency * s.windowMs,
          refusedShare: s.refusedShare,
          concurrent: s.concurrent,
          limitChanges: s.cuts
            .map((c) => ({ at: c.at * horizonMs, perWindow: Math.max(1, Math.round(c.share * s.perWindow)) }))
            .sort((a, b) => a.at - b.at),
          random: seededRandom(s.seed),
        });
        // What the platform's clock reads when each counted request reaches it.
        const platform = result.counted.map((t) => t * s.clockRate);
        expect(budgetShape(s.perWindow, s.windowMs).cap).toBe(s.perWindow);
        expect(busiestStretch(result.counted, s.windowMs)).toBeLessThanOrEqual(s.perWindow);
        expect(busiestClosedStretch(platform, s.windowMs)).toBeLessThanOrEqual(s.perWindow);
        expect(fixedWindowMost(platform, s.windowMs, s.phase * s.windowMs)).toBeLessThanOrEqual(s.perWindow);
        // An idle start spends a whole window at once when nothing else holds it back.
        if (
          s.concurrent === undefined &&
          s.refusedShare === 0 &&
          s.cuts.length === 0 &&
          result.sent.length >= s.perWindow
        ) {
          expect(result.sent[s.perWindow - 1]).toBe(result.sent[0]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("without the margin the bound would not hold: a platform clock 1.5% slower sees more than the limit in one window", () => {
    const result = simulate({ ...STEADY, horizonMs: 3 * WINDOW, stalls: [], random: seededRandom(3) });
    const platform = result.counted.map((t) => t * 0.985);
    expect(busiestClosedStretch(result.counted, WINDOW)).toBeLessThanOrEqual(1000);
    expect(busiestClosedStretch(platform, WINDOW)).toBeGreaterThan(1000);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BURST_SHARE, budgetShape, CAP_SHARE, SendBudget } from "../../../sdk/jobs/send-budget";
import { seededRandom } from "../../../sdk/seeded-random";
import { busiestStretch, countBetween, simulate, type Stall } from "./pacing-simulation";

const WINDOW = 10_000;

describe("budgetShape", () => {
  it.each([
    [1000, 990, 495],
    [2000, 1980, 990],
    [100, 99, 49.5],
    [4, 3, 1.5],
    [1, 1, 1],
  ])("for %d per window: at most %d counted, a bucket of %d", (perWindow, cap, size) => {
    const shape = budgetShape(perWindow, WINDOW);
    expect(shape.cap).toBe(cap);
    expect(shape.size).toBe(size);
    expect(shape.perMs * WINDOW).toBeCloseTo(cap, 9);
  });

  it(`never allows more than ${CAP_SHARE} of the limit (but always one request)`, () => {
    for (let perWindow = 1; perWindow <= 5000; perWindow++) {
      const { cap, size } = budgetShape(perWindow, WINDOW);
      expect(cap).toBeLessThanOrEqual(Math.max(1, perWindow * CAP_SHARE));
      expect(size).toBeGreaterThanOrEqual(1);
    }
  });
});

describe("SendBudget", () => {
  it("does not count a refused request, and gives its token back", () => {
    const budget = new SendBudget(100, WINDOW, 0);
    expect(budget.trySend(0)).toBe(true);
    expect(budget.tokensAt(0)).toBe(0);
    budget.onAnswer(5, false);
    expect(budget.counted(5)).toBe(0);
    expect(budget.tokensAt(5)).toBeGreaterThanOrEqual(1);
    expect(budget.trySend(5)).toBe(true);
    budget.onAnswer(10, true);
    expect(budget.counted(10)).toBe(1);
    // It counts until one window after its answer, and not a moment longer.
    expect(budget.counted(10 + WINDOW - 1)).toBe(1);
    expect(budget.counted(10 + WINDOW)).toBe(0);
  });

  it("waits for an answer (Infinity) when every counted request is in flight, and for the oldest answer to age out otherwise", () => {
    const budget = new SendBudget(3, WINDOW, 0); // cap 2, bucket of 1
    expect(budget.trySend(0)).toBe(true);
    expect(budget.trySend(WINDOW)).toBe(true);
    expect(budget.waitMs(2 * WINDOW)).toBe(Number.POSITIVE_INFINITY);
    budget.onAnswer(2 * WINDOW + 100, true);
    expect(budget.waitMs(2 * WINDOW + 100)).toBe(WINDOW);
    expect(budget.trySend(3 * WINDOW + 99)).toBe(false);
    expect(budget.trySend(3 * WINDOW + 100)).toBe(true);
  });

  it("a lower limit holds sending back until enough counted requests age out", () => {
    const budget = new SendBudget(1000, WINDOW, 0);
    let t = 0;
    for (let sent = 0; sent < 500; t++) {
      if (budget.trySend(t)) {
        budget.onAnswer(t, true);
        sent++;
      }
    }
    budget.setLimit(100, t);
    expect(budget.current.cap).toBe(99);
    expect(budget.trySend(t)).toBe(false);
    // Sending resumes once the count is under the new cap: when all but 98 of the 500 aged out.
    const wait = budget.waitMs(t);
    expect(budget.counted(t + wait)).toBe(98);
    expect(budget.trySend(t + wait)).toBe(true);
  });

  it("property: no stretch of one window, wherever it falls, ever holds more counted requests than the cap (random stalls, latency, refusals, caps and limit cuts)", () => {
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
        expect(busiestStretch(result.counted, s.windowMs)).toBeLessThanOrEqual(
          budgetShape(s.perWindow, s.windowMs).cap,
        );
      }),
      { numRuns: 150 },
    );
  });

  it(`loses nothing to a stall of up to ${BURST_SHARE} of a window: it sends what the stall held up as soon as the loop runs again`, () => {
    const run = (stalls: Stall[]) => simulate({ ...STEADY, stalls, random: seededRandom(7) }).sent.length;
    const undisturbed = run([]);
    for (const ms of [50, 300, 1000, WINDOW * BURST_SHARE]) {
      expect(undisturbed - run([{ at: 30_000, ms }])).toBeLessThanOrEqual(1);
    }
    // 300 ms of every second (the event-loop test of the benchmark): nothing lost either.
    const everySecond = Array.from({ length: 100 }, (_, k) => ({ at: 500 + k * 1000, ms: 300 }));
    expect(undisturbed - run(everySecond)).toBeLessThanOrEqual(1);
  });

  it("of a longer stall, loses only what exceeds the bucket: half a window's worth is made up", () => {
    const run = (stalls: Stall[]) => simulate({ ...STEADY, stalls, random: seededRandom(7) }).sent.length;
    const { cap, perMs } = budgetShape(STEADY.perWindow, WINDOW);
    const stallMs = 7000;
    const lost = run([]) - run([{ at: 30_000, ms: stallMs }]);
    const excess = (stallMs - WINDOW * BURST_SHARE) * perMs;
    expect(lost).toBeGreaterThanOrEqual(Math.floor(excess) - 2);
    expect(lost).toBeLessThanOrEqual(Math.ceil(excess) + 2);
    expect(cap).toBe(990);
  });

  it("property: after any stall the rate recovers to the cap: every window-long stretch from the stall's end on holds the cap, less what one round trip holds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * WINDOW }),
        fc.integer({ min: 0, max: 3 * WINDOW }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (at, ms, seed) => {
          const { sent } = simulate({ ...STEADY, stalls: [{ at, ms }], random: seededRandom(seed) });
          const cap = budgetShape(STEADY.perWindow, WINDOW).cap;
          // A request counts from its sending to a window after its answer, so a stretch of one
          // window misses what was sent in the round trip before it (at most 6 ms here: 0.6 request) and 1 for rounding.
          const roundTrip = Math.ceil((cap * 2 * STEADY.latencyMs) / WINDOW) + 1;
          const end = at + ms;
          for (let from = end; from + WINDOW <= STEADY.horizonMs; from += WINDOW / 4) {
            expect(countBetween(sent, from, from + WINDOW)).toBeGreaterThanOrEqual(cap - roundTrip);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** `/run` at the spec's limit, answered within a few ms, never refused, for 100 s. */
const STEADY = {
  perWindow: 1000,
  windowMs: WINDOW,
  horizonMs: 100_000,
  latencyMs: 3,
  refusedShare: 0,
};

/** Stalls drawn as shares of the horizon and the window, sorted and made disjoint. */
function toStalls(drawn: readonly { at: number; ms: number }[], horizonMs: number, windowMs: number): Stall[] {
  const stalls = drawn.map((d) => ({ at: d.at * horizonMs, ms: d.ms * windowMs })).sort((a, b) => a.at - b.at);
  const disjoint: Stall[] = [];
  let free = 0;
  for (const s of stalls) {
    const at = Math.max(s.at, free);
    disjoint.push({ at, ms: s.ms });
    free = at + s.ms;
  }
  return disjoint;
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetShape } from "../../../sdk/jobs/send-budget";
import { seededRandom } from "../../../sdk/seeded-random";
import {
  afterStall,
  busiestClosedStretch,
  countBetween,
  fixedWindowMost,
  simulate,
  STEADY,
  type Stall,
  toStalls,
} from "./pacing-simulation";

/**
 * Slack of the simulated loop: a step comes at least 0.001 ms after the one before, and a wait
 * that rounding left a hair above 0 ends 0.01 ms later.
 */
const SLACK_MS = 0.02;

describe("SendBudget at the start of a batch and after stalls", () => {
  it("property: sends each request as soon as the concurrency cap and the count allow it, or as soon as the loop runs again after a stall (from an idle start: the whole window at once, up to the concurrency cap)", () => {
    const scenario = fc.record({
      perWindow: fc.integer({ min: 1, max: 400 }),
      windowMs: fc.integer({ min: 50, max: 20_000 }),
      stalls: fc.array(
        fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), ms: fc.double({ min: 0, max: 2, noNaN: true }) }),
        { maxLength: 10 },
      ),
      latency: fc.double({ min: 0, max: 0.2, noNaN: true }),
      refusedShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
      concurrent: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const horizonMs = 4 * s.windowMs;
        const latencyMs = s.latency * s.windowMs;
        const stalls = toStalls(s.stalls, horizonMs, s.windowMs);
        const { sent } = simulate({
          perWindow: s.perWindow,
          windowMs: s.windowMs,
          horizonMs,
          stalls,
          latencyMs,
          refusedShare: s.refusedShare,
          concurrent: s.concurrent,
          random: seededRandom(s.seed),
        });
        const { cap, holdMs } = budgetShape(s.perWindow, s.windowMs);
        // When the client has noticed the answer to request j at the latest (a round trip is at most 2 x latency).
        const noticed = (j: number) => afterStall(stalls, sent[j]! + 2 * latencyMs + SLACK_MS);
        for (let i = 0; i <= sent.length; i++) {
          let ready = i > 0 ? sent[i - 1]! : 0;
          // In flight: requests 0..i-c answered leave fewer than c in flight.
          if (s.concurrent !== undefined && i >= s.concurrent) ready = Math.max(ready, noticed(i - s.concurrent));
          // The count: requests 0..i-cap one hold past their answers leave fewer than cap counted.
          if (i >= cap) ready = Math.max(ready, noticed(i - cap) + holdMs);
          const due = afterStall(stalls, ready + SLACK_MS);
          if (i < sent.length) expect(sent[i]).toBeLessThanOrEqual(due);
          // The next request was never sent: it was not due before the horizon.
          else expect(due).toBeGreaterThanOrEqual(horizonMs);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("3,000 requests at the platform's /run limit from an idle account (200 in flight, 5 ms each way): the last goes two holds and a few round trips after the first, and no 10 s holds more than 1,000", () => {
    const spec = { perWindow: 1000, windowMs: 10_000, concurrent: 200, latencyMs: 5, refusedShare: 0, stalls: [] };
    const { sent, counted } = simulate({ ...spec, horizonMs: 60_000, random: seededRandom(11) });
    const { holdMs } = budgetShape(1000, 10_000);
    const batch = sent.slice(0, 3000);
    expect(batch.filter((t) => t === 0)).toHaveLength(200);
    // 1,000 go in five round trips of 200: the whole first window at once.
    expect(batch[999]).toBeLessThanOrEqual(4 * 10 + SLACK_MS);
    // Each later thousand goes one hold after the thousand before it: the floor is two windows.
    expect(batch[2999]).toBeGreaterThanOrEqual(2 * 10_000);
    expect(batch[2999]).toBeLessThanOrEqual(2 * (holdMs + 5 * 10) + 4 * 10 + SLACK_MS);
    const arrivals = counted.slice(0, 3000);
    expect(busiestClosedStretch(arrivals, 10_000)).toBeLessThanOrEqual(1000);
    for (const phase of [0, 1, 2500, 5000, 9999]) {
      expect(fixedWindowMost(arrivals, 10_000, phase)).toBeLessThanOrEqual(1000);
    }
  });

  it("loses nothing to a long stall: what came due during it goes at once when it ends", () => {
    const stall: Stall = { at: 5000, ms: 7000 };
    const { sent } = simulate({ ...STEADY, horizonMs: 20_000, stalls: [stall], random: seededRandom(7) });
    // The first window's 1,000 went at 0; the next 1,000 came due at about 10.1 s, in the stall.
    expect(sent.filter((t) => t === 0)).toHaveLength(1000);
    expect(sent.filter((t) => t === stall.at + stall.ms)).toHaveLength(1000);
  });

  it("property: after any stall every stretch of one hold and a round trip, from the stall's end on, holds the whole cap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * STEADY.windowMs }),
        fc.integer({ min: 0, max: 3 * STEADY.windowMs }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (at, ms, seed) => {
          const { sent } = simulate({ ...STEADY, stalls: [{ at, ms }], random: seededRandom(seed) });
          const { cap, holdMs } = budgetShape(STEADY.perWindow, STEADY.windowMs);
          // Every request counted at `from` was answered by 2 latencies later, and leaves the count one hold after that.
          const span = holdMs + 2 * STEADY.latencyMs + SLACK_MS;
          for (let from = at + ms; from + span <= STEADY.horizonMs; from += STEADY.windowMs / 4) {
            expect(countBetween(sent, from, from + span)).toBeGreaterThanOrEqual(cap);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { PAUSE_AFTER_REFUSALS } from "../../../sdk/jobs/adaptive-rate";
import { OperationPacer, type PacerLimit } from "../../../sdk/jobs/operation-pacer";
import { busiestStretch } from "./pacing-simulation";

/**
 * A pacer on a simulated clock: its sleeps move the clock on at once instead of waiting (permits
 * are handed out one at a time, so one sleep runs at a time), and `stall` moves it on as a
 * blocked event loop would.
 */
function simulatedPacer(limit: PacerLimit) {
  const clock = { now: 0, sleeps: [] as number[] };
  const sleep = (ms: number, signal: AbortSignal | undefined) => {
    if (signal?.aborted) return Promise.resolve(false);
    clock.sleeps.push(ms);
    clock.now += ms;
    return Promise.resolve(true);
  };
  const pacer = new OperationPacer("run", limit, () => clock.now, sleep);
  return { pacer, clock };
}

describe("OperationPacer", () => {
  it("never lets more than the limit into any stretch of one window, wherever it starts, stalls or not", async () => {
    const { pacer, clock } = simulatedPacer({ perWindow: 100, windowMs: 1000, concurrent: undefined });
    const times: number[] = [];
    for (let i = 0; i < 700; i++) {
      expect(await pacer.acquire()).toBe(true);
      times.push(clock.now);
      // Answered 2 ms later; every 50th request the event loop then stalls for 400 ms.
      clock.now += 2;
      pacer.release({ refused: false });
      if (i % 50 === 49) clock.now += 400;
    }
    expect(busiestStretch(times, 1000)).toBeLessThanOrEqual(100);
    expect(pacer.counts).toEqual({ sent: 700, refused: 0 });
  });

  it("hands an idle operation its whole window at once, up to the concurrency cap in flight", async () => {
    const { pacer, clock } = simulatedPacer({ perWindow: 1000, windowMs: 10_000, concurrent: 200 });
    for (let i = 0; i < 200; i++) expect(await pacer.acquire()).toBe(true);
    expect(clock.now).toBe(0);
    let more = false;
    const waiting = pacer.acquire().then((ok) => (more = ok));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(more).toBe(false);
    // Answers make room at once: the rest of the window follows without waiting for time to pass.
    for (let i = 0; i < 200; i++) pacer.release({ refused: false });
    await waiting;
    for (let i = 0; i < 799; i++) {
      expect(await pacer.acquire()).toBe(true);
      pacer.release({ refused: false });
    }
    expect(clock.now).toBe(0);
    expect(pacer.countedNow).toBe(1000);
  });

  it("makes up a stall at once: what the stall held up goes as soon as the loop runs again", async () => {
    const { pacer, clock } = simulatedPacer({ perWindow: 1000, windowMs: 10_000, concurrent: undefined });
    for (let i = 0; i < 1000; i++) {
      await pacer.acquire();
      pacer.release({ refused: false });
    }
    expect(clock.now).toBe(0);
    clock.now += 15_000; // a 15 s stall: the next window's 1,000 came due during it
    for (let i = 0; i < 1000; i++) {
      await pacer.acquire();
      pacer.release({ refused: false });
    }
    expect(clock.now).toBe(15_000);
  });

  it("does not count a refused request (the platform did not), and counts an accepted one", async () => {
    const { pacer } = simulatedPacer({ perWindow: 100, windowMs: 10_000, concurrent: undefined });
    await pacer.acquire();
    expect(pacer.countedNow).toBe(1);
    pacer.release({ refused: true, retryAfterMs: 1000 });
    expect(pacer.countedNow).toBe(0);
    await pacer.acquire();
    pacer.release({ refused: false });
    expect(pacer.countedNow).toBe(1);
  });

  it("holds requests in flight at the concurrency cap until one is released", async () => {
    const { pacer } = simulatedPacer({ perWindow: 1000, windowMs: 10, concurrent: 3 });
    for (let i = 0; i < 3; i++) expect(await pacer.acquire()).toBe(true);
    let fourth = false;
    const waiting = pacer.acquire().then((ok) => (fourth = ok));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(fourth).toBe(false);
    pacer.release({ refused: false });
    await waiting;
    expect(fourth).toBe(true);
  });

  it("after refusals in a row, waits for the Retry-After before the next permit", async () => {
    const { pacer, clock } = simulatedPacer({ perWindow: 1000, windowMs: 1000, concurrent: undefined });
    let refusedAt = 0;
    for (let i = 0; i < PAUSE_AFTER_REFUSALS; i++) {
      await pacer.acquire();
      refusedAt = clock.now;
      pacer.release({ refused: true, retryAfterMs: 150 });
    }
    await pacer.acquire();
    expect(clock.now).toBeGreaterThanOrEqual(refusedAt + 150);
    expect(pacer.counts.refused).toBe(PAUSE_AFTER_REFUSALS);
  });

  it("gives up a wait when the signal aborts, taking nothing", async () => {
    const { pacer } = simulatedPacer({ perWindow: 1000, windowMs: 10, concurrent: 1 });
    await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(pacer.counts.sent).toBe(1);
  });

  it("hands out permits in the order they were asked for", async () => {
    const { pacer } = simulatedPacer({ perWindow: 1000, windowMs: 10, concurrent: 1 });
    const order: number[] = [];
    const all = [0, 1, 2, 3].map((i) =>
      pacer.acquire().then(() => {
        order.push(i);
        queueMicrotask(() => pacer.release({ refused: false }));
      }),
    );
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});

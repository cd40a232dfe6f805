import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { PAUSE_AFTER_REFUSALS } from "../../../sdk/jobs/adaptive-rate";
import { OperationPacer } from "../../../sdk/jobs/operation-pacer";

/** The most timestamps found in any stretch of `windowMs` starting at one of them. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (j < times.length && times[j]! < times[i]! + windowMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

describe("OperationPacer", () => {
  it("never lets more than the limit into any stretch of one window, wherever it starts", async () => {
    const pacer = new OperationPacer("run", { perWindow: 20, windowMs: 200, concurrent: undefined });
    const times: number[] = [];
    for (let i = 0; i < 70; i++) {
      expect(await pacer.acquire()).toBe(true);
      times.push(performance.now());
      pacer.release({ refused: false });
    }
    expect(busiestWindow(times, 200)).toBeLessThanOrEqual(20);
    expect(pacer.counts).toEqual({ sent: 70, refused: 0 });
  });

  it("takes a refused request's token back (the platform did not count it), and keeps an accepted one's", async () => {
    const pacer = new OperationPacer("run", { perWindow: 100, windowMs: 10_000, concurrent: undefined });
    await pacer.acquire();
    expect(pacer.availableTokens).toBeLessThan(0.5);
    pacer.release({ refused: true, retryAfterMs: 1000 });
    expect(pacer.availableTokens).toBeGreaterThanOrEqual(0.99);
    await pacer.acquire();
    pacer.release({ refused: false });
    expect(pacer.availableTokens).toBeLessThan(0.5);
  });

  it("holds requests in flight at the concurrency cap until one is released", async () => {
    const pacer = new OperationPacer("status", { perWindow: 1000, windowMs: 10, concurrent: 3 });
    for (let i = 0; i < 3; i++) expect(await pacer.acquire()).toBe(true);
    let fourth = false;
    const waiting = pacer.acquire().then((ok) => (fourth = ok));
    await new Promise((r) => setTimeout(r, 50));
    expect(fourth).toBe(false);
    pacer.release({ refused: false });
    await waiting;
    expect(fourth).toBe(true);
  });

  it("after refusals in a row, waits for the Retry-After before the next permit", async () => {
    const pacer = new OperationPacer("run", { perWindow: 1000, windowMs: 1000, concurrent: undefined });
    for (let i = 0; i < PAUSE_AFTER_REFUSALS; i++) {
      await pacer.acquire();
      pacer.release({ refused: true, retryAfterMs: 150 });
    }
    const started = performance.now();
    await pacer.acquire();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(pacer.counts.refused).toBe(PAUSE_AFTER_REFUSALS);
  });

  it("gives up a wait when the signal aborts, taking nothing", async () => {
    const pacer = new OperationPacer("run", { perWindow: 1000, windowMs: 10, concurrent: 1 });
    await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(pacer.counts.sent).toBe(1);
  });

  it("hands out permits in the order they were asked for", async () => {
    const pacer = new OperationPacer("run", { perWindow: 1000, windowMs: 10, concurrent: 1 });
    const order: number[] = [];
    const all = [0, 1, 2, 3].map((i) =>
      pacer.acquire().then(() => {
        order.push(i);
        setTimeout(() => pacer.release({ refused: false }), 1);
      }),
    );
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});

/**
 * How many requests of one operation may be sent, and when: pure logic (no timers; the time is
 * passed in, any monotonic clock in ms), so the bound below has property tests over simulated
 * time (test/unit/sdk/send-budget.test.ts, send-budget-start.test.ts).
 *
 * **The bound: a sliding count.** The platform counts the requests that reach it in windows
 * whose start this client does not know (fixed windows at some phase, or a window sliding over
 * its clock), so every stretch of one window length, wherever it falls, must hold at most the
 * limit. A request reaches the platform at some moment between its sending and its answer. So
 * a request counts from its sending until {@link budgetShape}'s `holdMs` (the window and
 * {@link HOLD_MARGIN} more) after its answer, or after the client noticed its answer, which is
 * later still: a new request may go only while fewer than `cap` (the full limit) count. Two
 * requests that reached the platform within a window of each other then always counted together
 * when the later one was sent, so no stretch of one window ever holds more than `cap`, whatever
 * the latency and however late the event loop ran. The margin is for what the platform may
 * measure differently: a window that counts both its edges, or a clock running slower than ours
 * by less than 1%. A request without an answer (a lost connection, a timeout) counts as one the
 * platform took. A request the platform refused (429) is not one of its limit's ("requests
 * above the effective limit receive 429", docs/platform.md) and stops counting at its answer.
 *
 * **The pace: the count alone.** An idle account may spend a whole window at once, so nothing
 * evens the pace out: a batch sends as fast as the count and the concurrency cap (the pacer's)
 * let it. Its first window's budget goes at once, and each later request goes as soon as the
 * request it replaces has been answered one hold earlier, so `n` requests go within
 * `ceil(n / cap) - 1` holds plus the time the first window's answers took to come back: the
 * floor for a client that does not know where the platform's windows start (3,000 `/run` at
 * 1,000 per 10 s: 20 s). An even pace, the token bucket of earlier versions, spends a window's
 * budget over the whole window, so a batch of a few windows' worth took about 1.6 times that
 * floor.
 *
 * Bursts stay bounded when the platform disagrees (another process spends the same budget):
 * at most the concurrency cap is in flight when the refusals start, and five in a row pause
 * the operation until `Retry-After` (adaptive-rate.ts), so a spent window meets one burst of
 * refusals, not a storm.
 *
 * Nothing is lost to a stall: the count only looks back, so after the event loop was held up
 * the requests it could not send are still allowed, and go as soon as it runs again (as many as
 * the window still allows, however long the stall was).
 *
 * Why no npm rate limiter: none counts "in flight, or answered within the last window".
 * `limiter` offers a token bucket that reads the global clock (`performance.now()`, so the
 * bound could not be proved on a simulated clock) and a count of fixed intervals, which is what
 * the platform does, not what a client that does not know the platform's window starts may do;
 * `p-throttle`'s strict mode and `rate-limiter-flexible` count when a call started, which lets a
 * request waiting on the wire meet the next window's.
 */
export class SendBudget {
  private shape: BudgetShape;
  /** When each counted request's answer was noticed, oldest first, from `head` on. */
  private answered: number[] = [];
  private head = 0;
  private sending = 0;

  constructor(perWindow: number, windowMs: number) {
    this.shape = budgetShape(perWindow, windowMs);
  }

  /** The shape in force (for tests and diagnostics). */
  get current(): BudgetShape {
    return this.shape;
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.sending;
  }

  /** Requests that count now: in flight, or answered within the last hold. */
  counted(now: number): number {
    this.forget(now);
    return this.sending + this.answered.length - this.head;
  }

  /**
   * A new limit per window (the adaptive rate moved, or the dynamic rule). Requests that count
   * keep counting, so a lower limit holds sending back until enough of them age out.
   */
  setLimit(perWindow: number): void {
    this.shape = budgetShape(perWindow, this.shape.windowMs);
  }

  /**
   * How long until a request may be sent: 0 now, a time in ms, or `Infinity` when only an
   * answer can make room (every counted request is still in flight).
   */
  waitMs(now: number): number {
    const over = this.counted(now) - this.shape.cap + 1;
    if (over <= 0) return 0;
    // The `over` oldest answers must leave the count; in-flight requests leave later still.
    const index = this.head + over - 1;
    if (index >= this.answered.length) return Number.POSITIVE_INFINITY;
    return Math.max(0, this.answered[index]! + this.shape.holdMs - now);
  }

  /** Takes a request's place if one is free now (`waitMs(now) === 0`); true when taken. */
  trySend(now: number): boolean {
    if (this.waitMs(now) > 0) return false;
    this.sending++;
    return true;
  }

  /**
   * A sent request was answered (or failed). `counted`: the platform may have counted it (any
   * answer but a 429, or no answer at all); a refused request stops counting now, so stray
   * refusals cost no pace.
   */
  onAnswer(now: number, counted: boolean): void {
    if (this.sending > 0) this.sending--;
    if (!counted) return;
    // Kept in order even if a caller's clock stood still or went back.
    const last = this.answered.length > this.head ? this.answered[this.answered.length - 1]! : now;
    this.answered.push(Math.max(now, last));
  }

  /** Drops the answers that left the count (noticed at or before `now - holdMs`). */
  private forget(now: number): void {
    const edge = now - this.shape.holdMs;
    const list = this.answered;
    let head = this.head;
    while (head < list.length && list[head]! <= edge) head++;
    if (head > 1024 && head * 2 > list.length) {
      this.answered = list.slice(head);
      head = 0;
    }
    this.head = head;
  }
}

/** The numbers a {@link SendBudget} paces by for one limit. */
export interface BudgetShape {
  /** Most requests that count at once (see {@link SendBudget}): the limit, whole, at least 1. */
  cap: number;
  /** The platform's window, in ms. */
  windowMs: number;
  /** How long an answered request keeps counting after its answer: the window and {@link HOLD_MARGIN} of it. */
  holdMs: number;
}

/**
 * Share of a window an answered request counts beyond it. It covers a platform whose window
 * counts both its edges, and a platform clock slower than the client's by less than 1% (the
 * bound needs `holdMs` of ours to outlast a window of the platform's). It costs nothing at the
 * start of a batch and about 1% of the rate after it.
 */
export const HOLD_MARGIN = 0.01;

/** The shape of the budget for a limit of `perWindow` requests per `windowMs`. */
export function budgetShape(perWindow: number, windowMs: number): BudgetShape {
  return { cap: Math.max(1, Math.floor(perWindow)), windowMs, holdMs: windowMs * (1 + HOLD_MARGIN) };
}

/**
 * How many requests of one operation may be sent, and when: pure logic (no timers; the time is
 * passed in, any monotonic clock in ms), so the bound below has a property test over simulated
 * time (test/unit/sdk/send-budget.test.ts).
 *
 * **The bound: a sliding count.** The platform counts the requests that reach it in fixed
 * windows whose start this client does not know, so every stretch of one window length,
 * wherever it falls, must hold at most the limit. A request reaches the platform at some moment
 * between its sending and its answer. So a request counts from its sending until one window
 * after its answer (or after the client noticed its answer, which is later still): a new request
 * may go only while fewer than {@link budgetShape}'s `cap` count. Two requests that reached the
 * platform less than a window apart then always counted together when the later one was sent,
 * so no stretch of one window ever holds more than `cap`, whatever the latency and however late
 * the event loop ran. A request the platform refused (429) is not one of its limit's ("requests
 * above the effective limit receive 429", spec) and stops counting at its answer.
 *
 * Nothing is lost to a stall: the count only looks back, so after the event loop was held up the
 * requests it could not send are still allowed, and go as soon as it runs again.
 *
 * **The pace: a token bucket** (rate `cap` per window, holding up to half a window's worth),
 * so requests leave evenly rather than a window's worth at once, while a stall of up to half a
 * window is made up at once when the loop runs again (the bucket filled meanwhile). Of a longer
 * stall, half a window's worth is made up and the rest of its budget is lost. Half, not all: a
 * stall of up to 5 s is made up (the longest event-loop delay the batch benchmark met on a busy
 * machine was under 1 s), and what goes out at once after it stays half a window's worth.
 *
 * Why not the npm `limiter` of the first version: its token bucket reads the global clock
 * (`performance.now()`), so it cannot be driven by the simulated clock this bound is proved
 * on, and a bucket is all it offers (its `RateLimiter` adds a count of fixed intervals, which is
 * what the platform does, not what a client that does not know the platform's window starts
 * may do). No well-kept rate limiter counts "in flight, or answered within the last window":
 * `p-throttle`'s strict mode and `rate-limiter-flexible` count when a call started, which lets
 * a request waiting on the wire meet the next window's. The bucket left here is two lines of
 * arithmetic.
 */
export class SendBudget {
  private shape: BudgetShape;
  /** When each counted request's answer was noticed, oldest first, from `head` on. */
  private answered: number[] = [];
  private head = 0;
  private sending = 0;
  private tokens = 1;
  private filledAt: number;

  constructor(perWindow: number, windowMs: number, now: number) {
    this.shape = budgetShape(perWindow, windowMs);
    this.filledAt = now;
  }

  /** The shape in force (for tests and diagnostics). */
  get current(): BudgetShape {
    return this.shape;
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.sending;
  }

  /** Requests that count now: in flight, or answered within the last window. */
  counted(now: number): number {
    this.forget(now);
    return this.sending + this.answered.length - this.head;
  }

  /** Tokens in the bucket now (for tests and diagnostics). */
  tokensAt(now: number): number {
    this.fill(now);
    return this.tokens;
  }

  /**
   * A new limit per window (the adaptive rate moved, or the dynamic rule). Tokens gathered are
   * kept, never more than the new bucket holds; requests that count keep counting, so a lower
   * limit holds sending back until enough of them age out.
   */
  setLimit(perWindow: number, now: number): void {
    this.fill(now);
    this.shape = budgetShape(perWindow, this.shape.windowMs);
    this.tokens = Math.min(this.tokens, this.shape.size);
  }

  /**
   * How long until a request may be sent: 0 now, a time in ms, or `Infinity` when only an
   * answer can make room (every counted request is still in flight).
   */
  waitMs(now: number): number {
    const over = this.counted(now) - this.shape.cap + 1;
    let wait = 0;
    if (over > 0) {
      // The `over` oldest answers must leave the window; in-flight requests leave later still.
      const index = this.head + over - 1;
      if (index >= this.answered.length) return Number.POSITIVE_INFINITY;
      wait = this.answered[index]! + this.shape.windowMs - now;
    }
    this.fill(now);
    if (this.tokens < 1) wait = Math.max(wait, (1 - this.tokens) / this.shape.perMs);
    return Math.max(0, wait);
  }

  /** Takes a request's place if one is free now (`waitMs(now) === 0`); true when taken. */
  trySend(now: number): boolean {
    if (this.waitMs(now) > 0) return false;
    this.tokens -= 1;
    this.sending++;
    return true;
  }

  /**
   * A sent request was answered (or failed). `counted`: the platform may have counted it (any
   * answer but a 429, or no answer at all); a refused request also gets its token back, so
   * stray refusals cost no pace.
   */
  onAnswer(now: number, counted: boolean): void {
    if (this.sending > 0) this.sending--;
    if (counted) {
      // Kept in order even if a caller's clock stood still or went back.
      const last = this.answered.length > this.head ? this.answered[this.answered.length - 1]! : now;
      this.answered.push(Math.max(now, last));
    } else {
      this.fill(now);
      this.tokens = Math.min(this.shape.size, this.tokens + 1);
    }
  }

  private fill(now: number): void {
    const elapsed = Math.max(0, now - this.filledAt);
    this.filledAt = Math.max(this.filledAt, now);
    this.tokens = Math.min(this.shape.size, this.tokens + elapsed * this.shape.perMs);
  }

  /** Drops the answers that left the window (answered at or before `now - window`). */
  private forget(now: number): void {
    const edge = now - this.shape.windowMs;
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
  /** Most requests that count at once (see {@link SendBudget}): {@link CAP_SHARE} of the limit, at least 1. */
  cap: number;
  /** The window, in ms. */
  windowMs: number;
  /** The bucket's size: {@link BURST_SHARE} of `cap`, at least 1. */
  size: number;
  /** The bucket's rate, tokens per ms: `cap` per window. */
  perMs: number;
}

/** Share of the stated limit the sliding count allows: 1% left for a platform that counts a little differently. */
export const CAP_SHARE = 0.99;
/** Share of a window's requests the bucket holds: a stall this long is made up at once. */
export const BURST_SHARE = 0.5;

/** The shape of the budget for a limit of `perWindow` requests per `windowMs`. */
export function budgetShape(perWindow: number, windowMs: number): BudgetShape {
  const cap = Math.max(1, Math.floor(perWindow * CAP_SHARE));
  return { cap, windowMs, size: Math.max(1, cap * BURST_SHARE), perMs: cap / windowMs };
}

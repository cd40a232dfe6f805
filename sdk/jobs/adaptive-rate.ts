/**
 * How fast one operation of one endpoint may go, given what the platform answered: pure logic
 * (no timers, the time is passed in), so the rules below have table tests.
 *
 * The platform states a limit per window (docs/platform.md "Rate limits"), but another process on the same
 * account spends the same budget, and a 429 may also be a plain fault. The rules tell the two
 * apart by how refusals cluster:
 *
 * - A window spent by someone else refuses everything until it ends: after
 *   {@link PAUSE_AFTER_REFUSALS} refusals in a row the operation pauses until the `Retry-After`
 *   the platform gave (a tenth of a window when it gave none). Isolated 429s (10% injected at
 *   random, say) make five in a row about once per 100,000 requests, so they pause nothing.
 * - A budget shared for good refuses a steady share of requests: when
 *   {@link CUT_SHARE} or more of the last {@link EVIDENCE} answers were refusals, the rate is
 *   cut by {@link CUT_FACTOR}, at most once per tenth of a window (one exhausted window's burst
 *   of refusals is one signal, not twenty).
 * - While requests are accepted the rate grows back towards the stated limit by
 *   {@link GROWTH_PER_WINDOW} of it per window of time (additive increase).
 */
export class AdaptiveRate {
  private rate: number;
  private resumeAt = 0;
  private consecutiveRefusals = 0;
  private lastCut = Number.NEGATIVE_INFINITY;
  private lastGrowth: number;
  /** The last {@link EVIDENCE} answers, true for a refusal, as a ring. */
  private readonly recent: boolean[] = [];
  private recentNext = 0;
  private recentRefused = 0;

  constructor(
    private stated: number,
    /** Length of the platform's window, in ms. */
    readonly windowMs: number,
    now: number,
  ) {
    this.rate = stated;
    this.lastGrowth = now;
  }

  /** Requests per window allowed now: the stated limit, or less after refusals. */
  get limit(): number {
    return this.rate;
  }

  /** The limit the platform states (its table, or the dynamic rule). */
  get statedLimit(): number {
    return this.stated;
  }

  /** The moment (same clock as `now`) before which nothing is to be sent; 0 when not paused. */
  get pausedUntil(): number {
    return this.resumeAt;
  }

  /**
   * A new stated limit (the dynamic rule moved with the running workers). A higher one is
   * reached by growth, not at once, so a wrong `requests_per_worker` costs little; a lower one
   * applies at once.
   */
  setStatedLimit(limit: number, now: number): void {
    const wasAtLimit = this.rate >= this.stated;
    this.stated = limit;
    if (this.rate > limit) this.rate = limit;
    else if (wasAtLimit) this.lastGrowth = now;
  }

  /** The platform accepted a request (any answer but a refusal). */
  onAccepted(now: number): void {
    this.consecutiveRefusals = 0;
    this.remember(false);
    const elapsed = Math.min(Math.max(0, now - this.lastGrowth), this.windowMs);
    this.lastGrowth = now;
    if (this.rate < this.stated) {
      this.rate = Math.min(this.stated, this.rate + (this.stated * GROWTH_PER_WINDOW * elapsed) / this.windowMs);
    }
  }

  /** The platform refused a request with 429; `retryAfterMs` is its hint, when it gave one. */
  onRefused(now: number, retryAfterMs: number | undefined): void {
    this.remember(true);
    this.lastGrowth = now;
    if (++this.consecutiveRefusals >= PAUSE_AFTER_REFUSALS) {
      const pause = retryAfterMs ?? this.windowMs / 10;
      this.resumeAt = Math.max(this.resumeAt, now + Math.min(pause, this.windowMs));
      this.consecutiveRefusals = 0;
    }
    const full = this.recent.length === EVIDENCE;
    if (full && this.recentRefused >= CUT_SHARE * EVIDENCE && now - this.lastCut >= this.windowMs / 10) {
      this.rate = Math.max(this.stated * FLOOR_SHARE, this.rate * CUT_FACTOR);
      this.lastCut = now;
      // Judge the next cut on answers to the new rate only.
      this.recent.length = 0;
      this.recentNext = 0;
      this.recentRefused = 0;
    }
  }

  private remember(refused: boolean): void {
    if (this.recent.length < EVIDENCE) this.recent.push(refused);
    else {
      if (this.recent[this.recentNext]) this.recentRefused--;
      this.recent[this.recentNext] = refused;
      this.recentNext = (this.recentNext + 1) % EVIDENCE;
    }
    if (refused) this.recentRefused++;
  }
}

/** Refusals in a row that mean "the window is spent": pause until `Retry-After`. */
export const PAUSE_AFTER_REFUSALS = 5;
/** How many recent answers the share of refusals is taken over. */
export const EVIDENCE = 50;
/** Share of refusals among the recent answers that cuts the rate. */
export const CUT_SHARE = 0.3;
/** What a cut multiplies the rate by. */
export const CUT_FACTOR = 0.75;
/** The rate never falls below this share of the stated limit, so it keeps probing. */
export const FLOOR_SHARE = 0.05;
/** Share of the stated limit regained per window of accepted requests. */
export const GROWTH_PER_WINDOW = 0.1;

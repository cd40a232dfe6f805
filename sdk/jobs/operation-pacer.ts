import { performance } from "node:perf_hooks";
import { sleepUnlessAborted } from "../polling";
import { AdaptiveRate } from "./adaptive-rate";
import { SendBudget } from "./send-budget";
import { gridDelay } from "./wake-grid";

/** The limit of one operation as the pacer applies it. */
export interface PacerLimit {
  /** Requests per window. */
  perWindow: number;
  /** Window length in ms. */
  windowMs: number;
  /** Requests in flight at once; `undefined` for no cap. */
  concurrent: number | undefined;
}

/** What an answer said about the limit. */
export type PacedAnswer = { refused: false } | { refused: true; retryAfterMs: number | undefined };

/** The pacer's clock, in ms: monotonic, so a change of the system time moves no window. */
const monotonic = () => performance.now();

/**
 * Paces one operation of one endpoint (say `/run` of endpoint X) within the platform's limit:
 * a {@link SendBudget} (a sliding count of the last window's requests) for the rate, a count of
 * requests in flight for the concurrency cap, and {@link AdaptiveRate} for what 429s teach. An
 * idle operation hands out its whole window at once, as fast as the concurrency cap lets it.
 * Callers take a permit with {@link acquire} before each request and hand it back with
 * {@link release}, saying whether the platform refused it. Permits are handed out in the order
 * they were asked for.
 */
export class OperationPacer {
  private readonly budget: SendBudget;
  private readonly adaptive: AdaptiveRate;
  private turn: Promise<unknown> = Promise.resolve();
  /** The limit the budget was last shaped for. */
  private budgetLimit: number;
  private answered: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Requests sent and refusals met, for tests and benchmarks. */
  readonly counts = { sent: 0, refused: 0 };

  constructor(
    /** Name for messages, e.g. `run`. */
    readonly operation: string,
    private readonly base: PacerLimit,
    /** The clock, in ms; any monotonic one (tests pass a simulated one). */
    private readonly now: () => number = monotonic,
    /** How the pacer waits `ms`: resolves true, or false once `signal` aborts (tests pass a simulated one). */
    private readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<boolean> = sleepOnGrid,
  ) {
    this.adaptive = new AdaptiveRate(base.perWindow, base.windowMs, now());
    this.budget = new SendBudget(base.perWindow, base.windowMs);
    this.budgetLimit = base.perWindow;
  }

  /** Requests per window the pacer allows now (the stated limit, or less after refusals). */
  get currentLimit(): number {
    return this.adaptive.limit;
  }

  /**
   * The dynamic rule: the stated limit is the higher of the base limit and running workers x
   * `requests_per_worker` (docs/platform.md "Rate limits").
   */
  setStatedLimit(limit: number): void {
    this.adaptive.setStatedLimit(Math.max(this.base.perWindow, limit), this.now());
    this.reshape();
  }

  /**
   * Waits for a permit: not paused, under the concurrency cap, room in the budget. Resolves
   * true with the permit taken, or false (nothing taken) once `signal` aborts.
   */
  acquire(signal?: AbortSignal): Promise<boolean> {
    const mine = this.turn.then(() => this.waitForPermit(signal));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  /** Hands back a permit after the request's answer (or its failure). */
  release(answer: PacedAnswer): void {
    const now = this.now();
    // A refused request was not one of the limit's (documented: "requests above the effective limit
    // receive 429"); were the window spent, the refusals in a row that follow pause the
    // operation (adaptive-rate.ts), so this never becomes a storm.
    this.budget.onAnswer(now, !answer.refused);
    if (answer.refused) {
      this.counts.refused++;
      this.adaptive.onRefused(now, answer.retryAfterMs);
    } else this.adaptive.onAccepted(now);
    this.reshape();
    const waiting = this.answered;
    this.answered = undefined;
    waiting?.resolve();
  }

  /** Requests that count against the window now (in flight, or answered within it). */
  get countedNow(): number {
    return this.budget.counted(this.now());
  }

  private async waitForPermit(signal: AbortSignal | undefined): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      const now = this.now();
      const paused = this.adaptive.pausedUntil - now;
      if (paused > 0) {
        if (!(await this.sleep(paused, signal))) return false;
        continue;
      }
      const capped = this.base.concurrent !== undefined && this.budget.inFlight >= this.base.concurrent;
      const wait = capped ? Number.POSITIVE_INFINITY : this.budget.waitMs(now);
      if (wait === 0 && this.budget.trySend(now)) {
        this.counts.sent++;
        return true;
      }
      let woken: boolean;
      if (wait === Number.POSITIVE_INFINITY) {
        // Only an answer makes room (a slot, or a counted request starting to age out).
        this.answered ??= withResolvers();
        woken = await untilOrAborted(this.answered.promise, signal);
      } else woken = await this.sleep(Math.max(1, wait), signal);
      if (!woken) return false;
    }
  }

  /** Applies the adaptive limit to the budget. */
  private reshape(): void {
    if (this.adaptive.limit !== this.budgetLimit) {
      this.budgetLimit = this.adaptive.limit;
      this.budget.setLimit(this.adaptive.limit);
    }
  }
}

/** Waits until the first point of the wake grid at least `ms` away (wake-grid.ts); false once `signal` aborts. */
function sleepOnGrid(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return sleepUnlessAborted(gridDelay(ms), signal);
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves true when `promise` settles, false if `signal` aborts first. */
function untilOrAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return promise.then(() => true);
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    });
  });
}

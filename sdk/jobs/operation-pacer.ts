import { TokenBucket } from "limiter";
import { sleepUnlessAborted } from "../polling";
import { AdaptiveRate } from "./adaptive-rate";

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

/**
 * The token bucket's shape for a limit of `perWindow` requests per window.
 *
 * The platform counts requests in windows whose start this client does not know, so the bucket
 * must keep every stretch of one window length at or under the limit, wherever it falls: a
 * token bucket lets through at most `size + rate x window` in any such stretch. So the size is
 * small (1% of the limit, at least one request) and the rate fills the rest, less 1% for the
 * time requests spend on the wire (a request taken at the end of one stretch may arrive in the
 * next). For 1000 per 10 s: bursts of 10, 98.0 per second, at most 990 in any 10 s.
 */
export function bucketShape(perWindow: number): { size: number; perWindow: number } {
  const size = Math.max(1, Math.floor(perWindow / 100));
  // A limit of one per window: whole requests in a stretch are at most floor(1 + 0.5) = 1. (A
  // rate of 0 would not do: the library reads it as "always full".)
  const rate = perWindow - size > 0 ? (perWindow - size) * 0.99 : 0.5;
  return { size, perWindow: rate };
}

/**
 * Paces one operation of one endpoint (say `/run` of endpoint X) within the platform's limit:
 * a token bucket (npm `limiter`) for the rate, a count of requests in flight for the
 * concurrency cap, and {@link AdaptiveRate} for what 429s teach. Callers take a permit with
 * {@link acquire} before each request and hand it back with {@link release}, saying whether
 * the platform refused it. Permits are handed out in the order they were asked for.
 */
export class OperationPacer {
  private readonly bucket: TokenBucket;
  private readonly adaptive: AdaptiveRate;
  private inFlight = 0;
  private turn: Promise<unknown> = Promise.resolve();
  private slotFreed: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Requests sent and refusals met, for tests and benchmarks. */
  readonly counts = { sent: 0, refused: 0 };

  constructor(
    /** Name for messages, e.g. `run`. */
    readonly operation: string,
    private readonly base: PacerLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.adaptive = new AdaptiveRate(base.perWindow, base.windowMs, now());
    const shape = bucketShape(base.perWindow);
    this.bucket = new TokenBucket({
      bucketSize: shape.size,
      tokensPerInterval: shape.perWindow,
      interval: base.windowMs,
    });
  }

  /** Requests per window the pacer allows now (the stated limit, or less after refusals). */
  get currentLimit(): number {
    return this.adaptive.limit;
  }

  /**
   * The dynamic rule: the stated limit is the higher of the base limit and running workers x
   * `requests_per_worker` (spec "Rate limits").
   */
  setStatedLimit(limit: number): void {
    this.adaptive.setStatedLimit(Math.max(this.base.perWindow, limit), this.now());
    this.reshape();
  }

  /**
   * Waits for a permit: not paused, under the concurrency cap, a token in the bucket. Resolves
   * true with the permit taken, or false (nothing taken) once `signal` aborts.
   */
  acquire(signal?: AbortSignal): Promise<boolean> {
    const mine = this.turn.then(() => this.waitForPermit(signal));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  /** Hands back a permit after the request's answer (or its failure). */
  release(answer: PacedAnswer): void {
    this.inFlight--;
    const freed = this.slotFreed;
    this.slotFreed = undefined;
    freed?.resolve();
    const now = this.now();
    if (answer.refused) {
      this.counts.refused++;
      this.adaptive.onRefused(now, answer.retryAfterMs);
      // The token goes back: "requests above the effective limit receive 429" (spec), so a
      // refused request is not one of the limit's. Were the window spent, the refusals in a row
      // that follow pause the operation (adaptive-rate.ts), so this never becomes a storm.
      this.bucket.drip();
      this.bucket.content = Math.min(this.bucket.bucketSize, this.bucket.content + 1);
    } else this.adaptive.onAccepted(now);
    this.reshape();
  }

  /** Tokens in the bucket now (for tests and diagnostics). */
  get availableTokens(): number {
    this.bucket.drip();
    return this.bucket.content;
  }

  private async waitForPermit(signal: AbortSignal | undefined): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      const paused = this.adaptive.pausedUntil - this.now();
      if (paused > 0) {
        if (!(await sleepUnlessAborted(paused, signal))) return false;
        continue;
      }
      if (this.base.concurrent !== undefined && this.inFlight >= this.base.concurrent) {
        this.slotFreed ??= withResolvers();
        if (!(await untilOrAborted(this.slotFreed.promise, signal))) return false;
        continue;
      }
      if (this.bucket.tryRemoveTokens(1)) {
        this.inFlight++;
        this.counts.sent++;
        return true;
      }
      if (!(await sleepUnlessAborted(Math.max(1, this.bucket.getWaitTime(1)), signal))) return false;
    }
  }

  /** Applies the adaptive limit to the bucket (its fields are the library's public settings). */
  private reshape(): void {
    const shape = bucketShape(this.adaptive.limit);
    if (shape.perWindow === this.bucket.tokensPerInterval) return;
    // Tokens gathered at the old rate are kept, never more than the new bucket holds.
    this.bucket.drip();
    this.bucket.bucketSize = shape.size;
    this.bucket.tokensPerInterval = shape.perWindow;
    this.bucket.content = Math.min(this.bucket.content, shape.size);
  }
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

import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { AbortError, QuotaExhaustedError, type RequestInfo } from "../errors";
import { headerValue, type ResponseHeaders } from "../headers";
import { parseRetryAfter } from "../retry-policy";
import { type QuotaPolicyWindow, parseRateLimit, parseRateLimitPolicy } from "./rate-limit-headers";
import { QuotaTracker, type SendTicket } from "./quota-tracker";

/** The pacer's clock and timer: the real ones by default; tests pass a manual one. */
export interface PacerClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  schedule(ms: number, fn: () => void): () => void;
}

/** `performance.now()` and `setTimeout`. */
export const REAL_PACER_CLOCK: PacerClock = {
  now: () => performance.now(),
  schedule(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** A request waiting for its turn. */
interface Waiter {
  request: RequestInfo;
  /** Pacer-clock time after which the request's retry budget is spent. */
  deadline: number;
  resolve(ticket: SendTicket): void;
  reject(error: Error): void;
  /** Drops the abort listener. */
  detach(): void;
}

/**
 * Paces one account's management requests on API v2 (the rules: `quota-tracker.ts`). Requests
 * call `acquire` before sending and `answered` (or `failed`) after; a request the tracker holds
 * waits in a first-come queue, woken by answers and by a timer at the time it waits for. A wait
 * that would outlast the request's retry budget fails at once with a `QuotaExhaustedError`; an
 * aborted wait with an `AbortError`. Nothing here sees the API key.
 */
export class ManagementPacer {
  private readonly tracker = new QuotaTracker();
  private readonly queue: Waiter[] = [];
  private cancelTimer: (() => void) | undefined;
  private timerAt = Infinity;
  /** The last `RateLimit-Policy` text and what it said (the same on every answer: parsed once). */
  private policy: { text: string; windows: QuotaPolicyWindow[] } = { text: "", windows: [] };

  constructor(private readonly clock: PacerClock = REAL_PACER_CLOCK) {}

  /** Requests sent and not answered yet. */
  get inFlight(): number {
    return this.tracker.inFlight;
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * The average gap (ms) between requests that the account's shortest quota window sustains (its
   * length over its quota, e.g. 1000 for 60 a minute), from the last `RateLimit-Policy` answered;
   * undefined before one, or for an account without limits. Background polling paces itself by it.
   */
  get sustainedGapMs(): number | undefined {
    const shortest = [...this.policy.windows].sort((a, b) => a.windowSeconds - b.windowSeconds)[0];
    return shortest && shortest.quota > 0 ? (shortest.windowSeconds * 1000) / shortest.quota : undefined;
  }

  /**
   * Resolves (at once when nothing holds it) with the ticket of a request about to be sent.
   * `budgetLeftMs` bounds the wait.
   */
  acquire(request: RequestInfo, budgetLeftMs: number, signal?: AbortSignal): SendTicket | Promise<SendTicket> {
    if (signal?.aborted) return Promise.reject(new AbortError(request));
    const now = this.clock.now();
    const deadline = now + budgetLeftMs;
    if (this.queue.length === 0) {
      const decision = this.tracker.decide(now);
      if (decision.send) return this.tracker.sent(now);
      if (decision.until !== undefined && decision.until > deadline) {
        const { window, quota, until } = decision;
        return Promise.reject(new QuotaExhaustedError(request, window, quota, until - now, budgetLeftMs));
      }
    }
    return new Promise<SendTicket>((resolve, reject) => {
      const waiter: Waiter = { request, deadline, resolve, reject, detach: () => undefined };
      if (signal) {
        const onAbort = () => {
          this.remove(waiter);
          reject(new AbortError(request));
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener("abort", onAbort);
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Learns from a request's answer (its rate-limit headers, a 429's `Retry-After`) and lets waiters go. */
  answered(ticket: SendTicket, status: number, headers: ResponseHeaders): void {
    const policyText = headerValue(headers["ratelimit-policy"], "list") ?? "";
    if (policyText !== this.policy.text) this.policy = { text: policyText, windows: parseRateLimitPolicy(policyText) };
    this.tracker.answer(ticket, {
      receivedAt: this.clock.now(),
      status,
      readings: parseRateLimit(headers.ratelimit),
      policy: this.policy.windows,
      retryAfterMs: status === 429 ? parseRetryAfter(headers["retry-after"]) : undefined,
    });
    this.pump();
  }

  /** A request that got no answer: no longer in flight. */
  failed(ticket: SendTicket): void {
    this.tracker.failed(ticket);
    this.pump();
  }

  /** Lets the head of the queue go while the tracker allows; otherwise sets the timer, or fails waits beyond their budget. */
  private pump(): void {
    const now = this.clock.now();
    while (this.queue.length > 0) {
      const decision = this.tracker.decide(now);
      if (decision.send) {
        const waiter = this.queue.shift()!;
        waiter.detach();
        waiter.resolve(this.tracker.sent(now));
        continue;
      }
      if (decision.until === undefined) return; // an answer will call pump again
      const { until, window, quota } = decision;
      for (const waiter of [...this.queue]) {
        if (until <= waiter.deadline) continue;
        this.remove(waiter);
        waiter.reject(new QuotaExhaustedError(waiter.request, window, quota, until - now, waiter.deadline - now));
      }
      if (this.queue.length > 0) this.wakeAt(until, now);
      return;
    }
  }

  private wakeAt(at: number, now: number): void {
    if (this.cancelTimer && this.timerAt <= at) return;
    this.cancelTimer?.();
    this.timerAt = at;
    this.cancelTimer = this.clock.schedule(Math.max(0, Math.ceil(at - now)), () => {
      this.cancelTimer = undefined;
      this.timerAt = Infinity;
      this.pump();
    });
  }

  private remove(waiter: Waiter): void {
    const i = this.queue.indexOf(waiter);
    if (i >= 0) this.queue.splice(i, 1);
    waiter.detach();
    if (this.queue.length === 0) {
      this.cancelTimer?.();
      this.cancelTimer = undefined;
      this.timerAt = Infinity;
    }
  }
}

/** One pacer per account and management base URL in this process, so every client of an account shares it. */
const pacers = new Map<string, ManagementPacer>();

/**
 * The process's pacer of an account (API key) on a management base URL. The map is keyed by a
 * SHA-256 digest of the key, never the key itself.
 */
export function sharedPacer(apiUrl: string, apiKey: string): ManagementPacer {
  const id = `${apiUrl}\n${createHash("sha256").update(apiKey).digest("hex")}`;
  let pacer = pacers.get(id);
  if (!pacer) {
    pacer = new ManagementPacer();
    pacers.set(id, pacer);
  }
  return pacer;
}

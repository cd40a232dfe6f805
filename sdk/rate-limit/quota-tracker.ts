import type { QuotaPolicyWindow, QuotaReading } from "./rate-limit-headers";

/**
 * What a client knows of its account's rate-limit windows, and whether a request may go now.
 * Pure: times are the caller's clock readings in ms (any monotonic clock), so table tests drive
 * it with made-up times. `management-pacer.ts` runs it on the real clock.
 *
 * The rules (docs/client.md, "Rate limits on v2"):
 * - Each window's count comes from the platform (`r` of `RateLimit`), less the requests in flight:
 *   they may not be counted in it yet. A window with nothing left holds every request until it
 *   ends.
 * - A window's end is known as the earliest instant it is surely over. An answer with `t` seconds
 *   to go, received at time T, proves the window the request was counted in ends by T + t s (`t`
 *   is rounded up, so the end is at most t s after the server answered, and the server answered
 *   before T). Every answer bounds it again and the smallest bound wins: an answer the server
 *   sent just after `t` dropped by one pins the end within the round trip, instead of the whole
 *   second that one answer leaves open.
 * - Windows repeat: once one is over, the next ends a window's length (`w` of the policy) later,
 *   with the whole quota (`q`) again, so what was learnt of one end carries to every later one.
 * - A window may end sooner than its bound says. Within one window every admitted request leaves
 *   fewer requests than the one before it, so an answer showing at least as many left as the
 *   lowest count known when the request was sent proves a new window began before that answer
 *   (or, for long windows, a `t` that only a later window can have). The client then moves to
 *   that window at once: its count is the answer's, and its end is bounded anew. This also pins
 *   the end of windows too short for `t` to tell anything (a one-second window always says
 *   `t=1`).
 * - An answer of a request sent before a window rolled over and received after it may prove, by
 *   the rule above, that it was counted in the new window: its count is then the new window's.
 *   Otherwise it still counts against the new window, without its count: a slot lost at worst,
 *   never one too many (a request held up past a window's end, on a busy machine, is counted in
 *   the next one).
 * - Before the first answer, one request at a time (it brings the policy); an account without
 *   rate-limit headers is not paced at all.
 * - `Retry-After` on a 429 holds every request for that long.
 */

/** One window of the account's rate limit as the client knows it. */
interface WindowState {
  name: string;
  /** `q` of the policy, when known. */
  quota: number | undefined;
  /** `w` of the policy in ms, when known. */
  lengthMs: number | undefined;
  /** The earliest time the current window is surely over; undefined when not known. */
  endsBy: number | undefined;
  /** Requests left in the current window (the lowest `r` answered for it); undefined when no answer counted one yet. */
  remaining: number | undefined;
  /** The generation the window last rolled over at: answers of requests sent before it are not used. */
  since: number;
}

/** A request sent: when, in which generation of the windows, and the lowest count of each window known then. */
export interface SendTicket {
  sentAt: number;
  generation: number;
  /** Each window's count (`remaining`) when the request was sent, if known. */
  floors: ReadonlyMap<string, number>;
}

/** What came back for a request. */
export interface QuotaAnswer {
  receivedAt: number;
  status: number;
  readings: readonly QuotaReading[];
  policy: readonly QuotaPolicyWindow[];
  /** `Retry-After` in ms, when the answer had one. */
  retryAfterMs: number | undefined;
}

/**
 * Send now, or wait: until a time (the end of the spent `window`, or, with `window` undefined, a
 * 429's `Retry-After`), or, with `until` undefined, for an answer to a request in flight.
 */
export type PaceDecision =
  | { send: true }
  | { send: false; until: number; window: string | undefined; quota: number | undefined }
  | { send: false; until: undefined };

type Wait = Exclude<PaceDecision, { send: true }>;
const SEND: PaceDecision = { send: true };
const AWAIT_ANSWER: Wait = { send: false, until: undefined };

/** The account's windows and the requests in flight. */
export class QuotaTracker {
  /** Requests sent and not answered yet. */
  inFlight = 0;
  private readonly windows = new Map<string, WindowState>();
  /** Bumped whenever a window rolls over. */
  private generation = 0;
  /** Whether any answer came back yet. */
  private answered = false;
  /** No request before this time (a 429's `Retry-After`). */
  private blockedUntil = -Infinity;

  /** Whether a request may go at `now`, or what it waits for. */
  decide(now: number): PaceDecision {
    if (now < this.blockedUntil) return { send: false, until: this.blockedUntil, window: undefined, quota: undefined };
    if (!this.answered) return this.inFlight === 0 ? SEND : AWAIT_ANSWER;
    let wait: Wait | undefined;
    for (const w of this.windows.values()) {
      this.roll(w, now);
      // A window the policy names but no answer counted yet: nothing to pace by.
      if (w.remaining === undefined) continue;
      if (w.remaining <= 0 && w.endsBy !== undefined) {
        // Spent: wait for the end of the window (the latest end, when several are spent).
        if (wait?.until === undefined || w.endsBy > wait.until) {
          wait = { send: false, until: w.endsBy, window: w.name, quota: w.quota };
        }
      } else if (w.remaining - this.inFlight <= 0) {
        // What is left may be taken by the requests in flight: their answers will tell.
        wait ??= AWAIT_ANSWER;
      }
    }
    return wait ?? SEND;
  }

  /** Records a request sent at `now` (after `decide` said so). */
  sent(now: number): SendTicket {
    this.inFlight++;
    const floors = new Map<string, number>();
    for (const w of this.windows.values()) if (w.remaining !== undefined) floors.set(w.name, w.remaining);
    return { sentAt: now, generation: this.generation, floors };
  }

  /** A request that got no answer (connection failure, timeout): it is no longer in flight. */
  failed(_ticket: SendTicket): void {
    this.inFlight--;
  }

  /** Learns from an answer: the policy, each window's count and end, `Retry-After` on a 429. */
  answer(ticket: SendTicket, answer: QuotaAnswer): void {
    this.inFlight--;
    this.answered = true;
    const { receivedAt } = answer;
    if (answer.status === 429 && answer.retryAfterMs !== undefined) {
      this.blockedUntil = Math.max(this.blockedUntil, receivedAt + answer.retryAfterMs);
    }
    for (const p of answer.policy) {
      const w = this.window(p.window);
      w.quota = p.quota;
      w.lengthMs = p.windowSeconds * 1000;
    }
    for (const reading of answer.readings) {
      const w = this.window(reading.window);
      this.roll(w, receivedAt);
      const { remaining, resetSeconds } = reading;
      // The window this request was counted in ends by then (the server answered before receivedAt)...
      const endsBy = receivedAt + resetSeconds * 1000;
      // ...and after this (it answered after the request was sent).
      const endsAfter = ticket.sentAt + (resetSeconds - 1) * 1000;
      const floor = ticket.floors.get(w.name);
      // A refused request is not counted, so two refusals in one window show the same count.
      const newerThanFloor = floor !== undefined && (answer.status === 429 ? remaining > floor : remaining >= floor);
      const sentThisWindow = ticket.generation >= w.since;
      if (
        w.endsBy === undefined ||
        (w.lengthMs !== undefined && endsAfter >= w.endsBy) ||
        (sentThisWindow && newerThanFloor)
      ) {
        // First news of the window, or proof the server has moved on to a later window than ours.
        w.endsBy = endsBy;
        w.remaining = remaining;
        w.since = ++this.generation;
      } else if (sentThisWindow || newerThanFloor) {
        // Counted in the current window (or a later one, whose end is later still).
        w.endsBy = Math.min(w.endsBy, endsBy);
        w.remaining = Math.min(w.remaining ?? remaining, remaining);
      } else if (answer.status !== 429) {
        // Sent before the window rolled over and answered after: counted in the old window or the
        // new one, and nothing says which. It counts against the new one: a request short, at
        // worst, instead of one too many.
        w.remaining = Math.max(0, (w.remaining ?? 1) - 1);
      }
    }
  }

  /** A snapshot of one window, for tests and diagnostics. */
  windowState(name: string): Readonly<Omit<WindowState, "since">> | undefined {
    const w = this.windows.get(name);
    return w && { name: w.name, quota: w.quota, lengthMs: w.lengthMs, endsBy: w.endsBy, remaining: w.remaining };
  }

  private window(name: string): WindowState {
    let w = this.windows.get(name);
    if (!w) {
      w = { name, quota: undefined, lengthMs: undefined, endsBy: undefined, remaining: undefined, since: 0 };
      this.windows.set(name, w);
    }
    return w;
  }

  /** Moves a window that is surely over by `now` to the one running now, refilled. */
  private roll(w: WindowState, now: number): void {
    if (w.endsBy === undefined || now < w.endsBy) return;
    if (w.lengthMs === undefined || w.quota === undefined) {
      // No policy to refill it from: at least one request is left in a new window, and its answer tells the rest.
      w.endsBy = undefined;
      w.remaining = 1;
    } else {
      w.endsBy += (Math.floor((now - w.endsBy) / w.lengthMs) + 1) * w.lengthMs;
      w.remaining = w.quota;
    }
    w.since = ++this.generation;
  }
}

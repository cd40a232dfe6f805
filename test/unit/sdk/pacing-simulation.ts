import { SendBudget } from "../../../sdk/jobs/send-budget";

/** A stretch of time in which the client's event loop runs nothing (ms, simulated clock). */
export interface Stall {
  at: number;
  ms: number;
}

/** A simulated client sending as fast as a {@link SendBudget} lets it, against a platform that answers. */
export interface Simulation {
  perWindow: number;
  windowMs: number;
  horizonMs: number;
  /** Sorted by `at`, not overlapping. */
  stalls: readonly Stall[];
  /** A request reaches the platform up to this long after it was sent, and its answer comes up to this long after that. */
  latencyMs: number;
  /** Share of requests the platform refuses (429, not counted against its limit). */
  refusedShare: number;
  /** Requests in flight at once; `undefined` for no cap. */
  concurrent?: number | undefined;
  /** New limits the client applies (the adaptive rate's cuts and regrowth), sorted by `at`. */
  limitChanges?: readonly { at: number; perWindow: number }[];
  random: () => number;
}

/** What a simulation saw. */
export interface SimulationResult {
  /** When each request left the client. */
  sent: number[];
  /** When each request the platform counted reached it, sorted. */
  counted: number[];
}

/**
 * Runs the client in simulated time: while its loop runs it notices the answers that came, then
 * sends while the budget allows, then sleeps until the budget's wait is over or the next answer
 * comes; during a stall it does nothing, and notices what came meanwhile when the stall ends.
 */
export function simulate(s: Simulation): SimulationResult {
  const budget = new SendBudget(s.perWindow, s.windowMs);
  const sent: number[] = [];
  const counted: number[] = [];
  /** Answers to come, sorted by time. */
  const pending: { at: number; counted: boolean }[] = [];
  const changes = [...(s.limitChanges ?? [])];
  let stall = 0;
  let t = 0;
  for (let steps = 0; steps < 10_000_000; steps++) {
    while (stall < s.stalls.length && s.stalls[stall]!.at + s.stalls[stall]!.ms <= t) stall++;
    const current = s.stalls[stall];
    if (current && current.at <= t) t = current.at + current.ms;
    if (t >= s.horizonMs) break;
    while (changes.length > 0 && changes[0]!.at <= t) budget.setLimit(changes.shift()!.perWindow);
    while (pending.length > 0 && pending[0]!.at <= t) budget.onAnswer(t, pending.shift()!.counted);
    const capped = () => s.concurrent !== undefined && budget.inFlight >= s.concurrent;
    while (!capped() && budget.trySend(t)) {
      sent.push(t);
      const arrives = t + s.random() * s.latencyMs;
      const answer = { at: arrives + s.random() * s.latencyMs, counted: s.random() >= s.refusedShare };
      if (answer.counted) counted.push(arrives);
      let i = pending.length;
      while (i > 0 && pending[i - 1]!.at > answer.at) i--;
      pending.splice(i, 0, answer);
    }
    let next = capped() ? Number.POSITIVE_INFINITY : t + Math.max(budget.waitMs(t), 0.01);
    if (pending.length > 0) next = Math.min(next, pending[0]!.at);
    if (changes.length > 0) next = Math.min(next, changes[0]!.at);
    if (!Number.isFinite(next)) break;
    t = Math.max(next, t + 0.001);
  }
  counted.sort((a, b) => a - b);
  return { sent, counted };
}

/** The most of `sortedTimes` in any stretch of `windowMs` (a half-open stretch, wherever it starts). */
export function busiestStretch(sortedTimes: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < sortedTimes.length; i++) {
    while (j < sortedTimes.length && sortedTimes[j]! < sortedTimes[i]! + windowMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

/**
 * The most of `sortedTimes` in any closed stretch of `windowMs` (both edges counted): what a
 * platform whose sliding window counts its edges sees. Every fixed window, at any phase, is a
 * half-open stretch, so this bounds those too.
 */
export function busiestClosedStretch(sortedTimes: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < sortedTimes.length; i++) {
    while (j < sortedTimes.length && sortedTimes[j]! <= sortedTimes[i]! + windowMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

/** The most of `times` in one fixed window `[phase + k * windowMs, phase + (k + 1) * windowMs)`. */
export function fixedWindowMost(times: readonly number[], windowMs: number, phase: number): number {
  const perWindow = new Map<number, number>();
  let most = 0;
  for (const time of times) {
    const k = Math.floor((time - phase) / windowMs);
    const n = (perWindow.get(k) ?? 0) + 1;
    perWindow.set(k, n);
    most = Math.max(most, n);
  }
  return most;
}

/** How many of `times` fall in [from, to). */
export function countBetween(times: readonly number[], from: number, to: number): number {
  let n = 0;
  for (const time of times) if (time >= from && time < to) n++;
  return n;
}

/** `/run` at the platform's limit, answered within a few ms, never refused, for 100 s. */
export const STEADY = {
  perWindow: 1000,
  windowMs: 10_000,
  horizonMs: 100_000,
  latencyMs: 3,
  refusedShare: 0,
};

/** Stalls drawn as shares of the horizon and the window, sorted and made disjoint. */
export function toStalls(drawn: readonly { at: number; ms: number }[], horizonMs: number, windowMs: number): Stall[] {
  const stalls = drawn.map((d) => ({ at: d.at * horizonMs, ms: d.ms * windowMs })).sort((a, b) => a.at - b.at);
  const disjoint: Stall[] = [];
  let free = 0;
  for (const s of stalls) {
    const at = Math.max(s.at, free);
    disjoint.push({ at, ms: s.ms });
    free = at + s.ms;
  }
  return disjoint;
}

/** Where the client's loop runs again: the end of the stall `t` falls in, or `t` itself. */
export function afterStall(stalls: readonly Stall[], t: number): number {
  for (const s of stalls) if (s.at <= t && t < s.at + s.ms) return s.at + s.ms;
  return t;
}

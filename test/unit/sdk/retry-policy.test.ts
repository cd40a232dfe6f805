import { describe, expect, it } from "vitest";
import {
  type AttemptOutcome,
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  retryDecision,
} from "../../../sdk/retry-policy";

const limits = { maxAttempts: 4, budgetMs: 10_000, baseDelayMs: 100, maxDelayMs: 2_000 };
const resp = (status: number, retryAfterMs?: number): AttemptOutcome => ({ kind: "response", status, retryAfterMs });

describe("isRetryable", () => {
  it.each<[string, AttemptOutcome, boolean, boolean]>([
    ["429 on a create", resp(429), false, true],
    ["429 on a read", resp(429), true, true],
    ["500 on a read", resp(500), true, true],
    ["500 on a create, which may have taken effect", resp(500), false, false],
    ["502 on a create (gateway: never reached the application)", resp(502), false, true],
    ["503 on a create", resp(503), false, true],
    ["504 on a create", resp(504), false, true],
    ["400", resp(400), true, false],
    ["401", resp(401), true, false],
    ["404", resp(404), true, false],
    ["413", resp(413), true, false],
    ["a connection that never opened, on a create", { kind: "connection", maybeDelivered: false }, false, true],
    ["a dropped connection on a create", { kind: "connection", maybeDelivered: true }, false, false],
    ["a dropped connection on a read", { kind: "connection", maybeDelivered: true }, true, true],
    ["a timeout on a create", { kind: "timeout" }, false, false],
    ["a timeout on a read", { kind: "timeout" }, true, true],
  ])("%s: idempotent=%s -> %s", (_name, outcome, idempotent, expected) => {
    expect(isRetryable(outcome, idempotent)).toBe(expected);
  });
});

describe("backoffDelay", () => {
  it.each([
    [1, 1, 100],
    [2, 1, 200],
    [3, 1, 400],
    [6, 1, 2_000],
    [10, 1, 2_000],
    [3, 0, 0],
    [3, 0.5, 200],
  ])("attempt %s with random %s waits %s ms (full jitter under a doubling cap)", (attempt, r, expected) => {
    expect(backoffDelay(attempt, limits, () => (r === 1 ? 0.99999999 : r))).toBe(r === 1 ? expected - 1 : expected);
  });
});

describe("retryDecision", () => {
  const state = (attempt: number, elapsedMs = 0, idempotent = true) => ({ attempt, elapsedMs, idempotent });

  it("retries a 500 on a read after a jittered delay", () => {
    expect(retryDecision(resp(500), state(1), limits, () => 0.5)).toEqual({ retry: true, delayMs: 50 });
  });

  it("honours Retry-After over its own schedule", () => {
    expect(retryDecision(resp(429, 1_500), state(1), limits, () => 0)).toEqual({ retry: true, delayMs: 1_500 });
  });

  it("caps a huge Retry-After at the largest step", () => {
    expect(retryDecision(resp(429, 600_000), state(1), limits)).toEqual({ retry: true, delayMs: 2_000 });
  });

  it("stops at the attempt cap", () => {
    expect(retryDecision(resp(500), state(4), limits)).toEqual({ retry: false, reason: "gave up after 4 attempts" });
  });

  it("stops when the wait would overrun the time budget", () => {
    expect(retryDecision(resp(429, 1_000), state(1, 9_500), limits)).toEqual({
      retry: false,
      reason: "retry budget of 10000 ms spent",
    });
  });

  it("never retries a 500 on a create", () => {
    expect(retryDecision(resp(500), state(1, 0, false), limits)).toEqual({ retry: false, reason: "not retryable" });
  });
});

describe("parseRetryAfter", () => {
  it.each<[string | undefined, number | undefined]>([
    [undefined, undefined],
    ["", undefined],
    ["3", 3_000],
    ["0.5", 500],
    ["soon", undefined],
    ["Thu, 01 Jan 2026 00:00:10 GMT", 10_000],
    ["Thu, 01 Jan 2025 00:00:00 GMT", 0],
  ])("%j -> %s ms", (value, expected) => {
    expect(parseRetryAfter(value, Date.parse("Thu, 01 Jan 2026 00:00:00 GMT"))).toBe(expected);
  });
});

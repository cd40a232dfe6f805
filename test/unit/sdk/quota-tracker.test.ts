import { describe, expect, it } from "vitest";
import { type QuotaAnswer, QuotaTracker, type SendTicket } from "../../../sdk/rate-limit/quota-tracker";

// Times are made-up milliseconds on the client's clock; nothing here waits.

const MINUTE = { window: "minute", quota: 60, windowSeconds: 60 };
const SECOND = { window: "second", quota: 50, windowSeconds: 1 };

/** An answer received at `at` saying `remaining` left and `t` seconds to go in each named window. */
function answer(
  at: number,
  readings: Record<string, [remaining: number, t: number]>,
  extra: Partial<QuotaAnswer> = {},
): QuotaAnswer {
  return {
    receivedAt: at,
    status: 200,
    readings: Object.entries(readings).map(([window, [remaining, resetSeconds]]) => ({
      window,
      remaining,
      resetSeconds,
    })),
    policy: [MINUTE, SECOND],
    retryAfterMs: undefined,
    ...extra,
  };
}

/** A tracker that has sent one request at 0 and heard back at 10. */
function primed(readings: Record<string, [number, number]>): QuotaTracker {
  const tracker = new QuotaTracker();
  tracker.answer(tracker.sent(0), answer(10, readings));
  return tracker;
}

const SEND = { send: true };
const AWAIT_ANSWER = { send: false, until: undefined };

describe("QuotaTracker: before the platform says anything", () => {
  it("sends one request at a time until the first answer brings the policy", () => {
    const tracker = new QuotaTracker();
    expect(tracker.decide(0)).toEqual(SEND);
    const first = tracker.sent(0);
    expect(tracker.decide(1)).toEqual(AWAIT_ANSWER);
    tracker.answer(first, answer(5, { minute: [59, 60] }));
    expect(tracker.decide(5)).toEqual(SEND);
  });

  it("stops pacing an account whose answers carry no rate-limit headers", () => {
    const tracker = new QuotaTracker();
    tracker.answer(tracker.sent(0), { receivedAt: 5, status: 200, readings: [], policy: [], retryAfterMs: undefined });
    for (let i = 0; i < 100; i++) tracker.sent(6);
    expect(tracker.decide(6)).toEqual(SEND);
  });

  it("lets a request go after the first one failed without an answer", () => {
    const tracker = new QuotaTracker();
    tracker.failed(tracker.sent(0));
    expect(tracker.decide(1)).toEqual(SEND);
  });
});

describe("QuotaTracker: counting what is left", () => {
  it("counts requests in flight against what the platform said is left", () => {
    const tracker = primed({ minute: [3, 60] });
    const decisions = [0, 1, 2, 3].map(() => {
      const d = tracker.decide(20);
      if (d.send) tracker.sent(20);
      return d;
    });
    expect(decisions).toEqual([SEND, SEND, SEND, AWAIT_ANSWER]);
  });

  it("holds every request once a window is spent, until the window is surely over, then refills it", () => {
    const tracker = primed({ minute: [0, 43] });
    // Answered at 10 with 43 s to go: the window ends by 43,010.
    expect(tracker.decide(43_009)).toEqual({ send: false, until: 43_010, window: "minute", quota: 60 });
    expect(tracker.decide(43_010)).toEqual(SEND);
    expect(tracker.windowState("minute")).toMatchObject({ remaining: 60, endsBy: 103_010 });
  });

  it("waits for the latest end when several windows are spent", () => {
    const tracker = primed({ second: [0, 1], minute: [0, 43] });
    expect(tracker.decide(20)).toEqual({ send: false, until: 43_010, window: "minute", quota: 60 });
  });

  it("takes the lowest count it hears for the window, whatever order the answers arrive in", () => {
    const tracker = primed({ minute: [50, 60] });
    const a = tracker.sent(20);
    const b = tracker.sent(20);
    tracker.answer(b, answer(30, { minute: [48, 60] }));
    tracker.answer(a, answer(31, { minute: [49, 60] }));
    expect(tracker.windowState("minute")?.remaining).toBe(48);
  });

  it("holds every request for a 429's Retry-After, whatever the windows say", () => {
    const tracker = primed({ minute: [30, 60] });
    tracker.answer(tracker.sent(20), answer(30, { minute: [30, 60] }, { status: 429, retryAfterMs: 2_000 }));
    expect(tracker.decide(2_029)).toEqual({ send: false, until: 2_030, window: undefined, quota: undefined });
    expect(tracker.decide(2_030)).toEqual(SEND);
  });
});

describe("QuotaTracker: knowing when a window ends better than to the second", () => {
  it("narrows the end from an answer sent just after t dropped, and waits only until then", () => {
    // The true end is at 42,750. The first answer (sent at 0, received at 10, 43 s to go) bounds it by 43,010.
    const tracker = primed({ minute: [5, 43] });
    expect(tracker.windowState("minute")?.endsBy).toBe(43_010);
    // Answered before the server's t dropped to 42: no better bound.
    tracker.answer(tracker.sent(700), answer(760, { minute: [4, 43] }));
    expect(tracker.windowState("minute")?.endsBy).toBe(43_010);
    // Sent at 760 and received at 790 after the server answered with t = 42 (42 s or less, rounded up):
    // the end is by 790 + 42,000.
    tracker.answer(tracker.sent(760), answer(790, { minute: [3, 42] }));
    tracker.answer(tracker.sent(800), answer(820, { minute: [0, 42] }));
    expect(tracker.decide(42_789)).toEqual({ send: false, until: 42_790, window: "minute", quota: 60 });
    // 220 ms sooner than the first answer alone allowed, 40 ms after the true end.
    expect(tracker.decide(42_790)).toEqual(SEND);
  });

  it("carries what it learnt of one end to every later window", () => {
    const tracker = primed({ minute: [0, 42] }); // ends by 42,010
    expect(tracker.decide(42_010)).toEqual(SEND);
    for (let i = 0; i < 60; i++) tracker.sent(42_010);
    expect(tracker.decide(42_011)).toEqual(AWAIT_ANSWER);
    expect(tracker.windowState("minute")?.endsBy).toBe(102_010);
  });

  it("moves to the new window at the first answer counted in it (one-second windows always say t=1)", () => {
    // Window ends at 1,000 (unknown to the client). The probe, answered at 10, bounds it by 1,010.
    const tracker = new QuotaTracker();
    tracker.answer(tracker.sent(0), answer(10, { second: [49, 1] }));
    const early = tracker.sent(500); // the lowest count known then: 49
    // Counted after the window turned: as many left as when it was sent. Only a new window does that.
    tracker.answer(early, answer(515, { second: [49, 1] }));
    expect(tracker.windowState("second")).toMatchObject({ remaining: 49, endsBy: 1_515 });
  });

  it("moves to the new window when t could only come from a later one (long windows)", () => {
    const tracker = primed({ minute: [10, 42] }); // believed to end by 42,010
    // The window really ended at 41,990, and another process spent 55 of the new one: fewer left than
    // before, but 60 s to go, which only the new window can say.
    tracker.answer(tracker.sent(41_995), answer(42_000, { minute: [5, 60] }));
    expect(tracker.windowState("minute")).toMatchObject({ remaining: 5, endsBy: 102_000 });
    expect(tracker.decide(42_000)).toEqual(SEND);
  });

  it("does not take two refusals in one window for a new window", () => {
    const tracker = primed({ second: [1, 1] });
    const refusal = { status: 429, retryAfterMs: undefined };
    tracker.answer(tracker.sent(20), answer(30, { second: [0, 1] }, refusal));
    tracker.answer(tracker.sent(40), answer(50, { second: [0, 1] }, refusal));
    expect(tracker.windowState("second")).toMatchObject({ remaining: 0, endsBy: 1_010 });
  });

  it("after a window rolls over, counts an earlier request's answer against the new window, by its count when it proves it was counted there", () => {
    const tracker = primed({ second: [2, 1] }); // ends by 1,010
    const straddler: SendTicket = tracker.sent(900); // lowest count known then: 2
    const late: SendTicket = tracker.sent(905);
    const refused: SendTicket = tracker.sent(906);
    expect(tracker.decide(1_010)).toEqual(SEND); // rolled over: 50 again
    // 1 left: the old window's count, or the new one's after 49 others? Nothing tells; it takes a slot.
    tracker.answer(late, answer(1_020, { second: [1, 1] }));
    expect(tracker.windowState("second")?.remaining).toBe(49);
    // A refusal was counted nowhere.
    tracker.answer(refused, answer(1_021, { second: [0, 1] }, { status: 429, retryAfterMs: undefined }));
    expect(tracker.windowState("second")?.remaining).toBe(49);
    // More left than when it was sent: counted in the new window, which has 48 left.
    tracker.answer(straddler, answer(1_030, { second: [48, 1] }));
    expect(tracker.windowState("second")?.remaining).toBe(48);
  });
});

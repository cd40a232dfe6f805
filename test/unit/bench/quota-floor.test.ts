import { describe, expect, it } from "vitest";
import { quotaFloorMs } from "../../../bench/quota-floor";
import { DEFAULT_QUOTA_WINDOWS } from "../../../emulator";

const MINUTE = 60_000;
const minute = [{ name: "minute", quota: 60, seconds: 60 }];

describe("quotaFloorMs", () => {
  it("costs nothing while the window has room", () => {
    expect(quotaFloorMs(60, minute, { now: 10_000, counts: [] })).toBe(0);
  });

  it("waits for each next window once the current one is spent", () => {
    // 10 s into a fresh window: 60 go at once, the next 60 when it turns (50 s), the last 3 a minute later.
    expect(quotaFloorMs(123, minute, { now: 10_000, counts: [] })).toBe(50_000 + MINUTE);
  });

  it("carries over what the account spent in the current window, and forgets a past window's count", () => {
    const now = 5 * MINUTE + 30_000;
    expect(quotaFloorMs(20, minute, { now, counts: [{ start: 5 * MINUTE, count: 50 }] })).toBe(30_000);
    expect(quotaFloorMs(20, minute, { now, counts: [{ start: 4 * MINUTE, count: 60 }] })).toBe(0);
  });

  it("waits for the longest spent window when several are", () => {
    const windows = [
      { name: "minute", quota: 60, seconds: 60 },
      { name: "hour", quota: 100, seconds: 3600 },
    ];
    // 90 left in the hour: 60 now, 30 at the next minute, the rest when the hour turns.
    const now = 10 * MINUTE;
    const counts = [undefined, { start: 0, count: 10 }];
    expect(quotaFloorMs(100, windows, { now, counts })).toBe(3600_000 - now);
  });

  it("is what the emulator's default quota sets for 503 calls from a fresh account: 8 more minutes after the first window", () => {
    expect(quotaFloorMs(503, DEFAULT_QUOTA_WINDOWS, { now: 0, counts: [] })).toBe(8 * MINUTE);
  });
});

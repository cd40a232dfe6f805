import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gridDelay, WAKE_GRID_MS } from "../../../sdk/jobs/wake-grid";

describe("gridDelay", () => {
  it("waits at least as long as asked, at most one grid step longer, and wakes on the grid", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (now, ms) => {
          const delay = gridDelay(ms, now);
          expect(delay).toBeGreaterThanOrEqual(ms - 1e-6);
          expect(delay).toBeLessThan(ms + WAKE_GRID_MS + 1e-6);
          const wake = (now + delay) / WAKE_GRID_MS;
          expect(Math.abs(wake - Math.round(wake))).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it("two waits that end in the same grid step wake together", () => {
    expect(1000 + gridDelay(10, 1000)).toBe(1050);
    expect(1020 + gridDelay(5, 1020)).toBe(1050);
    expect(1020 + gridDelay(40, 1020)).toBe(1100);
  });
});

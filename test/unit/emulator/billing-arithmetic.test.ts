import { describe, expect, it } from "vitest";
import {
  bucketCount,
  bucketStart,
  bucketsOf,
  nextBucket,
  overlapMs,
  resolveWindow,
  rfc3339,
} from "../../../emulator/billing/billing-buckets";
import { billingTable, component, gigabytes, money } from "../../../emulator/billing/billing-report";
import {
  amountFor,
  cpuPodPricePerHour,
  gpuPodPricePerHour,
  volumePricePerHour,
} from "../../../emulator/billing/prices";
import type { UsageRecord } from "../../../emulator/billing/usage-record";

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe("billing buckets (UTC, weeks from Monday)", () => {
  it.each([
    ["hour", "2026-06-03T13:45:10Z", "2026-06-03T13:00:00Z", "2026-06-03T14:00:00Z"],
    ["day", "2026-06-03T13:45:10Z", "2026-06-03T00:00:00Z", "2026-06-04T00:00:00Z"],
    ["week", "2026-06-03T13:45:10Z", "2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z"],
    ["week", "2026-06-07T23:00:00Z", "2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z"],
    ["month", "2026-02-14T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"],
    ["year", "2026-12-31T23:59:59Z", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"],
  ] as const)("a %s bucket holding %s runs from %s to %s", (size, t, start, end) => {
    expect(rfc3339(bucketStart(at(t), size))).toBe(start);
    expect(rfc3339(nextBucket(at(start), size))).toBe(end);
  });

  it("snaps a window's start down and its end up, and keeps an end already on a boundary", () => {
    const w = resolveWindow(
      { bucketSize: "day", startTime: at("2026-06-02T10:00:00Z"), endTime: at("2026-06-04T01:00:00Z") },
      0,
    );
    expect([rfc3339(w.start), rfc3339(w.end)]).toEqual(["2026-06-02T00:00:00Z", "2026-06-05T00:00:00Z"]);
    const exact = resolveWindow(
      { bucketSize: "day", startTime: at("2026-06-02T00:00:00Z"), endTime: at("2026-06-04T00:00:00Z") },
      0,
    );
    expect(bucketsOf(exact).map(([s]) => rfc3339(s))).toEqual(["2026-06-02T00:00:00Z", "2026-06-03T00:00:00Z"]);
  });

  it("defaults to the last 30 days up to now, and counts lastN back from the current bucket", () => {
    const now = at("2026-06-30T12:00:00Z");
    const w = resolveWindow({ bucketSize: "day" }, now);
    expect([rfc3339(w.start), rfc3339(w.end)]).toEqual(["2026-05-31T00:00:00Z", "2026-07-01T00:00:00Z"]);
    expect(bucketCount(w)).toBe(31);
    const months = resolveWindow({ bucketSize: "month", lastN: 3 }, now);
    expect([rfc3339(months.start), rfc3339(months.end)]).toEqual(["2026-04-01T00:00:00Z", "2026-07-01T00:00:00Z"]);
  });

  it("measures the overlap of a span (open until now) with a bucket", () => {
    expect(overlapMs({ start: 10, end: 50 }, 0, 30, 100)).toBe(20);
    expect(overlapMs({ start: 10 }, 20, 200, 100)).toBe(80);
    expect(overlapMs({ start: 60, end: 70 }, 0, 30, 100)).toBe(0);
  });
});

describe("prices", () => {
  it("prices GPU pods per cloud, interruptible at half; CPU pods per vCPU; volumes by the GB-month of 730 hours", () => {
    const l4 = { secure: 0.43, community: 0.28 };
    expect(gpuPodPricePerHour(l4, 2, "SECURE", false)).toBe(0.86);
    expect(gpuPodPricePerHour(l4, 2, "COMMUNITY", false)).toBe(0.56);
    expect(gpuPodPricePerHour(l4, 1, "SECURE", true)).toBe(0.215);
    expect(cpuPodPricePerHour(0.04, 8, false)).toBe(0.32);
    expect(volumePricePerHour(730, "STANDARD")).toBeCloseTo(0.07, 12);
    expect(volumePricePerHour(730, "HIGH_PERFORMANCE")).toBeCloseTo(0.14, 12);
    expect(volumePricePerHour(730, "A_TIER_ADDED_LATER")).toBeCloseTo(0.07, 12);
    expect(amountFor(0.43, HOUR / 2)).toBeCloseTo(0.215, 12);
  });
});

describe("the billing table", () => {
  const t0 = at("2026-06-01T00:00:00Z");
  const records: UsageRecord[] = [
    {
      id: "pod:a",
      kind: "pod",
      resourceId: "a",
      segments: [
        { start: t0, end: t0 + HOUR, ratePerHour: 0.43, component: "gpu", podId: "a", gpuTypeId: "NVIDIA L4" },
        { start: t0 + 2 * HOUR, ratePerHour: 0.43, component: "gpu", podId: "a", gpuTypeId: "NVIDIA L4" },
      ],
    },
    {
      id: "networkVolume:v",
      kind: "networkVolume",
      resourceId: "v",
      segments: [
        { start: t0, end: t0 + HOUR, ratePerHour: 1, component: "standard", gb: 100 },
        { start: t0 + HOUR, ratePerHour: 2, component: "standard", gb: 200 },
      ],
    },
  ];

  it("bills each span by the millisecond into the buckets it overlaps, open spans up to now", () => {
    const window = resolveWindow({ bucketSize: "hour", startTime: t0, endTime: t0 + 3 * HOUR }, 0);
    const table = billingTable(records, window, t0 + 2.5 * HOUR, (r) => r.kind);
    const pods = [...table].map(([start, g]) => [
      rfc3339(start),
      money(g.get("pod")?.amount ?? 0),
      g.get("pod")?.ms ?? 0,
    ]);
    expect(pods).toEqual([
      ["2026-06-01T00:00:00Z", 0.43, HOUR],
      ["2026-06-01T01:00:00Z", 0, 0],
      ["2026-06-01T02:00:00Z", 0.215, HOUR / 2],
    ]);
    const second = table.get(t0 + HOUR)!.get("networkVolume")!;
    expect([money(second.amount), gigabytes(second), component(second, "standard")]).toEqual([2, 200, 2]);
  });

  it("leaves out spans whose group is undefined (filters), and the largest size a volume had counts", () => {
    const window = resolveWindow({ bucketSize: "day", startTime: t0, endTime: t0 + 24 * HOUR }, 0);
    const table = billingTable(records, window, t0 + 3 * HOUR, (r) => (r.kind === "networkVolume" ? "all" : undefined));
    const day = table.get(t0)!;
    expect([...day.keys()]).toEqual(["all"]);
    expect([money(day.get("all")!.amount), gigabytes(day.get("all")!), gigabytes(day.get("all")!, true)]).toEqual([
      5, 200, 0,
    ]);
  });
});

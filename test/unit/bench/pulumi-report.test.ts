import { describe, expect, it } from "vitest";
import type { Alternative, LifecycleTimes, PulumiBenchSettings } from "../../../bench/pulumi-bench";
import { pulumiSection } from "../../../bench/pulumi-report";

/** One round's lifecycle with the given `up` and `preview` times (ms); the rest are fixed. */
const times = (up: number, preview = 1_000): LifecycleTimes => ({
  up,
  preview,
  refresh: 500,
  destroy: 500,
  cpu: { up, preview, refresh: 500, destroy: 500 },
  previewRequests: 0,
  previewUnchanged: true,
});

const alternative = (latencyMs: number | undefined, ups: number[], previews?: number[]): Alternative => ({
  name: latencyMs === undefined ? "baseline (no-op)" : `runpod @ ${latencyMs} ms`,
  size: 10,
  latencyMs,
  samples: ups.map((up, i) => times(up, previews?.[i])),
});

const settings = (rounds: number): PulumiBenchSettings => ({
  sizes: [10],
  latenciesMs: [0, 100],
  rounds: () => rounds,
});

function targetsOf(alternatives: Alternative[], rounds: number) {
  const section = pulumiSection(
    { alternatives, footprints: [], pulumiVersion: "3", delayedRequests: 0 },
    settings(rounds),
  );
  return new Map(section.targets.map((t) => [t.target, t]));
}

describe("pulumiSection targets", () => {
  // Twelve rounds: baseline 2,000 ms each; ours at 100 ms 2,000 + 100 x (1..12) ms, so the per-round
  // differences are 100, 200, ..., 1,200 (median 650; 3rd smallest 300, 3rd largest 1,000).
  const rounds = 12;
  const base = alternative(undefined, Array(rounds).fill(2_000));
  const zero = alternative(0, Array(rounds).fill(2_100), Array(rounds).fill(1_050));
  const slow = alternative(
    100,
    Array.from({ length: rounds }, (_, i) => 2_000 + 100 * (i + 1)),
  );

  it("judges up at 100 ms on the median per-round difference and shows the median's interval", () => {
    const target = targetsOf([base, zero, slow], rounds).get("up at 100 ms <= baseline + 300 ms")!;
    expect(target.met).toBe(false);
    expect(target.measured).toBe("baseline + 650 ms (96% CI + 300 ms to + 1000 ms); up at 0 ms + 550 ms");
  });

  it("shows the interval next to the ratio targets too", () => {
    const targets = targetsOf([base, zero, slow], rounds);
    expect(targets.get("up at 0 ms <= 1.3x baseline")!.measured).toBe("1.05x (96% CI 1.05x to 1.05x)");
    expect(targets.get("unchanged preview <= 1.1x baseline, 0 API calls")!.measured).toBe(
      "1.05x (96% CI 1.05x to 1.05x), 0 calls",
    );
  });

  it("leaves the interval out where there are too few rounds for one", () => {
    const few = (alt: Alternative) => ({ ...alt, samples: alt.samples.slice(0, 3) });
    const target = targetsOf([few(base), few(zero), few(slow)], 3).get("up at 100 ms <= baseline + 300 ms")!;
    expect(target.met).toBe(true);
    expect(target.measured).toBe("baseline + 200 ms; up at 0 ms + 100 ms");
  });
});

describe("the refresh target under the quota", () => {
  const withRefresh = (alt: Alternative, refreshMs: number, quota = false): Alternative => ({
    ...alt,
    name: quota ? "runpod @ 0 ms, default v2 quota" : alt.name,
    quota,
    samples: alt.samples.map((t) => ({ ...t, refresh: refreshMs })),
  });
  const rounds = 3;
  const base = withRefresh(alternative(undefined, Array(rounds).fill(2_000)), 1_000);
  const target = (zeroRefresh: number, pacedRefresh: number) => {
    const zero = withRefresh(alternative(0, Array(rounds).fill(2_000)), zeroRefresh);
    const paced = withRefresh(alternative(0, Array(rounds).fill(2_000)), pacedRefresh, true);
    return targetsOf([base, zero, paced], rounds).get("refresh under the default v2 quota <= 1.1x baseline")!;
  };

  it("blames the quota's pacing when the quota made the refresh slower than without it", () => {
    const t = target(1_050, 1_500);
    expect(t.met).toBe(false);
    expect(t.whyMissed).toMatch(/^under the quota, a refresh is paced only when/);
  });

  it("gives the reason without a quota when the refresh without it was as far over the baseline", () => {
    const t = target(1_200, 1_150);
    expect(t.met).toBe(false);
    expect(t.whyMissed).toMatch(/^the quota did not lengthen this refresh/);
    expect(t.whyMissed).toContain("provider process's CPU per read");
  });
});

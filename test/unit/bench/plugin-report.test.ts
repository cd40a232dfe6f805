import { describe, expect, it } from "vitest";
import type { PluginBenchResult } from "../../../bench/plugin-bench";
import { pluginSection } from "../../../bench/plugin-report";
import type { LifecycleTimes } from "../../../bench/pulumi-bench";

/** One round's lifecycle with the given `up` time (ms) and preview requests; the rest are fixed. */
const times = (up: number, previewRequests = 0): LifecycleTimes => ({
  up,
  preview: 1_000,
  refresh: Number.NaN,
  destroy: 500,
  cpu: { up, preview: 1_000, refresh: Number.NaN, destroy: 500 },
  previewRequests,
  previewUnchanged: true,
});

/** Six rounds: the dynamic stack's `up` 2,000 ms each, the plugin's as given. */
function result(pluginUps: number[], pluginEntry: number, pluginPreviewRequests = 0): PluginBenchResult {
  return {
    settings: { size: 100, rounds: pluginUps.length },
    samples: {
      dynamic: pluginUps.map(() => times(2_000)),
      plugin: pluginUps.map((up) => times(up, pluginPreviewRequests)),
    },
    state: {
      dynamic: { checkpointFile: 200_000, perResourceEntry: 1_600 },
      plugin: { checkpointFile: 195_000, perResourceEntry: pluginEntry },
    },
    load: [1.5, 2.25],
  };
}

const targetsOf = (r: PluginBenchResult) => pluginSection(r).targets;

describe("pluginSection targets", () => {
  it("judges up on the median per-round ratio to the dynamic stack, with its interval and the machine's load", () => {
    // Per-round ratios 1.00, 1.02, 1.04, 1.06, 1.08, 1.10: median 1.05, met at the two decimals shown.
    const [up] = targetsOf(result([2_000, 2_040, 2_080, 2_120, 2_160, 2_200], 1_540));
    expect(up).toMatchObject({
      target: "up through the plugin <= 1.05x the dynamic resources'",
      measured: "1.05x (96% CI 1.00x to 1.10x); load 1.50 at the start, 2.25 at the end",
      met: true,
    });
    expect(targetsOf(result([2_120, 2_120, 2_120, 2_120, 2_120, 2_120], 1_540))[0]!.met).toBe(false);
  });

  it("compares the bytes of one resource's entry, and misses when the plugin's is larger", () => {
    const ups = Array(6).fill(2_000);
    expect(targetsOf(result(ups, 1_540))[1]).toMatchObject({
      measured: "1,540 B against 1,600 B (0.96x)",
      met: true,
    });
    expect(targetsOf(result(ups, 1_601))[1]!.met).toBe(false);
  });

  it("requires an unchanged preview through the plugin to send nothing", () => {
    const ups = Array(6).fill(2_000);
    expect(targetsOf(result(ups, 1_540))[2]).toMatchObject({
      measured: "0 requests at most in 6 previews",
      met: true,
    });
    expect(targetsOf(result(ups, 1_540, 2))[2]).toMatchObject({
      measured: "2 requests at most in 6 previews",
      met: false,
    });
  });

  it("shows both stacks side by side, the plugin's with its ratio", () => {
    const section = pluginSection(result([2_100, 2_100, 2_100, 2_100, 2_100, 2_100], 1_540));
    expect(section.tables[0]!.rows).toEqual([
      ["dynamic", "2.00 s", "1.00 s", "0.50 s", "0"],
      ["plugin", "2.10 s (1.05x)", "1.00 s (1.00x)", "0.50 s (1.00x)", "0"],
    ]);
    expect(section.tables[2]!.rows[1]).toEqual(["plugin", "195,000 B", "1,950 B", "1,540 B"]);
  });
});

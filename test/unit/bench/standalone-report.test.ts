import { describe, expect, it } from "vitest";
import type { PluginBenchResult } from "../../../bench/plugin-bench";
import { pluginSection } from "../../../bench/plugin-report";
import type { LifecycleTimes } from "../../../bench/pulumi-bench";
import type { StartupSample } from "../../../bench/standalone-plugin";

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

const start = (answerMs: number): StartupSample => ({
  portMs: answerMs - 10,
  answerMs,
  cpuMs: answerMs / 2,
  rssBytes: 50 << 20,
});

/** Six rounds: the dynamic stack's `up` 2,000 ms, the package's plugin's 2,100 ms, the standalone one's as given. */
function result(standaloneUps: number[], previewRequests = 0): PluginBenchResult {
  const rounds = standaloneUps.length;
  return {
    settings: { size: 100, rounds, startups: 4 },
    samples: { dynamic: standaloneUps.map(() => times(2_000)), plugin: standaloneUps.map(() => times(2_100)) },
    state: {
      dynamic: { checkpointFile: 200_000, perResourceEntry: 1_600 },
      plugin: { checkpointFile: 195_000, perResourceEntry: 1_540 },
    },
    standalone: {
      samples: standaloneUps.map((up) => times(up, previewRequests)),
      state: { checkpointFile: 195_000, perResourceEntry: 1_540 },
      startups: { plugin: [400, 420, 380, 400].map(start), standalone: [100, 110, 90, 100].map(start) },
      build: {
        artifacts: [
          ["pulumi-resource-runpod-iac-v0.3.0-linux-amd64.tar.gz", 43_000_000],
          ["pulumi_runpod_iac-0.3.0-py3-none-any.whl", 57_000],
        ],
        executables: [["linux-amd64", 122_000_000]],
        node: "26.12.1",
      },
      compileCache: false,
    },
    load: [1.5, 2.25],
  };
}

describe("the standalone plugin in the plugin benchmark's report", () => {
  it("judges its up on the median per-round ratio to the package's plugin, not to the dynamic resources", () => {
    // Ratios to the plugin's 2,100 ms: 1.00, 1.02, 1.04, 1.06, 1.08, 1.10: median 1.05, met.
    const targets = pluginSection(result([2_100, 2_142, 2_184, 2_226, 2_268, 2_310])).targets;
    expect(targets).toHaveLength(5);
    expect(targets[3]).toMatchObject({
      target: "up through the standalone plugin <= 1.05x the package's plugin's (Node.js on PATH)",
      measured: "1.05x (96% CI 1.00x to 1.10x); load 1.50 at the start, 2.25 at the end",
      met: true,
    });
    expect(pluginSection(result(Array(6).fill(2_226))).targets[3]!.met).toBe(false);
  });

  it("requires its unchanged preview to send nothing", () => {
    expect(pluginSection(result(Array(6).fill(2_100), 1)).targets[4]).toMatchObject({
      measured: "1 requests at most in 6 previews",
      met: false,
    });
  });

  it("puts its row under the other two, its ratios to the package's plugin", () => {
    const section = pluginSection(result(Array(6).fill(2_100)));
    expect(section.tables[0]!.rows[2]).toEqual([
      "standalone",
      "2.10 s (1.00x)",
      "1.00 s (1.00x)",
      "0.50 s (1.00x)",
      "0",
    ]);
    expect(section.tables[2]!.rows[2]).toEqual(["standalone", "195,000 B", "1,950 B", "1,540 B"]);
  });

  it("shows both plugins' starts and every artifact's size", () => {
    const [, , , startup, artifacts] = pluginSection(result(Array(6).fill(2_100))).tables;
    expect(startup!.rows).toEqual([
      ["the package's (launcher, Node.js on PATH)", "390 ms", "400 ms", "200 ms", "50.0 MiB"],
      [
        "standalone (Node.js 26.12.1 inside)",
        "90.0 ms (0.23x)",
        "100 ms (0.25x)",
        "50.0 ms (0.25x)",
        "50.0 MiB (1.00x)",
      ],
    ]);
    expect(artifacts!.rows).toEqual([
      ["pulumi-resource-runpod-iac-v0.3.0-linux-amd64.tar.gz", "43,000,000 B", "122,000,000 B"],
      ["pulumi_runpod_iac-0.3.0-py3-none-any.whl", "57,000 B", ""],
    ]);
  });
});

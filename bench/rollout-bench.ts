import { startEmulator } from "../emulator";
import { RunpodClient } from "../sdk/client";
import { createBenchStack } from "./pulumi-stack";
import type { BenchSection, TargetCheck } from "./report";
import type { PulumiCommand } from "@pulumi/pulumi/automation";

/*
 * Benchmark 12 (docs/benchmarks.md): an image bump of 1 and of 10 endpoints through one template,
 * on management API v2 with its default quota (60 calls a minute), the emulator's workers booting
 * in a known time. Measures when `pulumi up` ended against when the last endpoint's rollout
 * finished (seen from inside the emulator, every 20 ms), and the polls it spent.
 */

/** Settings of the rollout benchmark. */
export interface RolloutBenchSettings {
  counts: number[];
  /** The emulator's worker boot time (ms, real: time scale 1). */
  bootMs: number;
}

/** A full run. */
export const ROLLOUT_FULL: RolloutBenchSettings = { counts: [1, 10], bootMs: 8000 };
/** A quick run. */
export const ROLLOUT_QUICK: RolloutBenchSettings = { counts: [1, 3], bootMs: 3000 };

const KEY = "bench-rollout-key";
/** The base poll interval (the provider's default). */
const BASE_POLL_MS = 5000;

interface Row {
  count: number;
  upMs: number;
  lastRolloutMs: number;
  intervalMs: number;
  polls: number;
  allowedPolls: number;
}

async function measure(command: PulumiCommand, count: number, bootMs: number, log: (s: string) => void): Promise<Row> {
  const emulator = await startEmulator({ port: 0, apiKeys: [KEY], rateLimits: false, workerBootMs: bootMs });
  const env = { RUNPOD_API_KEY: KEY, RUNPOD_API_URL: emulator.apiUrlV2, RUNPOD_QUEUE_URL: emulator.queueUrl };
  const config = { "bench:count": { value: String(count) }, "bench:image": { value: "ghcr.io/acme/echo:1" } };
  const s = await createBenchStack(command, "rollout-stack", `rollout-${count}`, config, env);
  const client = new RunpodClient({ apiKey: KEY, apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
  try {
    await s.stack.up();
    const account = emulator.store.accountForKey(KEY)!;
    const ids = [...account.endpoints.values()].map((e) => e.id);
    // Served: every worker of every endpoint on the new image and started.
    const served = () =>
      ids.every((id) => {
        const ws = account.workersOf(id);
        return ws.length > 0 && ws.every((w) => w.status === "IDLE" && w.runs?.image === "ghcr.io/acme/echo:2");
      });
    await s.stack.setConfig("bench:image", { value: "ghcr.io/acme/echo:2" });
    account.stats.byRoute.clear();
    const started = Date.now();
    let lastRollout = Number.NaN;
    const watch = setInterval(() => {
      if (Number.isNaN(lastRollout) && served()) lastRollout = Date.now() - started;
    }, 20);
    await s.stack.up();
    const upMs = Date.now() - started;
    clearInterval(watch);
    const polls = [...account.stats.byRoute].filter(([r]) => r.endsWith("/workers")).reduce((n, [, c]) => n + c, 0);
    // The interval the provider polled at with `count` rollouts waited on at once under this quota.
    await client.v2.serverless.list();
    const intervalMs = Math.max(BASE_POLL_MS, 2 * (client.transport.managementGapMs() ?? 0) * count);
    const waitMs = Math.max(0, upMs);
    const allowedPolls = count * (1 + Math.ceil(waitMs / intervalMs));
    log(`rollout ${count}: up ${upMs} ms, last rollout ${lastRollout} ms, ${polls} polls`);
    await s.stack.destroy();
    return { count, upMs, lastRolloutMs: lastRollout, intervalMs, polls, allowedPolls };
  } finally {
    await client.close();
    s.dispose();
    await emulator.close();
  }
}

/** Runs benchmark 10: one image bump per endpoint count. */
export async function runRolloutBench(
  settings: RolloutBenchSettings,
  command: PulumiCommand,
  log: (s: string) => void,
): Promise<BenchSection> {
  const rows: Row[] = [];
  for (const count of settings.counts) rows.push(await measure(command, count, settings.bootMs, log));
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const targets: TargetCheck[] = rows.flatMap((r) => {
    const late = r.upMs - r.lastRolloutMs;
    return [
      {
        benchmark: "13. rollout",
        target: `image bump of ${r.count}: up ends within one poll interval + 10 % of the last rollout`,
        measured: `${s(late)} s after it (interval ${s(r.intervalMs)} s, bound ${s(r.intervalMs * 1.1)} s)`,
        met: late <= r.intervalMs * 1.1,
      },
      {
        benchmark: "13. rollout",
        target: `image bump of ${r.count}: at most one management call per endpoint per poll interval`,
        measured: `${r.polls} polls (at most ${r.allowedPolls})`,
        met: r.polls <= r.allowedPolls,
      },
    ];
  });
  return {
    title: "13. Rollouts: `pulumi up` ends when the endpoints serve",
    method: [
      `An image bump through one template of N endpoints (workersMin 1 each), on management API v2 with the emulator's default quota (60 calls a minute), the emulator's workers booting in ${s(settings.bootMs)} s (time scale 1); one run per N.`,
      "The last rollout finished when every worker of every endpoint ran the new image and was idle, seen inside the emulator every 20 ms; polls are the `GET /v2/serverless/{id}/workers` calls during the up.",
      `The poll interval is the provider's: ${s(BASE_POLL_MS)} s, or more with many rollouts at once so that the polls take at most half of the quota's shortest window (2 s per endpoint at 60 a minute).`,
    ],
    tables: [
      {
        title: "Image bump",
        columns: [
          "endpoints",
          "up (s)",
          "last rollout done (s)",
          "up ended after it (s)",
          "poll interval (s)",
          "polls",
          "allowed",
        ],
        rows: rows.map((r) => [
          String(r.count),
          s(r.upMs),
          s(r.lastRolloutMs),
          s(r.upMs - r.lastRolloutMs),
          s(r.intervalMs),
          String(r.polls),
          String(r.allowedPolls),
        ]),
      },
    ],
    targets,
    notes: [],
  };
}

import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator";
import { EmulatorApi } from "./emulator-process";
import { type BenchStack, benchPulumiCommand, createBenchStack } from "./pulumi-stack";
import { measureFootprint, type StateFootprint } from "./state-footprint";
import { childCpuMs, interleaved, timed } from "./stats";

/** Sizes of the `pulumi up` scaling benchmark. */
export interface PulumiBenchSettings {
  /** Resources per stack (even: half volumes, half endpoints). */
  sizes: number[];
  /** Injected latency of every management API call, in ms. */
  latenciesMs: number[];
  /** Rounds per size (each round runs the baseline and every latency once, interleaved). */
  rounds: (size: number) => number;
}

/** The sizes, four rounds each (paired with the baseline per round): about 10 of the 15 minutes. */
export const PULUMI_FULL: PulumiBenchSettings = { sizes: [10, 50, 100], latenciesMs: [0, 100], rounds: () => 4 };
/** `--quick`: 10 resources, one round. */
export const PULUMI_QUICK: PulumiBenchSettings = { sizes: [10], latenciesMs: [0, 100], rounds: () => 1 };

/** The four timed operations of a lifecycle. */
export type Operation = "up" | "preview" | "refresh" | "destroy";

/** Wall times of one stack's lifecycle, in ms. */
export interface LifecycleTimes extends Record<Operation, number> {
  /** CPU ms of the CLI, language host, program and provider processes per operation (see `childCpuMs`). */
  cpu: Record<Operation, number>;
  /** API requests the emulator answered during the unchanged preview. */
  previewRequests: number;
  /** False when the preview of the unchanged stack proposed changes. */
  previewUnchanged: boolean;
}

/** One alternative of a round: the no-op baseline, or the runpod program at one injected latency. */
export interface Alternative {
  name: string;
  size: number;
  latencyMs: number | undefined;
  samples: LifecycleTimes[];
}

/** What the benchmark hands back: its section, and the footprints its deployments left for benchmark 4. */
export interface PulumiBenchResult {
  alternatives: Alternative[];
  footprints: StateFootprint[];
  pulumiVersion: string;
  /** Requests the emulator's latency fault rule delayed (proof that the latency was applied). */
  delayedRequests: number;
}

const KEY = "bench-pulumi-key";

/**
 * up, an unchanged preview, refresh and destroy of one stack, each timed around the Automation API
 * call (which spawns the CLI: the same fixed cost for the baseline). `afterUp` runs untimed.
 */
async function lifecycle(
  bench: BenchStack,
  size: number,
  api: EmulatorApi,
  afterUp: () => Promise<void>,
): Promise<LifecycleTimes> {
  const opts = { parallel: size };
  const cpu = {} as Record<Operation, number>;
  const measure = async (op: Operation, fn: () => Promise<unknown>) => {
    const before = childCpuMs();
    const ms = await timed(fn);
    cpu[op] = childCpuMs() - before;
    return ms;
  };
  const up = await measure("up", async () => {
    const result = await bench.stack.up(opts);
    if (result.summary.result !== "succeeded") throw new Error(`up: ${result.summary.result}`);
  });
  await afterUp();
  const requestsBefore = await api.requestCount();
  let previewUnchanged = false;
  const preview = await measure("preview", async () => {
    const result = await bench.stack.preview(opts);
    previewUnchanged = Object.keys(result.changeSummary).every((op) => op === "same");
  });
  const previewRequests = (await api.requestCount()) - requestsBefore;
  const refresh = await measure("refresh", () => bench.stack.refresh(opts));
  const destroy = await measure("destroy", () => bench.stack.destroy(opts));
  return { up, preview, refresh, destroy, cpu, previewRequests, previewUnchanged };
}

/**
 * Benchmark 3: `pulumi up` / preview / refresh / destroy of stacks of our resources against an
 * in-process emulator, with 0 and 100 ms injected latency, versus the same number of no-op dynamic
 * resources, interleaved in each round. Also captures the state footprint (benchmark 4).
 */
export async function runPulumiBench(
  s: PulumiBenchSettings,
  log: (line: string) => void,
  pulumi?: { command: PulumiCommand; version: string },
): Promise<PulumiBenchResult> {
  const { command, version } = pulumi ?? (await benchPulumiCommand());
  // Rate limits stay as the spec has them: they apply to /v2 job operations only, never to /v1.
  const emulator = await startEmulator({ port: 0, apiKeys: [KEY] });
  const api = new EmulatorApi(emulator.url, KEY);
  const alternatives: Alternative[] = [];
  const footprints: StateFootprint[] = [];
  const stacks: BenchStack[] = [];
  try {
    for (const size of s.sizes) {
      const config = { "bench:count": { value: String(size) } };
      const ours = await createBenchStack(
        command,
        "runpod-stack",
        `runpod-${size}`,
        { ...config, "runpod:apiUrl": { value: emulator.apiUrl }, "runpod:queueUrl": { value: emulator.queueUrl } },
        { RUNPOD_API_KEY: KEY },
      );
      const baseline = await createBenchStack(command, "noop-stack", `noop-${size}`, config, {});
      stacks.push(ours, baseline);
      const row = [
        { name: "baseline (no-op)", size, latencyMs: undefined, samples: [] },
        ...s.latenciesMs.map((latencyMs) => ({ name: `runpod @ ${latencyMs} ms`, size, latencyMs, samples: [] })),
      ] as Alternative[];
      alternatives.push(...row);
      const captured = new Set<string>();
      for (let round = 0; round < s.rounds(size); round++) {
        for (const alt of interleaved(row, round)) {
          const stack = alt.latencyMs === undefined ? baseline : ours;
          const latency = alt.latencyMs ?? 0;
          await api.setFaults(latency > 0 ? [{ route: "/v1", latencyMs: latency }] : []);
          const program = alt.latencyMs === undefined ? "baseline" : "runpod";
          const times = await lifecycle(stack, size, api, async () => {
            if (captured.has(program)) return;
            captured.add(program);
            footprints.push(await measureFootprint(stack, program, size));
          });
          alt.samples.push(times);
          log(
            `pulumi ${size} resources, round ${round + 1}/${s.rounds(size)}, ${alt.name}: up ${ms(times.up)}, preview ${ms(times.preview)} (${times.previewRequests} API calls), refresh ${ms(times.refresh)}, destroy ${ms(times.destroy)}`,
          );
        }
      }
    }
    const stats = await api.call<{ faults: { latency: number } }>("GET", "/_emulator/stats");
    return { alternatives, footprints, pulumiVersion: version, delayedRequests: stats.faults.latency };
  } finally {
    await emulator.close();
    for (const stack of stacks) stack.dispose();
  }
}

const ms = (n: number) => `${(n / 1000).toFixed(2)} s`;

import * as os from "node:os";
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import type { BenchStack } from "./pulumi-stack";
import {
  createPluginStack,
  createRunpodStack,
  type LifecycleTimes,
  lifecycle,
  startBenchEmulator,
} from "./pulumi-bench";
import { interleaved } from "./stats";

/** Size and rounds of the plugin benchmark. */
export interface PluginBenchSettings {
  /** Resources per stack (even: half volumes, half endpoints). */
  size: number;
  /** Rounds; each runs both stacks once, in a balanced order. */
  rounds: number;
}

/**
 * 100 resources, twelve rounds (six of each order): the pulumi benchmark's rounds at the same size,
 * whose per-round differences spread over a few hundred ms on this shared machine, so that the
 * median's 95% interval is narrower than the rounds' spread. About 10 minutes on a quiet machine.
 */
export const PLUGIN_FULL: PluginBenchSettings = { size: 100, rounds: 12 };
/** `--quick`: 10 resources, two rounds (each order once). */
export const PLUGIN_QUICK: PluginBenchSettings = { size: 10, rounds: 2 };

/** The two ways the same program is served. */
export type PluginAlternative = "dynamic" | "plugin";

/** What one stack's deployment leaves in its state. */
export interface StateBytes {
  /** Bytes of the checkpoint file (every resource, the stack's and the providers' included). */
  checkpointFile: number;
  /** Mean bytes of one of the program's resources in `pulumi stack export` (its entry, as compact JSON). */
  perResourceEntry: number;
}

/** What the plugin benchmark hands to its report. */
export interface PluginBenchResult {
  settings: PluginBenchSettings;
  /** Each alternative's lifecycles, one per round, in round order (so round i pairs with round i). */
  samples: Record<PluginAlternative, LifecycleTimes[]>;
  state: Record<PluginAlternative, StateBytes>;
  /** The machine's 1-minute load average when the run started and ended. */
  load: [number, number];
}

/** The type tokens of the program's resources: the dynamic resources' and the plugin's. */
const OUR_TYPES = ["pulumi-nodejs:dynamic/runpod:", "runpod-iac:index:"];

/** The state a freshly deployed stack holds: its checkpoint file, and its resources' entries. */
async function stateBytes(bench: BenchStack): Promise<StateBytes> {
  const exported = await bench.stack.exportStack();
  const resources = ((exported.deployment as { resources?: { type: string }[] }).resources ?? []).filter((r) =>
    OUR_TYPES.some((prefix) => r.type.startsWith(prefix)),
  );
  const total = resources.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
  return { checkpointFile: bench.stateFileBytes(), perResourceEntry: total / resources.length };
}

/**
 * Benchmark 8: the same program of `size` resources (half volumes, half endpoints) served by the
 * dynamic resources (bench/programs/runpod-stack) and by the provider plugin
 * (bench/programs/plugin-stack, its import line changed), against one in-process emulator on
 * management API v2: `up`, an unchanged preview (its API requests counted) and `destroy`, both
 * stacks each round in a balanced order; the state of each after its first `up`.
 */
export async function runPluginBench(
  s: PluginBenchSettings,
  log: (line: string) => void,
  pulumi: { command: PulumiCommand },
): Promise<PluginBenchResult> {
  const load: [number, number] = [os.loadavg()[0]!, Number.NaN];
  // The quota off: the figure is what serves the resources, not the quota's pacing of both alike.
  const { emulator, api } = await startBenchEmulator({ quota: false });
  const stacks: Record<PluginAlternative, BenchStack | undefined> = { dynamic: undefined, plugin: undefined };
  try {
    stacks.dynamic = await createRunpodStack(pulumi.command, emulator, s.size, `dynamic-${s.size}`);
    stacks.plugin = await createPluginStack(pulumi.command, emulator, s.size, `plugin-${s.size}`);
    const samples: PluginBenchResult["samples"] = { dynamic: [], plugin: [] };
    const state: Partial<PluginBenchResult["state"]> = {};
    for (let round = 0; round < s.rounds; round++) {
      for (const alt of interleaved<PluginAlternative>(["dynamic", "plugin"], round)) {
        const stack = stacks[alt]!;
        const times = await lifecycle(
          stack,
          s.size,
          api,
          async () => {
            state[alt] ??= await stateBytes(stack);
          },
          false,
        );
        samples[alt].push(times);
        log(
          `plugin ${s.size} resources, round ${round + 1}/${s.rounds}, ${alt}: up ${sec(times.up)}, preview ${sec(times.preview)} (${times.previewRequests} API calls), destroy ${sec(times.destroy)}`,
        );
      }
    }
    load[1] = os.loadavg()[0]!;
    return { settings: s, samples, state: state as PluginBenchResult["state"], load };
  } finally {
    await emulator.close();
    for (const stack of Object.values(stacks)) stack?.dispose();
  }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

import * as os from "node:os";
import * as path from "node:path";
import type { PulumiCommand } from "@pulumi/pulumi/automation";
import type { BenchStack } from "./pulumi-stack";
import {
  createPluginStack,
  createRunpodStack,
  type LifecycleTimes,
  lifecycle,
  startBenchEmulator,
} from "./pulumi-bench";
import { REPO_ROOT } from "../scripts/pulumi-cli";
import { cacheRoot, type Platform } from "../scripts/release/node-runtimes";
import {
  buildStandalone,
  createStandaloneStack,
  measureStartups,
  type StandaloneBuild,
  type StartupSample,
} from "./standalone-plugin";
import { interleaved } from "./stats";

/** Size and rounds of the plugin benchmark. */
export interface PluginBenchSettings {
  /** Resources per stack (even: half volumes, half endpoints). */
  size: number;
  /** Rounds; each runs the three stacks once, in a balanced order. */
  rounds: number;
  /** Starts of each plugin to its first answer, in a balanced order (none when absent). */
  startups?: number;
  /** The platforms whose plugins are built (their sizes reported); undefined: all five, as a release. */
  platforms?: readonly Platform[];
}

/**
 * 100 resources, twelve rounds (each order of the three stacks twice): the pulumi benchmark's
 * rounds at the same size, whose per-round differences spread over a few hundred ms on this shared
 * machine, so that the median's 95% interval is narrower than the rounds' spread; 30 starts of
 * each plugin; every platform's plugin built. About 15 minutes on a quiet machine.
 */
export const PLUGIN_FULL: PluginBenchSettings = { size: 100, rounds: 12, startups: 30 };
/** `--quick`: 10 resources, three rounds (each stack first once), 6 starts, this machine's plugin only. */
export const PLUGIN_QUICK: PluginBenchSettings = { size: 10, rounds: 3, startups: 6, platforms: ["linux-amd64"] };

/** The dynamic resources and the package's plugin (the launcher on the node on PATH). */
export type PluginAlternative = "dynamic" | "plugin";

/** The three ways the same program is served: the two above and the release's standalone plugin (its runtime inside). */
export type Served = PluginAlternative | "standalone";

/** The two plugins whose starts are measured. */
export type StartedPlugin = "plugin" | "standalone";

/** What one stack's deployment leaves in its state. */
export interface StateBytes {
  /** Bytes of the checkpoint file (every resource, the stack's and the providers' included). */
  checkpointFile: number;
  /** Mean bytes of one of the program's resources in `pulumi stack export` (its entry, as compact JSON). */
  perResourceEntry: number;
}

/** The standalone plugin's part: its stack beside the others, the two plugins' starts, the release's artifacts. */
export interface StandaloneResult {
  /** Its lifecycles, one per round, in round order (round i pairs with the others' round i). */
  samples: LifecycleTimes[];
  state: StateBytes;
  /** Each plugin's starts to its first answer, in the same balanced order. */
  startups: Record<StartedPlugin, StartupSample[]>;
  /** The release's artifacts and the standalone plugin's runtime. */
  build: Omit<StandaloneBuild, "folder" | "dispose">;
  /** Whether NODE_COMPILE_CACHE was set (the package's plugin then loads its modules from Node's cache). */
  compileCache: boolean;
}

/** What the plugin benchmark hands to its report. */
export interface PluginBenchResult {
  settings: PluginBenchSettings;
  /** Each alternative's lifecycles, one per round, in round order (so round i pairs with round i). */
  samples: Record<PluginAlternative, LifecycleTimes[]>;
  state: Record<PluginAlternative, StateBytes>;
  standalone?: StandaloneResult;
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
 * Benchmark 9: the same program of `size` resources (half volumes, half endpoints) served by the
 * dynamic resources (bench/programs/runpod-stack), by the package's provider plugin
 * (bench/programs/plugin-stack, its import line changed) and by the release's standalone plugin
 * (the same program, its Pulumi.yaml naming the unpacked plugin), against one in-process emulator
 * on management API v2: `up`, an unchanged preview (its API requests counted) and `destroy`, the
 * three stacks each round in a balanced order; the state of each after its first `up`. Before
 * them, the starts of the two plugins to their first answer, and the release's artifacts' sizes.
 */
export async function runPluginBench(
  s: PluginBenchSettings,
  log: (line: string) => void,
  pulumi: { command: PulumiCommand },
): Promise<PluginBenchResult> {
  const load: [number, number] = [os.loadavg()[0]!, Number.NaN];
  log(`plugin: building the release's artifacts (${s.platforms?.join(", ") ?? "every platform"})`);
  const build = await buildStandalone(s.platforms, cacheRoot(), log);
  // The quota off: the figure is what serves the resources, not the quota's pacing of both alike.
  const { emulator, api } = await startBenchEmulator({ quota: false });
  const stacks: Record<Served, BenchStack | undefined> = {
    dynamic: undefined,
    plugin: undefined,
    standalone: undefined,
  };
  try {
    log(`plugin: ${s.startups} starts of each plugin`);
    const startups = await measureStartups<StartedPlugin>(
      {
        plugin: path.join(REPO_ROOT, "plugin", "pulumi-resource-runpod-iac"),
        standalone: path.join(build.folder, "pulumi-resource-runpod-iac"),
      },
      s.startups ?? 0,
    );
    stacks.dynamic = await createRunpodStack(pulumi.command, emulator, s.size, `dynamic-${s.size}`);
    stacks.plugin = await createPluginStack(pulumi.command, emulator, s.size, `plugin-${s.size}`);
    stacks.standalone = await createStandaloneStack(
      pulumi.command,
      emulator,
      s.size,
      `standalone-${s.size}`,
      build.folder,
    );
    const samples: Record<Served, LifecycleTimes[]> = { dynamic: [], plugin: [], standalone: [] };
    const state: Partial<Record<Served, StateBytes>> = {};
    for (let round = 0; round < s.rounds; round++) {
      for (const alt of interleaved<Served>(["dynamic", "plugin", "standalone"], round)) {
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
    return {
      settings: s,
      samples: { dynamic: samples.dynamic, plugin: samples.plugin },
      state: { dynamic: state.dynamic!, plugin: state.plugin! },
      standalone: {
        samples: samples.standalone,
        state: state.standalone!,
        startups,
        build: { artifacts: build.artifacts, executables: build.executables, node: build.node },
        compileCache: Boolean(process.env.NODE_COMPILE_CACHE?.trim()),
      },
      load,
    };
  } finally {
    await emulator.close();
    for (const stack of Object.values(stacks)) stack?.dispose();
    build.dispose();
  }
}

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

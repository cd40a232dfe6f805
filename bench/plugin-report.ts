import type { PluginAlternative, PluginBenchResult, StateBytes } from "./plugin-bench";
import type { LifecycleTimes } from "./pulumi-bench";
import type { BenchSection, TargetCheck } from "./report";
import { artifactTable, standaloneMethod, standaloneRow, standaloneTargets, startupTable } from "./standalone-report";
import { format, median, medianIntervalNote, pairedRatio, perRoundRatios, shownRatio } from "./stats";

/*
 * The provider plugin's targets: `up` through the plugin at most 1.05x the dynamic resources' time
 * in the same run, no more state per resource than theirs, and an unchanged preview through the
 * plugin that sends no API request; with the release's standalone plugin measured beside them,
 * its own (bench/standalone-report.ts).
 */
const UP_TARGET = 1.05;
const STATE_TARGET = 1;

const UP_MISS =
  "the engine does the same steps for both; what differs is the provider process: the plugin's is the package's server (@pulumi/pulumi's provider server, gRPC, the schema read once) started by the engine from the plugin folder, the dynamic resources' the Node.js dynamic provider host, which deserializes each resource's provider reference. The CPU table shows whether the plugin's processes cost more CPU or the difference is this machine's noise (a confidence interval that straddles the target says this run could not tell). " +
  "What would close it: a CPU profile of the plugin's process during `up` (node --cpu-prof through the launcher), then less work per call there (the secret and undefined passes of plugin/server-gaps.ts walk every result).";
const STATE_MISS =
  "a plugin resource stores its inputs and outputs as the dynamic one does, the schema's secret outputs as ciphertext, and the dynamic provider's reference among its outputs (so a stack can move back). What would close it: drop outputs no reader needs (the state footprint section lists what is stored).";
const PREVIEW_MISS =
  "an unchanged preview runs check and diff only, which read stored state; a request means a step of the plugin's preview reached the client (a read, or check looking something up). What would close it: find the route in the emulator's stats (`GET /_emulator/stats`, `requests.byRoute`) and the step that sends it.";

const OPS = ["up", "preview", "destroy"] as const;
const wall = (samples: readonly LifecycleTimes[], op: (typeof OPS)[number]) => samples.map((t) => t[op]);
const cpu = (samples: readonly LifecycleTimes[], op: (typeof OPS)[number]) => samples.map((t) => t.cpu[op]);

/** Benchmark 8's tables and targets: the plugin against the dynamic resources, the same program, the same run. */
export function pluginSection(result: PluginBenchResult): BenchSection {
  const { size, rounds } = result.settings;
  const { dynamic, plugin } = result.samples;
  const standalone = result.standalone;
  const load = `load ${result.load[0].toFixed(2)} at the start, ${result.load[1].toFixed(2)} at the end`;
  const row = (alt: PluginAlternative, kind: typeof wall) => {
    const samples = result.samples[alt];
    return OPS.map((op) => {
      const shown = format.seconds(median(kind(samples, op)));
      return alt === "dynamic" ? shown : `${shown} (${format.ratio(pairedRatio(kind(plugin, op), kind(dynamic, op)))})`;
    });
  };
  const calls = (alt: PluginAlternative) => Math.max(...result.samples[alt].map((t) => t.previewRequests));
  const changed = (alt: PluginAlternative) => result.samples[alt].some((t) => !t.previewUnchanged);
  const upRatio = pairedRatio(wall(plugin, "up"), wall(dynamic, "up"));
  const perRound = perRoundRatios(wall(plugin, "up"), wall(dynamic, "up"));
  const stateRatio = result.state.plugin.perResourceEntry / result.state.dynamic.perResourceEntry;
  const targets: TargetCheck[] = [
    {
      benchmark: `plugin (${size})`,
      target: `up through the plugin <= ${UP_TARGET}x the dynamic resources'`,
      measured: `${format.ratio(upRatio)}${medianIntervalNote(perRound)}; ${load}`,
      met: shownRatio(upRatio) <= UP_TARGET,
      whyMissed: UP_MISS,
    },
    {
      benchmark: `plugin (${size})`,
      target: "state bytes per resource through the plugin <= the dynamic resources'",
      measured: `${format.bytes(result.state.plugin.perResourceEntry)} against ${format.bytes(result.state.dynamic.perResourceEntry)} (${format.ratio(stateRatio)})`,
      met: Number.isFinite(stateRatio) ? stateRatio <= STATE_TARGET : undefined,
      whyMissed: STATE_MISS,
    },
    {
      benchmark: `plugin (${size})`,
      target: "unchanged preview through the plugin: no change, 0 API requests",
      measured: `${calls("plugin")} requests at most in ${rounds} previews${changed("plugin") ? ", changes proposed" : ""}`,
      met: calls("plugin") === 0 && !changed("plugin"),
      whyMissed: PREVIEW_MISS,
    },
    ...(standalone ? standaloneTargets(result, standalone, load) : []),
  ];
  const stateRow = (name: string, state: StateBytes) => [
    name,
    format.bytes(state.checkpointFile),
    format.bytes(state.checkpointFile / size),
    format.bytes(state.perResourceEntry),
  ];
  return {
    title: "9. The provider plugin against the dynamic resources",
    method: [
      `One program of ${size} independent resources (half NetworkVolume, half ServerlessEndpoint), served two ways against one emulator in the benchmark's process on management API v2, its per-user quota off (it would pace both stacks alike): as the dynamic resources (bench/programs/runpod-stack, \`require("runpod-iac")\`) and through the provider plugin (bench/programs/plugin-stack, \`require("runpod-iac/plugin")\`, its Pulumi.yaml naming the repository's plugin folder, configured by \`runpod-iac:apiUrl\` and \`runpod-iac:queueUrl\`; the key in RUNPOD_API_KEY for both).`,
      `Each of ${rounds} rounds runs ${standalone ? "the three stacks" : "both stacks"} through \`up\`, an unchanged preview and \`destroy\`, in a balanced order (bench/stats.ts \`interleaved\`), every operation with \`parallel\` = ${size}, on the real engine through the Automation API (temporary file backends, a passphrase secrets provider). Times are medians over rounds; the plugin's ratio is the median of the per-round ratio to the dynamic stack of the same round, with the 95% confidence interval of that median (bench/stats.ts \`medianInterval\`).`,
      "Preview API requests: requests the emulator answered during each unchanged preview (`GET /_emulator/stats`), the most of any round. CPU: user + system time of the processes each operation ran (CLI, language host, program, provider), excluding the emulator.",
      "State: after each stack's first `up`, the bytes of its checkpoint file (the stack's and the default provider's resources included) and the mean bytes of one of the program's resources in `pulumi stack export` (its entry as compact JSON: inputs, outputs, the engine's fields); the target compares the latter, which leaves out the per-stack parts that differ (the plugin's provider resource holds its configuration).",
      ...(standalone ? standaloneMethod(standalone) : []),
      `Machine: ${load} (1-minute averages; above the core count, processes waited for a core).`,
    ],
    tables: [
      {
        title: `Wall time, median (the plugin's median per-round ratio to the dynamic resources), ${size} resources`,
        columns: ["served by", "up", "preview", "destroy", "preview API calls"],
        rows: [
          ...(["dynamic", "plugin"] as const).map((alt) => [alt, ...row(alt, wall), String(calls(alt))]),
          ...(standalone ? [standaloneRow(result, standalone, "wall")] : []),
        ],
      },
      {
        title: "CPU time of the Pulumi processes, median (per-round ratio)",
        columns: ["served by", "up", "preview", "destroy"],
        rows: [
          ...(["dynamic", "plugin"] as const).map((alt) => [alt, ...row(alt, cpu)]),
          ...(standalone ? [standaloneRow(result, standalone, "cpu")] : []),
        ],
      },
      {
        title: "State after `up`",
        columns: ["served by", "checkpoint file", "file per resource", "bytes per resource entry"],
        rows: [
          stateRow("dynamic", result.state.dynamic),
          stateRow("plugin", result.state.plugin),
          ...(standalone ? [stateRow("standalone", standalone.state)] : []),
        ],
      },
      ...(standalone ? [startupTable(standalone), artifactTable(standalone)] : []),
    ],
    targets,
    notes: (["dynamic", "plugin"] as const)
      .filter(changed)
      .map((alt) => `The unchanged preview of the ${alt} stack proposed changes in some round.`)
      .concat(
        standalone && standalone.samples.some((t) => !t.previewUnchanged)
          ? ["The unchanged preview of the standalone stack proposed changes in some round."]
          : [],
      ),
  };
}

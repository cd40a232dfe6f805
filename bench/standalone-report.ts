import type { LifecycleTimes } from "./pulumi-bench";
import type { PluginBenchResult, StandaloneResult, StartedPlugin } from "./plugin-bench";
import type { Table, TargetCheck } from "./report";
import type { StartupSample } from "./standalone-plugin";
import { format, median, medianIntervalNote, pairedRatio, perRoundRatios, shownRatio } from "./stats";

/*
 * The standalone plugin's part of benchmark 9's report: its row beside the other two stacks (its
 * ratio is to the package's plugin, the plugin users run today with Node.js on PATH), its targets
 * (`up` at most 1.05x the package's plugin's, an unchanged preview sending nothing), the two
 * plugins' starts to their first answer, and the size of every artifact of the release.
 */

const UP_TARGET = 1.05;

/** The median of one field of a plugin's starts. */
const medianOf = (samples: readonly StartupSample[], field: keyof StartupSample) =>
  median(samples.map((s) => s[field]));

const UP_MISS =
  "both plugins run the same provider code on the same engine; what differs is the process: the standalone one is a Node.js single executable (its program one bundled script, no code cache, a newer Node.js line), the package's plugin loads its modules from disk, from Node's compile cache when NODE_COMPILE_CACHE is set. The start-up table shows whether the difference is in the start (then: a code cache in the blob, built per platform on a machine of that platform) or per request (a CPU profile of the executable during `up`: `--cpu-prof` through NODE_OPTIONS).";
const PREVIEW_MISS =
  "an unchanged preview runs check and diff only, which read stored state; a request means a step of the standalone plugin's preview reached the client. What would close it: find the route in the emulator's stats and the step that sends it (the package's plugin sends none: compare).";

const OPS = ["up", "preview", "destroy"] as const;
type Kind = "wall" | "cpu";
const pick = (samples: readonly LifecycleTimes[], op: (typeof OPS)[number], kind: Kind) =>
  samples.map((t) => (kind === "wall" ? t[op] : t.cpu[op]));

/** The standalone stack's row of the wall or CPU table: each median, with its per-round ratio to the package's plugin. */
export function standaloneRow(result: PluginBenchResult, standalone: StandaloneResult, kind: Kind): string[] {
  const calls = Math.max(...standalone.samples.map((t) => t.previewRequests));
  const cells = OPS.map((op) => {
    const own = pick(standalone.samples, op, kind);
    return `${format.seconds(median(own))} (${format.ratio(pairedRatio(own, pick(result.samples.plugin, op, kind)))})`;
  });
  return kind === "wall" ? ["standalone", ...cells, String(calls)] : ["standalone", ...cells];
}

/** The standalone plugin's targets, against the package's plugin of the same rounds. */
export function standaloneTargets(
  result: PluginBenchResult,
  standalone: StandaloneResult,
  load: string,
): TargetCheck[] {
  const size = result.settings.size;
  const own = pick(standalone.samples, "up", "wall");
  const plugin = pick(result.samples.plugin, "up", "wall");
  const ratio = pairedRatio(own, plugin);
  const calls = Math.max(...standalone.samples.map((t) => t.previewRequests));
  const changed = standalone.samples.some((t) => !t.previewUnchanged);
  return [
    {
      benchmark: `plugin (${size})`,
      target: `up through the standalone plugin <= ${UP_TARGET}x the package's plugin's (Node.js on PATH)`,
      measured: `${format.ratio(ratio)}${medianIntervalNote(perRoundRatios(own, plugin))}; ${load}`,
      met: shownRatio(ratio) <= UP_TARGET,
      whyMissed: UP_MISS,
    },
    {
      benchmark: `plugin (${size})`,
      target: "unchanged preview through the standalone plugin: no change, 0 API requests",
      measured: `${calls} requests at most in ${standalone.samples.length} previews${changed ? ", changes proposed" : ""}`,
      met: calls === 0 && !changed,
      whyMissed: PREVIEW_MISS,
    },
  ];
}

/** The two plugins' starts: medians, and the standalone one's per-start ratio to the package's plugin. */
export function startupTable(standalone: StandaloneResult): Table {
  const { plugin, standalone: own } = standalone.startups;
  const cell = (alt: StartedPlugin, field: keyof StartupSample, show: (n: number) => string) => {
    const shown = show(medianOf(standalone.startups[alt], field));
    if (alt === "plugin") return shown;
    return `${shown} (${format.ratio(
      pairedRatio(
        own.map((s) => s[field]),
        plugin.map((s) => s[field]),
      ),
    )})`;
  };
  const row = (alt: StartedPlugin, name: string) => [
    name,
    cell(alt, "portMs", format.ms),
    cell(alt, "answerMs", format.ms),
    cell(alt, "cpuMs", format.ms),
    cell(alt, "rssBytes", format.mib),
  ];
  return {
    title: `Start to the first answer, median of ${plugin.length} starts each (the standalone plugin's ratio to the package's plugin)`,
    columns: ["plugin", "port printed", "first answer", "CPU by then", "resident memory then"],
    rows: [
      row(
        "plugin",
        `the package's (launcher, Node.js on PATH${standalone.compileCache ? ", NODE_COMPILE_CACHE set" : ""})`,
      ),
      row("standalone", `standalone (Node.js ${standalone.build.node} inside)`),
    ],
  };
}

/** Every artifact of the release with its size; a plugin tarball also with the executable it holds. */
export function artifactTable(standalone: StandaloneResult): Table {
  const executables = new Map(standalone.build.executables);
  return {
    title: "The release's artifacts (`npm run release:artifacts`' code, built by this run)",
    columns: ["artifact", "bytes", "executable inside"],
    rows: standalone.build.artifacts.map(([file, bytes]) => {
      const platform = /-v[^-]+-(\w+-\w+)\.tar\.gz$/.exec(file)?.[1];
      const exe = platform ? executables.get(platform as never) : undefined;
      return [file, format.bytes(bytes), exe === undefined ? "" : format.bytes(exe)];
    }),
  };
}

/** What the method says of the standalone plugin's part. */
export function standaloneMethod(standalone: StandaloneResult): string[] {
  const platforms = standalone.build.executables.map(([p]) => p).join(", ");
  return [
    `The standalone plugin: this machine's plugin of the release, built by \`npm run release:artifacts\`' code in this run (the plugins of ${platforms}; the macOS ones unsigned, as built on Linux), unpacked into a folder its stack's Pulumi.yaml names; the third stack of every round, its ratio taken to the package's plugin (the launcher, on the node on PATH) of the same round. Targets: its \`up\` at most ${UP_TARGET}x the package's plugin's, and an unchanged preview that sends nothing.`,
    "Start: each plugin's executable started as the engine starts it (the engine's address as argument), in a balanced order; the time until it printed its port, then until it answered GetPluginInfo (the engine's first request), and its process's CPU time and resident memory (VmRSS) at that answer.",
  ];
}

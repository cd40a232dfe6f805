import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../scripts/pulumi-cli";
import { BENCH_USAGE, type BenchFlags, parseBenchFlags } from "./bench-flags";
import { CLIENT_FULL, CLIENT_QUICK, runClientBench } from "./client-bench";
import { EMULATOR_FULL, EMULATOR_QUICK, runEmulatorBench } from "./emulator-bench";
import { runManagementBench } from "./management-bench";
import { OPENAI_FULL, OPENAI_QUICK, runOpenAiBench } from "./openai-bench";
import { PAGING_FULL, PAGING_QUICK, runPagingBench } from "./paging-bench";
import { MANAGEMENT_FULL, MANAGEMENT_QUICK } from "./management-settings";
import { PLUGIN_FULL, PLUGIN_QUICK, runPluginBench } from "./plugin-bench";
import { pluginSection } from "./plugin-report";
import { runPodFootprint } from "./pod-footprint";
import { PULUMI_FULL, PULUMI_QUICK, type PulumiBenchSettings, runPulumiBench } from "./pulumi-bench";
import { pulumiSection } from "./pulumi-report";
import { benchPulumiCommand } from "./pulumi-stack";
import { type BenchSection, renderText, sectionText, targetsTable } from "./report";
import { BATCH_FULL, BATCH_QUICK, runBatchBench } from "./batch-bench";
import { batchSection } from "./batch-report";
import { BATCH_API_FULL, BATCH_API_QUICK, runBatchApiBench } from "./batch-api-bench";
import { batchApiSection } from "./batch-api-report";
import { gitRevision, mergeResultsMarkdown, resultsMarkdown } from "./results-markdown";
import { runScaleBench, SCALE_FULL, SCALE_QUICK } from "./scale-bench";
import { ROLLOUT_FULL, ROLLOUT_QUICK, runRolloutBench } from "./rollout-bench";
import { scaleSection } from "./scale-report";
import { stateSection } from "./state-footprint";
import { runVolumeFilesBench, VOLUMES_FULL, VOLUMES_QUICK } from "./volume-files-bench";

/*
 * `npm run bench` (= `npm run build && node --expose-gc dist/bench/run.js`): the benchmarks of
 * docs/benchmarks.md and the scale curve, each running its alternatives side by side, interleaved,
 * over several rounds. Prints a table per benchmark and the targets, and writes bench/RESULTS.md
 * (and the charts next to it, bench/scale.svg) after a full run.
 * It prints figures and never fails on a time; it exits non-zero only when a benchmark cannot run.
 */

/** When only the state footprint is asked for: deploy two sizes once, at 0 ms latency. */
const STATE_ONLY: PulumiBenchSettings = { sizes: [10, 50], latenciesMs: [0], rounds: () => 1 };

const log = (line: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

function print(section: BenchSection): void {
  process.stdout.write(`\n${sectionText(section)}\n`);
}

/** The command as typed, so RESULTS.md says exactly how it was produced. */
function commandLine(args: readonly string[]): string {
  const viaNpm = process.env.npm_lifecycle_event === "bench";
  // Whether GC was exposed is known from inside: say the flag only when it was given.
  const exposed = (globalThis as { gc?: unknown }).gc !== undefined;
  const base = viaNpm ? "npm run bench" : `node${exposed ? " --expose-gc" : ""} dist/bench/run.js`;
  if (args.length === 0) return base;
  return viaNpm ? `${base} -- ${args.join(" ")}` : `${base} ${args.join(" ")}`;
}

async function runAll(flags: BenchFlags): Promise<{ sections: BenchSection[]; pulumiVersion?: string }> {
  const run = await runOneToFive(flags);
  if (flags.only.includes("management")) {
    log("7. management API v2: dialects and quota");
    run.sections.push(await runManagementBench(flags.quick ? MANAGEMENT_QUICK : MANAGEMENT_FULL, log));
    print(run.sections[run.sections.length - 1]!);
  }
  if (flags.only.includes("openai")) {
    log("8. the OpenAI-compatible route against /runsync");
    run.sections.push(await runOpenAiBench(flags.quick ? OPENAI_QUICK : OPENAI_FULL, log));
    print(run.sections[run.sections.length - 1]!);
  }
  if (flags.only.includes("plugin")) {
    log("9. the provider plugin against the dynamic resources");
    const pulumi = await benchPulumiCommand();
    run.pulumiVersion ??= pulumi.version;
    run.sections.push(pluginSection(await runPluginBench(flags.quick ? PLUGIN_QUICK : PLUGIN_FULL, log, pulumi)));
    print(run.sections[run.sections.length - 1]!);
  }
  if (flags.only.includes("volumes")) {
    log("10. volume files over the S3-compatible API");
    run.sections.push(await runVolumeFilesBench(flags.quick ? VOLUMES_QUICK : VOLUMES_FULL, log));
    print(run.sections[run.sections.length - 1]!);
  }
  if (flags.only.includes("paging")) {
    log("11. refresh on paged lists");
    const pulumi = await benchPulumiCommand();
    run.pulumiVersion ??= pulumi.version;
    run.sections.push(await runPagingBench(flags.quick ? PAGING_QUICK : PAGING_FULL, log, pulumi.command));
    print(run.sections[run.sections.length - 1]!);
  }
  if (flags.only.includes("rollout")) {
    log("13. rollouts: pulumi up ends when the endpoints serve");
    const pulumi = await benchPulumiCommand();
    run.pulumiVersion ??= pulumi.version;
    run.sections.push(await runRolloutBench(flags.quick ? ROLLOUT_QUICK : ROLLOUT_FULL, pulumi.command, log));
    print(run.sections[run.sections.length - 1]!);
  }
  return run;
}

/** Benchmarks 1 to 5 (the Pulumi CLI is provided only when one of 3, 4 or 5 runs). */
async function runOneToFive(flags: BenchFlags): Promise<{ sections: BenchSection[]; pulumiVersion?: string }> {
  const sections: BenchSection[] = [];
  const wants = (name: BenchFlags["only"][number]) => flags.only.includes(name);
  if (wants("client")) {
    log("1. job client throughput");
    sections.push(await runClientBench(flags.quick ? CLIENT_QUICK : CLIENT_FULL, log));
    print(sections[sections.length - 1]!);
  }
  if (wants("emulator")) {
    log("2. emulator");
    sections.push(await runEmulatorBench(flags.quick ? EMULATOR_QUICK : EMULATOR_FULL, log));
    print(sections[sections.length - 1]!);
  }
  let pulumiVersion: string | undefined;
  if (wants("pulumi") || wants("state") || wants("scale")) pulumiVersion = await runPulumiBenches(flags, sections);
  if (wants("batch")) {
    log("6. batches at the platform's limits");
    const settings = flags.quick ? BATCH_QUICK : BATCH_FULL;
    sections.push(batchSection(settings, await runBatchBench(settings, log)));
    print(sections[sections.length - 1]!);
  }
  if (wants("batch-api")) {
    log("6b. batch jobs and worker affinity");
    const settings = flags.quick ? BATCH_API_QUICK : BATCH_API_FULL;
    sections.push(batchApiSection(settings, await runBatchApiBench(settings, log)));
    print(sections[sections.length - 1]!);
  }
  return { sections, pulumiVersion };
}

/** Benchmarks 3 to 5, which need the Pulumi CLI; answers its version. */
async function runPulumiBenches(flags: BenchFlags, sections: BenchSection[]): Promise<string> {
  const wants = (name: BenchFlags["only"][number]) => flags.only.includes(name);
  log("providing the Pulumi CLI (scripts/provide-pulumi.sh)");
  const pulumi = await benchPulumiCommand();
  let footprints: Awaited<ReturnType<typeof runPulumiBench>>["footprints"] = [];
  if (wants("pulumi")) {
    log("3. pulumi up scaling");
    const usual = flags.quick ? PULUMI_QUICK : PULUMI_FULL;
    const rounds = flags.pulumiRounds;
    const settings: PulumiBenchSettings = {
      ...usual,
      sizes: flags.pulumiSizes ?? usual.sizes,
      rounds: rounds === undefined ? usual.rounds : () => rounds,
      quota: usual.quota && {
        sizes: flags.pulumiSizes ?? usual.quota.sizes,
        rounds: rounds === undefined ? usual.quota.rounds : () => rounds,
      },
    };
    const result = await runPulumiBench(settings, log, pulumi);
    footprints = result.footprints;
    sections.push(pulumiSection(result, settings));
    print(sections[sections.length - 1]!);
  }
  if (wants("state")) {
    log("4. state footprint");
    // The scaling benchmark's deployments already left their state behind; deploy only when it did not run.
    if (footprints.length === 0) footprints = (await runPulumiBench(STATE_ONLY, log, pulumi)).footprints;
    log("4. state footprint: pods");
    const pods = await runPodFootprint(pulumi.command, log);
    sections.push(stateSection([...footprints, ...pods.footprints], pods.previews));
    print(sections[sections.length - 1]!);
  }
  if (wants("scale")) {
    log("5. scale");
    sections.push(scaleSection(await runScaleBench(flags.quick ? SCALE_QUICK : SCALE_FULL, log, pulumi.command)));
    print(sections[sections.length - 1]!);
  }
  return pulumi.version;
}

async function main(args: string[]): Promise<number> {
  let flags: BenchFlags;
  try {
    flags = parseBenchFlags(args, path.join(REPO_ROOT, "bench", "RESULTS.md"));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${BENCH_USAGE}`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(BENCH_USAGE);
    return 0;
  }
  const date = new Date();
  const started = Date.now();
  // Before anything runs: `npm run bench` built the package from this commit.
  const commit = gitRevision(REPO_ROOT);
  const loadAtStart = os.loadavg()[0]!;
  const { sections, pulumiVersion } = await runAll(flags);
  process.stdout.write(`\n${renderText(targetsTable(sections))}\n`);
  if (flags.resultsFile) {
    const context = {
      date,
      command: commandLine(args),
      quick: flags.quick,
      wallMs: Date.now() - started,
      pulumiVersion,
      commit,
      loadAverages: [loadAtStart, os.loadavg()[0]!] as [number, number],
    };
    const markdown =
      flags.merge && fs.existsSync(flags.resultsFile)
        ? mergeResultsMarkdown(fs.readFileSync(flags.resultsFile, "utf8"), context, sections)
        : resultsMarkdown(context, sections);
    fs.writeFileSync(flags.resultsFile, markdown);
    log(`wrote ${path.relative(process.cwd(), flags.resultsFile)}`);
    for (const chart of sections.flatMap((s) => s.charts ?? [])) {
      const file = path.join(path.dirname(flags.resultsFile), chart.file);
      fs.writeFileSync(file, chart.svg);
      log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  } else {
    log(
      "no report written (a --quick or --only run prints only, but for batch, batch-api, management, openai, plugin, volumes, paging or rollout alone; pass --out FILE to write one)",
    );
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

import type { Alternative, LifecycleTimes, Operation, PulumiBenchResult, PulumiBenchSettings } from "./pulumi-bench";
import type { BenchSection, TargetCheck } from "./report";
import { format, median, pairedDifference, pairedRatio, shownRatio } from "./stats";

const OPERATIONS: Operation[] = ["up", "preview", "refresh", "destroy"];

const wall = (alt: Alternative, op: Operation) => alt.samples.map((t: LifecycleTimes) => t[op]);
const cpu = (alt: Alternative, op: Operation) => alt.samples.map((t: LifecycleTimes) => t.cpu[op]);
const med = (alt: Alternative, op: Operation) => median(wall(alt, op));
/** Median over rounds of this round's time over the same round's baseline time. */
const ratio = (alt: Alternative, base: Alternative, op: Operation) => pairedRatio(wall(alt, op), wall(base, op));

/** Benchmark 3's tables and targets: medians per size and alternative, ratios to the no-op baseline. */
export function pulumiSection(result: PulumiBenchResult, s: PulumiBenchSettings): BenchSection {
  const rows: string[][] = [];
  const cpuRows: string[][] = [];
  const targets: TargetCheck[] = [];
  const notes: string[] = [];
  if (s.latenciesMs.some((l) => l > 0)) {
    notes.push(
      `The fault rule delayed ${format.int(result.delayedRequests)} management API requests in the runs with injected latency (\`GET /_emulator/stats\`, \`faults.latency\`): the latency was applied even where it did not lengthen \`up\`.`,
    );
  }
  for (const size of s.sizes) {
    const row = result.alternatives.filter((a) => a.size === size);
    const baseline = row.find((a) => a.latencyMs === undefined)!;
    for (const alt of row) {
      const cells = OPERATIONS.map((op) =>
        alt === baseline
          ? format.seconds(med(alt, op))
          : `${format.seconds(med(alt, op))} (${format.ratio(ratio(alt, baseline, op))})`,
      );
      const calls = alt.samples.map((t) => t.previewRequests);
      rows.push([`${size}`, alt.name, ...cells, alt === baseline ? "-" : String(Math.max(...calls))]);
      cpuRows.push([
        `${size}`,
        alt.name,
        ...OPERATIONS.map((op) =>
          alt === baseline
            ? format.seconds(median(cpu(alt, op)))
            : `${format.seconds(median(cpu(alt, op)))} (${format.ratio(pairedRatio(cpu(alt, op), cpu(baseline, op)))})`,
        ),
      ]);
      if (alt.samples.some((t) => !t.previewUnchanged)) {
        notes.push(`${alt.name} with ${size} resources: the preview of the unchanged stack proposed changes.`);
      }
    }
    targets.push(...sizeTargets(size, row, baseline));
  }
  return {
    title: "3. `pulumi up` scaling",
    method: [
      `Stacks of ${s.sizes.join(", ")} independent resources (half NetworkVolume, half ServerlessEndpoint; bench/programs/runpod-stack) against an emulator in the benchmark's process, with ${s.latenciesMs.join(" and ")} ms latency injected on every \`/v1\` call (fault rule \`{ route: "/v1", latencyMs }\`), versus a baseline of the same number of no-op dynamic resources (bench/programs/noop-stack, a provider whose create returns at once).`,
      `Each round runs the baseline and each latency through up, an unchanged preview, refresh and destroy, in a rotated order; rounds per size: ${s.sizes.map((n) => `${n}: ${s.rounds(n)}`).join(", ")} (kept small for the total run time: these figures are the noisiest of the run). Times are medians over rounds; ratios and differences are medians of the per-round ratio or difference to the same round's baseline.`,
      "Real Pulumi engine through the Automation API (the CLI from scripts/provide-pulumi.sh, a temporary file backend, a passphrase secrets provider); every operation runs with `parallel` = the number of resources (full parallelism; the CLI's default is 4 x cores = 8 here), the same for the baseline. Times include the CLI's own start-up, identical for both.",
      "Preview API calls: requests the emulator answered during the unchanged preview (`GET /_emulator/stats`).",
      "CPU time: user + system CPU of the processes the operation ran (the CLI waits for its language host and plugins; Linux `cutime + cstime`), excluding the emulator. It does not depend on what else the machine is doing, so it shows where our resources cost more than no-op ones when wall times are noisy. Targets are checked on wall time, as the issue states them; ratios are compared at the two decimals shown.",
    ],
    tables: [
      {
        title: "Wall time, median (median per-round ratio to the no-op baseline of the same size)",
        columns: ["resources", "stack", "up", "preview", "refresh", "destroy", "preview API calls"],
        textColumns: 2,
        rows,
      },
      {
        title:
          "CPU time of the Pulumi processes (CLI, language host, program, providers), median (per-round ratio to baseline)",
        columns: ["resources", "stack", "up", "preview", "refresh", "destroy"],
        textColumns: 2,
        rows: cpuRows,
      },
    ],
    targets,
    notes,
  };
}

function sizeTargets(size: number, row: Alternative[], baseline: Alternative): TargetCheck[] {
  const targets: TargetCheck[] = [];
  const at = (latency: number) => row.find((a) => a.latencyMs === latency);
  const zero = at(0);
  if (zero) {
    const upRatio = ratio(zero, baseline, "up");
    const previewRatio = ratio(zero, baseline, "preview");
    const calls = Math.max(
      ...row.filter((a) => a !== baseline).flatMap((a) => a.samples.map((t) => t.previewRequests)),
    );
    targets.push(
      {
        benchmark: `pulumi (${size})`,
        target: "up at 0 ms <= 1.3x baseline",
        measured: format.ratio(upRatio),
        met: shownRatio(upRatio) <= 1.3,
        whyMissed: UP_MISS,
      },
      {
        benchmark: `pulumi (${size})`,
        target: "unchanged preview <= 1.1x baseline, 0 API calls",
        measured: `${format.ratio(previewRatio)}, ${calls} calls`,
        met: shownRatio(previewRatio) <= 1.1 && calls === 0,
        whyMissed: PREVIEW_MISS,
      },
    );
  }
  for (const alt of row) {
    if (!alt.latencyMs) continue;
    const extra = pairedDifference(wall(alt, "up"), wall(baseline, "up"));
    // What the latency itself added, next to what our resources cost at 0 ms.
    const fromLatency = zero
      ? `; up at 0 ms ${format.deltaMs(pairedDifference(wall(alt, "up"), wall(zero, "up")))}`
      : "";
    targets.push({
      benchmark: `pulumi (${size})`,
      target: `up at ${alt.latencyMs} ms <= baseline + ${3 * alt.latencyMs} ms`,
      measured: `baseline ${format.deltaMs(extra)}${fromLatency}`,
      met: extra <= 3 * alt.latencyMs,
      whyMissed: LATENCY_MISS,
    });
  }
  return targets;
}

/*
 * The reasons below come from experiments run while writing this benchmark, measuring the CPU
 * time of the Pulumi processes (as the second table does) over interleaved rounds, 100 resources:
 * - the no-op baseline padded to our state size (a 1.4 KB constant captured by its provider, our
 *   outputs' extra fields) cost as much CPU as our resources did: up 7.7 s, preview 5.0 s,
 *   destroy 5.2 s, against ours 8.7 s, 5.0 s, 5.7 s and the plain baseline's 6.1 s, 4.3 s, 3.5 s;
 * - our stack with PULUMI_SKIP_CHECKPOINTS=true cost no more than the baseline (up 6.0 s, destroy 2.0 s);
 * - before commit dd1a93b, requiring pulumi-runpod in the program cost about 120 ms per process
 *   (zod, undici, the schemas) and pulumi-runpod/impl in the dynamic-provider process about 160 ms;
 *   dd1a93b made the root entry load only the resource classes and the provider load the client lazily.
 */

/** Shown when `up` at 0 ms is over 1.3x the baseline. */
const UP_MISS =
  "the file backend rewrites the whole checkpoint after every resource step, so `up` and `destroy` cost O(n x state size); our resources hold 5.8 KB of state each against the no-op's 2.3 KB, mostly the serialized provider (`__provider`, ~1.96 KB) stored twice (inputs and outputs). A no-op baseline padded to our state size costs as much CPU; our stack with `PULUMI_SKIP_CHECKPOINTS=true` costs no more than the baseline. " +
  "What would close it: a smaller `__provider` (provider/serialized-providers.ts: each of the 7 methods carries ~200 B of serializer wrapping around a ~70 B body) and fewer echoed outputs (e.g. the full default `dataCenterIds` list, `createdAt`, `userId`, `version`); on the engine side, `PULUMI_SKIP_CHECKPOINTS=true` in CI or a backend that journals deltas.";
/** Shown when the unchanged preview is over 1.1x the baseline or calls the API. */
const PREVIEW_MISS =
  "the preview makes no API calls and, since commit dd1a93b, loads neither zod nor undici into the program; what remains grows with the stack: each resource's inputs carry the ~2 KB `__provider` through RegisterResource, Check and Diff, and the engine loads a checkpoint 2.5x the baseline's. A no-op baseline padded to our state size previewed at the same CPU as ours (5.0 s against the plain baseline's 4.3 s, 100 resources). " +
  "What would close it: the same as for `up`: a smaller `__provider` and fewer stored outputs.";
/** Shown when `up` with injected latency is over the baseline plus three latencies. */
const LATENCY_MISS =
  "the latency itself is not the cost: each create makes 2 sequential calls (the lookup that makes creates idempotent, then the create), within the 3 x budget, and its own share is the 'up at 0 ms' difference (between -100 and +650 ms across this benchmark's full runs: with 2 cores busy, waiting partly overlaps the engine's CPU work and partly adds to it); the rest is the 0 ms overhead over the baseline (checkpoint size, see the 'up at 0 ms' target), which grows with the stack. " +
  "What would close it: what closes that overhead (a smaller state per resource).";

import type { BenchSection, Table } from "./report";
import { type ChartSeries, renderLineChart } from "./scale-chart";
import { format, median, pairedRatio } from "./stats";

/** The operations the scale benchmark times. */
export const SCALE_OPERATIONS = ["up", "preview", "destroy"] as const;
/** One of them. */
export type ScaleOperation = (typeof SCALE_OPERATIONS)[number];

/** The stacks compared at each size. */
export type ScaleProgram = "ours" | "baseline" | "ours, no checkpoints";

/** One program at one size: wall times per round, and the state file `up` left. */
export interface ScalePoint {
  program: ScaleProgram;
  size: number;
  /** ms per round, in round order (paired with the other programs' rounds of the same size). */
  times: Record<ScaleOperation, number[]>;
  /** Bytes of the backend's stack file right after the first `up`. */
  stateFileBytes: number;
}

/** What the scale benchmark measured. */
export interface ScaleResult {
  sizes: number[];
  rounds: (size: number) => number;
  points: ScalePoint[];
  /** API requests answered during the unchanged previews of ours (should be 0). */
  previewRequests: number;
}

/** Where the chart goes, next to RESULTS.md. */
export const SCALE_CHART_FILE = "scale.svg";

/**
 * How much a time multiplies per tenfold more resources, from (n1, t1) to (n2, t2):
 * (t2 / t1) ^ (1 / log10(n2 / n1)). From 10 to 100 that is t100 / t10; from 100 to 500 it is
 * (t500 / t100) ^ 1.43. 1 means flat, 10 linear, 100 quadratic (fixed start-up costs pull it
 * toward 1). NaN when a time is missing or not positive, or n2 <= n1.
 */
export function growthPer10x(n1: number, t1: number, n2: number, t2: number): number {
  if (!(n1 > 0 && n2 > n1 && t1 > 0 && t2 > 0) || !Number.isFinite(t1) || !Number.isFinite(t2)) return Number.NaN;
  return (t2 / t1) ** (1 / Math.log10(n2 / n1));
}

const point = (r: ScaleResult, program: ScaleProgram, size: number) =>
  r.points.find((p) => p.program === program && p.size === size);
const medianMs = (p: ScalePoint | undefined, op: ScaleOperation) => (p ? median(p.times[op]) : Number.NaN);
const ratioTo = (p: ScalePoint | undefined, base: ScalePoint | undefined, op: ScaleOperation) =>
  p && base ? pairedRatio(p.times[op], base.times[op]) : Number.NaN;
/** The growth per 10x into `size` from the size before it; NaN for the first size. */
function growthInto(r: ScaleResult, program: ScaleProgram, size: number, op: ScaleOperation): number {
  const i = r.sizes.indexOf(size);
  if (i <= 0) return Number.NaN;
  const prev = r.sizes[i - 1]!;
  return growthPer10x(prev, medianMs(point(r, program, prev), op), size, medianMs(point(r, program, size), op));
}
const growthCell = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)}x` : "-");

function timeTable(r: ScaleResult, withSkip: boolean): Table {
  const rows: string[][] = [];
  for (const op of SCALE_OPERATIONS) {
    for (const size of r.sizes) {
      const ours = point(r, "ours", size);
      const base = point(r, "baseline", size);
      const skip = point(r, "ours, no checkpoints", size);
      rows.push([
        op,
        String(size),
        format.seconds(medianMs(ours, op)),
        format.seconds(medianMs(base, op)),
        format.ratio(ratioTo(ours, base, op)),
        ...(withSkip ? [`${format.seconds(medianMs(skip, op))} (${format.ratio(ratioTo(skip, base, op))})`] : []),
        growthCell(growthInto(r, "ours", size, op)),
        growthCell(growthInto(r, "baseline", size, op)),
      ]);
    }
  }
  return {
    title:
      "Wall time, median of rounds (ours / baseline: median per-round ratio; growth: per 10x resources from the size above)",
    columns: [
      "operation",
      "resources",
      "ours",
      "baseline",
      "ours / baseline",
      ...(withSkip ? ["ours, no checkpoints (/ baseline)"] : []),
      "ours growth/10x",
      "baseline growth/10x",
    ],
    textColumns: 1,
    rows,
  };
}

function stateTable(r: ScaleResult): Table {
  return {
    title: "State file after `up` (the file backend's stack file)",
    columns: ["resources", "ours", "baseline", "ours / baseline", "ours B/resource", "baseline B/resource"],
    rows: r.sizes.map((size) => {
      const ours = point(r, "ours", size)?.stateFileBytes ?? Number.NaN;
      const base = point(r, "baseline", size)?.stateFileBytes ?? Number.NaN;
      return [
        String(size),
        format.bytes(ours),
        format.bytes(base),
        format.ratio(ours / base),
        format.bytes(ours / size),
        format.bytes(base / size),
      ];
    }),
  };
}

const COLORS: Record<ScaleOperation, string> = { up: "#1f77b4", preview: "#2ca02c", destroy: "#d62728" };

/** The chart's series: one per operation and {ours, baseline}, in seconds. */
export function scaleChartSeries(r: ScaleResult): ChartSeries[] {
  return SCALE_OPERATIONS.flatMap((op) =>
    (["ours", "baseline"] as const).map((program) => ({
      label: `${op}, ${program === "ours" ? "ours" : "no-op baseline"}`,
      color: COLORS[op],
      dashed: program === "baseline",
      points: r.sizes.map((size) => ({ x: size, y: medianMs(point(r, program, size), op) / 1000 })),
    })),
  );
}

/**
 * What the figures say about the engine's share, worded from this run's figures: the baseline's
 * growth per 10x over the last interval (above 10 is faster than linear, and the no-op provider
 * does no work, so that is the engine's) and, at the largest size, ours with and without checkpoints.
 */
function engineNotes(r: ScaleResult): string[] {
  const notes: string[] = [];
  const n = r.sizes[r.sizes.length - 1]!;
  for (const op of ["up", "destroy"] as const) {
    const g = growthInto(r, "baseline", n, op);
    if (Number.isFinite(g) && g > 10) {
      notes.push(
        `The no-op baseline's \`${op}\` grows ${g.toFixed(1)}x per 10x resources into ${n} (linear would be 10x): the no-op provider does nothing, so the super-linear part is the engine's, consistent with the file backend rewriting the whole checkpoint after every step (cost ~ n x state size).`,
      );
    }
  }
  const ours = point(r, "ours", n);
  const base = point(r, "baseline", n);
  const skip = point(r, "ours, no checkpoints", n);
  if (ours && base && skip) {
    const withCheckpoints = ratioTo(ours, base, "up");
    const without = ratioTo(skip, base, "up");
    const verdict =
      without < withCheckpoints
        ? "the difference is what the engine's per-step checkpoint writes cost at this size; only the engine (or skipping checkpoints, docs/benchmarks.md) can remove it"
        : "skipping checkpoints did not make ours cheaper here, so checkpoint writing does not explain the gap at this size";
    notes.push(
      `At ${n} resources \`up\` takes ${format.ratio(withCheckpoints)} the baseline with checkpoints and ${format.ratio(without)} with \`PULUMI_SKIP_CHECKPOINTS=true\` (which writes the state once, at the end): ${verdict}.`,
    );
  }
  return notes;
}

/** The scale benchmark's section, with its chart. */
export function scaleSection(r: ScaleResult): BenchSection {
  const withSkip = r.points.some((p) => p.program === "ours, no checkpoints");
  const single = r.sizes.filter((n) => r.rounds(n) === 1);
  const notes = engineNotes(r);
  if (r.previewRequests > 0)
    notes.push(`The unchanged previews of ours made ${r.previewRequests} API calls (expected 0).`);
  return {
    title: "5. Scale: `up`, unchanged preview and `destroy` from 10 to many resources",
    method: [
      `Stacks of ${r.sizes.join(", ")} resources: ours (bench/programs/runpod-stack against an in-process emulator on management API v2 without its per-user quota, 0 ms latency; section 3 has rows under the quota) and the no-op dynamic-resource baseline (bench/programs/noop-stack)${withSkip ? ", and ours again with `PULUMI_SKIP_CHECKPOINTS=true` (the engine writes the state once, at the end, instead of after every step)" : ""}, each through up, an unchanged preview and destroy, interleaved in a balanced order per round (bench/stats.ts \`interleaved\`), \`parallel\` = the number of resources, a file backend per stack.`,
      `Rounds per size: ${r.sizes.map((n) => `${n}: ${r.rounds(n)}`).join(", ")}.${single.length > 0 ? ` With one round (${single.join(", ")} resources) each figure is a single sample, not a median: read it as an order of magnitude, and its ratio as noisier than the others.` : ""}`,
      "Growth per 10x: how much the median time multiplies per tenfold more resources, from the size above in the table to this one, (t2 / t1) ^ (1 / log10(n2 / n1)): t100 / t10 from 10 to 100, (t500 / t100) ^ 1.43 from 100 to 500. 10x is linear, 100x quadratic; the CLI's fixed start-up pulls small stacks toward 1x.",
      "State file: bytes of the backend's stack file right after the first `up` of that stack.",
      `Chart: [bench/${SCALE_CHART_FILE}](${SCALE_CHART_FILE}), seconds against resources on a log scale; solid lines ours, dashed lines the baseline.`,
    ],
    tables: [timeTable(r, withSkip), stateTable(r)],
    targets: [],
    notes,
    charts: [
      {
        file: SCALE_CHART_FILE,
        alt: "Wall time of up, unchanged preview and destroy against the number of resources, ours and the no-op baseline",
        svg: renderLineChart({
          title: "runpod-iac vs no-op dynamic resources: wall time by stack size",
          xLabel: "resources (log scale)",
          yLabel: "seconds (median)",
          xTicks: r.sizes,
          series: scaleChartSeries(r),
        }),
      },
    ],
  };
}

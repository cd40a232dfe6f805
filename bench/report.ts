/** One table of figures. */
export interface Table {
  title: string;
  columns: string[];
  rows: string[][];
  /** Leading columns holding words rather than figures, aligned left. Default 1. */
  textColumns?: number;
}

/** One target of a benchmark and how this run did against it. */
export interface TargetCheck {
  benchmark: string;
  target: string;
  measured: string;
  /** `undefined` when this run could not tell (e.g. a step was skipped in `--quick`). */
  met: boolean | undefined;
  /** Why a target was missed and what would close it (shown only when missed). */
  whyMissed?: string;
}

/** A chart a benchmark draws: written as `file` next to the report, which embeds it. */
export interface Chart {
  /** File name, relative to the report's folder, e.g. `scale.svg`. */
  file: string;
  /** Text for the image's alt attribute. */
  alt: string;
  /** The whole SVG document. */
  svg: string;
}

/** What one benchmark hands back: its tables, the targets it checked, and notes on method. */
export interface BenchSection {
  title: string;
  /** How it was measured (rounds, concurrency, emulator flags, ...). */
  method: string[];
  tables: Table[];
  targets: TargetCheck[];
  /** Observations worth keeping next to the figures (profiles, anomalies). */
  notes: string[];
  /** Charts of the figures, written next to the report when one is written. */
  charts?: Chart[];
}

function widths(table: Table): number[] {
  return table.columns.map((c, i) => Math.max(c.length, ...table.rows.map((r) => (r[i] ?? "").length)));
}

/** A table aligned for a terminal. */
export function renderText(table: Table): string {
  const w = widths(table);
  const text = table.textColumns ?? 1;
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < text ? c.padEnd(w[i]!) : c.padStart(w[i]!)))
      .join("  ")
      .trimEnd();
  return [table.title, line(table.columns), w.map((n) => "-".repeat(n)).join("  "), ...table.rows.map(line)].join("\n");
}

/** A table as GitHub markdown (text columns left-aligned, figures right-aligned); `titled: false` drops the title line. */
export function renderMarkdown(table: Table, titled = true): string {
  const escapeCell = (c: string) => c.replace(/\|/g, "\\|");
  const head = `| ${table.columns.map(escapeCell).join(" | ")} |`;
  const text = table.textColumns ?? 1;
  const rule = `|${table.columns.map((_, i) => (i < text ? " --- " : " ---: ")).join("|")}|`;
  const body = table.rows.map((r) => `| ${r.map(escapeCell).join(" | ")} |`);
  return [...(titled ? [`**${table.title}**`, ""] : []), head, rule, ...body].join("\n");
}

/** The verdict column of the targets table. */
export function verdict(met: boolean | undefined): string {
  if (met === undefined) return "not measured";
  return met ? "met" : "MISSED";
}

/** Every target of every section as one table. */
export function targetsTable(sections: readonly BenchSection[]): Table {
  return {
    title: "Targets",
    columns: ["benchmark", "target", "measured", "verdict"],
    textColumns: 2,
    rows: sections.flatMap((s) => s.targets.map((t) => [t.benchmark, t.target, t.measured, verdict(t.met)])),
  };
}

/** A section for the terminal. */
export function sectionText(section: BenchSection): string {
  const parts = [`== ${section.title} ==`, ...section.tables.map(renderText)];
  for (const chart of section.charts ?? [])
    parts.push(`chart: ${chart.file} (written next to the report when one is written)`);
  for (const note of section.notes) parts.push(`note: ${note}`);
  return parts.join("\n\n");
}

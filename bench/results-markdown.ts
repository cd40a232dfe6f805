import { execFileSync } from "node:child_process";
import * as os from "node:os";
import { type BenchSection, renderMarkdown, type TargetCheck, targetsTable } from "./report";

/** Where and how a run happened, for the head of the report. */
export interface RunContext {
  date: Date;
  /** The command as a user types it, e.g. `npm run bench`. */
  command: string;
  quick: boolean;
  wallMs: number;
  pulumiVersion: string | undefined;
  /**
   * The commit the run measured, read when it started ({@link gitRevision}): the package is built
   * then, and a commit made while a two-hour run goes on must not be credited with its figures.
   */
  commit: string;
  /** 1-minute load averages at the start and end of the run (other work on the machine shows here). */
  loadAverages: [number, number];
}

/** The short commit of `cwd`'s HEAD, marked when the work tree has uncommitted changes. */
export function gitRevision(cwd: string): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd, encoding: "utf8" }).trim() !== "";
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return "unknown";
  }
}

/** The machine lines that make figures comparable (or not) between runs. */
export function machineLines(ctx: RunContext): string[] {
  const cpus = os.cpus();
  return [
    `- Date: ${ctx.date.toISOString()}`,
    `- Command: \`${ctx.command}\`${ctx.quick ? " (quick mode: small sizes, one round; not comparable to a full run)" : ""}`,
    `- Machine: ${cpus.length} cores (\`os.cpus().length\`), ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}`,
    `- Node.js ${process.version}${ctx.pulumiVersion ? `, Pulumi CLI ${ctx.pulumiVersion}` : ""}`,
    `- Commit: ${ctx.commit}`,
    `- Total wall time: ${(ctx.wallMs / 60_000).toFixed(1)} min; 1-minute load average ${ctx.loadAverages[0].toFixed(2)} at the start, ${ctx.loadAverages[1].toFixed(2)} at the end (above 0 means other processes shared the cores)`,
  ];
}

/** The whole RESULTS.md: context, every target with its verdict, then each benchmark's method, tables and notes. */
export function resultsMarkdown(ctx: RunContext, sections: readonly BenchSection[]): string {
  const out: string[] = [
    "# Benchmark results",
    "",
    "Written by `npm run bench` (bench/run.ts); regenerate rather than edit. Absolute times on a shared",
    "2-core machine are noisy; compare the ratios between alternatives measured side by side in the same run.",
    "Benchmarks print figures and never fail on a time.",
    "",
    ...machineLines(ctx),
    "",
    "## Targets",
    "",
    renderMarkdown(targetsTable(sections), false),
    "",
  ];
  const missed = sections.flatMap((s) => s.targets.filter((t) => t.met === false));
  if (missed.length > 0) {
    out.push("### Missed targets: why, and what would close them", "");
    // One entry per reason: targets that miss for the same reason share it.
    const reasons = new Map<string, TargetCheck[]>();
    for (const t of missed) reasons.set(t.whyMissed ?? "", [...(reasons.get(t.whyMissed ?? "") ?? []), t]);
    for (const [why, targets] of reasons) {
      const which = targets.map((t) => `**${t.benchmark}: ${t.target}** (measured ${t.measured})`).join("; ");
      out.push(`- ${which}: ${why}`);
    }
    out.push("");
  }
  for (const section of sections) {
    out.push(`## ${section.title}`, "", ...section.method.map((m) => `- ${m}`), "");
    for (const table of section.tables) out.push(renderMarkdown(table), "");
    for (const chart of section.charts ?? []) out.push(`![${chart.alt}](${chart.file})`, "");
    if (section.notes.length > 0) out.push("Notes:", "", ...section.notes.map((n) => `- ${n}`), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

/**
 * Replaces `sections` (and their rows of the Targets table) in an existing report, keeping the
 * rest: a benchmark run alone (`--only batch`) next to the last full run. Each replaced section
 * says when and how it was measured, since the report's head describes the other run. A
 * section not yet in the report is appended; a missed target's reason goes into the section's
 * notes (the head's list of missed targets belongs to the full run).
 */
export function mergeResultsMarkdown(existing: string, ctx: RunContext, sections: readonly BenchSection[]): string {
  let lines = existing.trimEnd().split("\n");
  for (const section of sections) {
    const own = new Set(section.targets.map((t) => t.benchmark));
    const tableStart = lines.indexOf("## Targets");
    if (tableStart >= 0) {
      let end = tableStart + 1;
      while (end < lines.length && !lines[end]!.startsWith("## ")) end++;
      const kept = lines.slice(tableStart, end).filter((l) => !own.has(l.split("|")[1]?.trim() ?? ""));
      const lastRow = kept.map((l) => l.startsWith("| ")).lastIndexOf(true);
      const rows = renderMarkdown(targetsTable([section]), false)
        .split("\n")
        .slice(2);
      kept.splice(lastRow + 1, 0, ...rows);
      lines = [...lines.slice(0, tableStart), ...kept, ...lines.slice(end)];
    }
    const missed = section.targets.filter((t) => t.met === false);
    const measured = machineLines(ctx).map((l) => l.replace(/^- /, ""));
    const body = [
      `## ${section.title}`,
      "",
      `- Measured alone, not in the run the head of this report describes: ${measured.join("; ")}.`,
      ...section.method.map((m) => `- ${m}`),
      "",
      ...section.tables.flatMap((t) => [renderMarkdown(t), ""]),
    ];
    const notes = [
      ...section.notes,
      ...missed.map((t) => `Missed: ${t.target} (measured ${t.measured}): ${t.whyMissed ?? ""}`),
    ];
    if (notes.length > 0) body.push("Notes:", "", ...notes.map((n) => `- ${n}`), "");
    const start = lines.indexOf(`## ${section.title}`);
    if (start < 0) lines = [...lines, "", ...body];
    else {
      let end = start + 1;
      while (end < lines.length && !lines[end]!.startsWith("## ")) end++;
      lines = [...lines.slice(0, start), ...body, ...lines.slice(end)];
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

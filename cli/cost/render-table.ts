import type { BillingBucketSize } from "../../sdk/schemas/billing";
import type { SpendReport } from "./spend";

/** `$12.34`; amounts under a cent show four decimals (`$0.0042`), so a small spend is not `$0.00`. */
export function formatUsd(amount: number): string {
  const abs = Math.abs(amount);
  const digits = abs > 0 && abs < 0.01 ? 4 : 2;
  return `${amount < 0 ? "-" : ""}$${abs.toFixed(digits)}`;
}

/** A bucket's start as its label: the hour, the day, the week's Monday, the month or the year (UTC). */
export function bucketLabel(start: string, size: BillingBucketSize): string {
  const iso = new Date(Date.parse(start)).toISOString();
  switch (size) {
    case "hour":
      return `${iso.slice(0, 13)}:00`;
    case "day":
    case "week":
      return iso.slice(0, 10);
    case "month":
      return iso.slice(0, 7);
    case "year":
      return iso.slice(0, 4);
  }
}

function table(header: string[], rows: string[][], footer: string[]): string[] {
  const all = [header, ...rows, footer];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  // The last column (amounts) is right-aligned, the others left-aligned.
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line), rule, line(footer)];
}

/** The report as the text `runpod-iac cost` prints: per resource, per bucket, totals, then any notes. */
export function renderTable(report: SpendReport, notes: readonly string[] = []): string {
  const window = `${report.since} to ${report.until}`;
  const out = [`Spend of stack ${report.stack}, ${window}, in ${report.currency}, by ${report.bucket}`, ""];
  const resourceRows = report.resources.map((r) => [r.name, r.type, r.id, formatUsd(r.amount)]);
  out.push(
    ...table(["RESOURCE", "TYPE", "ID", "AMOUNT"], resourceRows, ["TOTAL", "", "", formatUsd(report.total)]),
    "",
  );
  const bucketRows = report.buckets.map((b) => {
    const sum = report.resources.reduce((s, r) => s + (r.byBucket[b] ?? 0), 0);
    return [bucketLabel(b, report.bucket), formatUsd(sum)];
  });
  const bucketHeader = `${report.bucket.toUpperCase()} (UTC)`;
  out.push(...table([bucketHeader, "AMOUNT"], bucketRows, ["TOTAL", formatUsd(report.total)]));
  const accountWide = report.resources.filter((r) => r.scope === "account");
  if (accountWide.length > 0) {
    out.push(
      "",
      "Management API v1 bills network volumes per account, not per volume: that row is every volume of the account.",
    );
  }
  if (notes.length > 0) out.push("", ...notes);
  return `${out.join("\n")}\n`;
}

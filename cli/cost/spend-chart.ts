import { escapeXml, niceStep } from "../chart/chart-scale";
import { bucketLabel, formatUsd } from "./render-table";
import type { SpendReport } from "./spend";

/*
 * `runpod-iac cost --svg`: spend per bucket as stacked bars, one colour per resource, written by
 * hand (a chart library for one chart is not worth a dependency). Each bar is a bucket, its height
 * the bucket's total, its segments the resources; the total is written above the bar, the legend
 * names each resource with its amount, and every segment carries a tooltip.
 */

const WIDTH = 900;
const HEIGHT = 480;
const PLOT = { left: 80, right: 620, top: 60, bottom: 400 };
/** Distinct colours (Tableau 10), repeated past ten resources. */
const COLORS = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

const round = (n: number) => Math.round(n * 10) / 10;

/** The chart of a report as a standalone SVG document. */
export function renderSpendChart(report: SpendReport): string {
  const buckets = report.buckets;
  const totals = buckets.map((b) => report.resources.reduce((s, r) => s + (r.byBucket[b] ?? 0), 0));
  const step = niceStep(Math.max(0, ...totals), 5);
  const yMax = step * Math.max(1, Math.ceil(Math.max(0, ...totals) / step));
  const py = (y: number) => round(PLOT.bottom - (y / yMax) * (PLOT.bottom - PLOT.top));
  const slot = (PLOT.right - PLOT.left) / Math.max(1, buckets.length);
  const barWidth = round(Math.min(60, slot * 0.7));
  const title = `Spend of stack ${report.stack} by ${report.bucket}: ${formatUsd(report.total)} in total`;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="26" text-anchor="middle" font-size="15">${escapeXml(title)}</text>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="44" text-anchor="middle" fill="#555">${escapeXml(`${report.since} to ${report.until}`)}</text>`,
  ];
  for (let y = 0; y <= yMax + step / 2; y += step) {
    out.push(
      `<line x1="${PLOT.left}" y1="${py(y)}" x2="${PLOT.right}" y2="${py(y)}" stroke="#ddd"/>`,
      `<text x="${PLOT.left - 8}" y="${py(y) + 4}" text-anchor="end">${escapeXml(formatUsd(y))}</text>`,
    );
  }
  // Label every bucket when they fit, else about twelve of them.
  const labelEvery = Math.max(1, Math.ceil(buckets.length / 12));
  buckets.forEach((b, i) => {
    const x = round(PLOT.left + slot * i + (slot - barWidth) / 2);
    let base = 0;
    report.resources.forEach((r, k) => {
      const amount = r.byBucket[b] ?? 0;
      if (amount <= 0) return;
      const top = py(base + amount);
      const tip = `${r.name} (${r.type}): ${formatUsd(amount)} on ${bucketLabel(b, report.bucket)}`;
      out.push(
        `<rect x="${x}" y="${top}" width="${barWidth}" height="${round(py(base) - top)}" fill="${COLORS[k % COLORS.length]}"><title>${escapeXml(tip)}</title></rect>`,
      );
      base += amount;
    });
    const center = round(x + barWidth / 2);
    if (totals[i]! > 0) {
      out.push(
        `<text x="${center}" y="${py(base) - 5}" text-anchor="middle" font-size="11">${escapeXml(formatUsd(totals[i]!))}</text>`,
      );
    }
    if (i % labelEvery === 0) {
      out.push(
        `<text x="${center}" y="${PLOT.bottom + 18}" text-anchor="middle">${escapeXml(bucketLabel(b, report.bucket))}</text>`,
      );
    }
  });
  out.push(
    `<line x1="${PLOT.left}" y1="${PLOT.bottom}" x2="${PLOT.right}" y2="${PLOT.bottom}" stroke="black"/>`,
    `<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${PLOT.bottom}" stroke="black"/>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 44}" text-anchor="middle">${escapeXml(`${report.bucket} (UTC)`)}</text>`,
    `<text x="20" y="${(PLOT.top + PLOT.bottom) / 2}" text-anchor="middle" transform="rotate(-90 20 ${(PLOT.top + PLOT.bottom) / 2})">${escapeXml(report.currency)}</text>`,
  );
  if (buckets.length === 0) {
    out.push(
      `<text x="${(PLOT.left + PLOT.right) / 2}" y="${(PLOT.top + PLOT.bottom) / 2}" text-anchor="middle" fill="#555">no spend in this window</text>`,
    );
  }
  report.resources.forEach((r, k) => {
    const y = PLOT.top + 6 + k * 22;
    out.push(
      `<rect x="${PLOT.right + 24}" y="${y - 9}" width="14" height="14" fill="${COLORS[k % COLORS.length]}"/>`,
      `<text x="${PLOT.right + 46}" y="${y + 2}">${escapeXml(`${r.name} (${r.type}) ${formatUsd(r.amount)}`)}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

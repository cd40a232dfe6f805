/*
 * The scale benchmark's curve as an SVG line chart, written by hand (a few dozen lines do not
 * justify a charting library): log-scale x for the stack sizes, linear y in seconds, one path per
 * series, a legend. GitHub and browsers render it as an image from RESULTS.md.
 */
import { escapeXml, niceStep } from "../cli/chart/chart-scale";

/** One line of the chart. */
export interface ChartSeries {
  label: string;
  /** Any SVG colour. */
  color: string;
  /** Dashed lines tell a baseline from the measured program of the same colour. */
  dashed: boolean;
  /** One point per x; a y that is NaN (not measured) breaks the line there. */
  points: { x: number; y: number }[];
}

/** What the chart shows. */
export interface LineChart {
  title: string;
  xLabel: string;
  yLabel: string;
  /** The x values marked on the axis (the stack sizes); the axis is logarithmic. */
  xTicks: number[];
  series: ChartSeries[];
}

const WIDTH = 800;
const HEIGHT = 440;
const PLOT = { left: 70, right: 500, top: 50, bottom: 380 };

// Shared with the spend chart of `runpod-iac cost` (cli/), which must not load bench code.
export { escapeXml, niceStep } from "../cli/chart/chart-scale";

const round = (n: number) => Math.round(n * 10) / 10;

/** The chart as a standalone SVG document. */
export function renderLineChart(chart: LineChart): string {
  const xs = chart.xTicks.filter((x) => x > 0);
  const xMin = Math.log10(Math.min(...xs));
  const xMax = Math.log10(Math.max(...xs));
  const ys = chart.series.flatMap((s) => s.points.map((p) => p.y)).filter(Number.isFinite);
  const step = niceStep(Math.max(0, ...ys), 6);
  const yMax = step * Math.max(1, Math.ceil(Math.max(0, ...ys) / step));
  const px = (x: number) =>
    round(
      xMax === xMin
        ? (PLOT.left + PLOT.right) / 2
        : PLOT.left + ((Math.log10(x) - xMin) / (xMax - xMin)) * (PLOT.right - PLOT.left),
    );
  const py = (y: number) => round(PLOT.bottom - (y / yMax) * (PLOT.bottom - PLOT.top));

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(chart.title)}</text>`,
  ];
  // Grid and y ticks.
  for (let y = 0; y <= yMax + step / 2; y += step) {
    out.push(
      `<line x1="${PLOT.left}" y1="${py(y)}" x2="${PLOT.right}" y2="${py(y)}" stroke="#ddd"/>`,
      `<text x="${PLOT.left - 8}" y="${py(y) + 4}" text-anchor="end">${escapeXml(String(round(y)))}</text>`,
    );
  }
  // x ticks at the measured sizes.
  for (const x of xs) {
    out.push(
      `<line x1="${px(x)}" y1="${PLOT.top}" x2="${px(x)}" y2="${PLOT.bottom}" stroke="#eee"/>`,
      `<text x="${px(x)}" y="${PLOT.bottom + 18}" text-anchor="middle">${x}</text>`,
    );
  }
  out.push(
    `<line x1="${PLOT.left}" y1="${PLOT.bottom}" x2="${PLOT.right}" y2="${PLOT.bottom}" stroke="black"/>`,
    `<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${PLOT.bottom}" stroke="black"/>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 42}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text x="18" y="${(PLOT.top + PLOT.bottom) / 2}" text-anchor="middle" transform="rotate(-90 18 ${(PLOT.top + PLOT.bottom) / 2})">${escapeXml(chart.yLabel)}</text>`,
  );
  // One path per series; a missing point starts a new subpath (M) after the gap.
  chart.series.forEach((s, i) => {
    let d = "";
    let pen = "M";
    for (const p of s.points) {
      if (!Number.isFinite(p.y) || !(p.x > 0)) {
        pen = "M";
        continue;
      }
      d += `${pen}${px(p.x)} ${py(p.y)} `;
      pen = "L";
    }
    const dash = s.dashed ? ` stroke-dasharray="6 4"` : "";
    out.push(
      `<path d="${d.trim()}" fill="none" stroke="${escapeXml(s.color)}" stroke-width="2"${dash}><title>${escapeXml(s.label)}</title></path>`,
    );
    for (const p of s.points.filter((q) => Number.isFinite(q.y) && q.x > 0)) {
      out.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="3" fill="${escapeXml(s.color)}"/>`);
    }
    const ly = PLOT.top + 10 + i * 22;
    out.push(
      `<line x1="${PLOT.right + 24}" y1="${ly}" x2="${PLOT.right + 60}" y2="${ly}" stroke="${escapeXml(s.color)}" stroke-width="2"${dash}/>`,
      `<text x="${PLOT.right + 68}" y="${ly + 4}">${escapeXml(s.label)}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

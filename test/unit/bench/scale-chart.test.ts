import { describe, expect, it } from "vitest";
import { type ChartSeries, escapeXml, type LineChart, niceStep, renderLineChart } from "../../../bench/scale-chart";

/** A series over the sizes 10, 100 and 500 with these times in seconds. */
const line = (label: string, dashed: boolean, ys: number[]): ChartSeries => ({
  label,
  color: "#1f77b4",
  dashed,
  points: [10, 100, 500].map((x, i) => ({ x, y: ys[i]! })),
});

const chart = (overrides: Partial<LineChart> = {}): LineChart => ({
  title: "time by size",
  xLabel: "resources (log scale)",
  yLabel: "seconds",
  xTicks: [10, 100, 500],
  series: [line("up, ours", false, [3, 6, 30]), line("up, no-op baseline", true, [2, 4, 20])],
  ...overrides,
});

/** The `d` attributes of the chart's paths, in order. */
const paths = (svg: string) => [...svg.matchAll(/<path d="([^"]*)"/g)].map((m) => m[1]!);
/** The numbers of a path, as [x, y] pairs. */
const coords = (d: string) =>
  [...d.matchAll(/([ML])([\d.]+) ([\d.]+)/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]);

describe("renderLineChart", () => {
  it("is one well-formed svg element with balanced tags", () => {
    const svg = renderLineChart(chart());
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    for (const tag of ["svg", "text", "path", "title"]) {
      const open = svg.match(new RegExp(`<${tag}[\\s>]`, "g"))?.length ?? 0;
      const close = svg.match(new RegExp(`</${tag}>`, "g"))?.length ?? 0;
      expect(close, tag).toBe(open);
    }
  });

  it("draws one path per series, dashed for a baseline, with a legend entry each", () => {
    const svg = renderLineChart(chart());
    expect(paths(svg)).toHaveLength(2);
    expect(svg.match(/<path [^>]*stroke-dasharray/g)).toHaveLength(1);
    expect(svg).toContain(">up, ours</text>");
    expect(svg).toContain(">up, no-op baseline</text>");
  });

  it("labels both axes and marks each size on a logarithmic x axis", () => {
    const svg = renderLineChart(chart());
    expect(svg).toContain(">resources (log scale)</text>");
    expect(svg).toContain(">seconds</text>");
    for (const x of [10, 100, 500]) expect(svg).toContain(`>${x}</text>`);
    const [x10, x100, x500] = coords(paths(svg)[0]!).map((c) => c[1] as number);
    // Equal ratios of resources are equal distances: 10 -> 100 spans log10(10) / log10(5) of 100 -> 500.
    expect((x100! - x10!) / (x500! - x100!)).toBeCloseTo(1 / Math.log10(5), 1);
  });

  it("puts larger times higher (smaller y) and keeps every point inside the plot", () => {
    const [ours] = paths(renderLineChart(chart()));
    const ys = coords(ours!).map((c) => c[2] as number);
    expect(ys[0]).toBeGreaterThan(ys[1]!);
    expect(ys[1]).toBeGreaterThan(ys[2]!);
    for (const y of ys) {
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(440);
    }
  });

  it("breaks a line at a missing value instead of drawing through it", () => {
    const withGap = chart({ series: [line("destroy, ours", false, [1, Number.NaN, 5])] });
    const svg = renderLineChart(withGap);
    const [d] = paths(svg);
    expect(coords(d!).map((c) => c[0])).toEqual(["M", "M"]);
    expect(svg).not.toContain("NaN");
    expect(svg.match(/<circle /g)).toHaveLength(2);
  });

  it("escapes labels so a title cannot break the document", () => {
    const svg = renderLineChart(chart({ title: 'a <b> & "c"' }));
    expect(svg).toContain("a &lt;b&gt; &amp; &quot;c&quot;");
    expect(escapeXml("<&>")).toBe("&lt;&amp;&gt;");
  });

  it("renders an empty chart (every value missing) without NaN or Infinity", () => {
    const svg = renderLineChart(
      chart({ series: [{ label: "none", color: "black", dashed: false, points: [{ x: 10, y: Number.NaN }] }] }),
    );
    expect(svg).not.toMatch(/NaN|Infinity/);
  });
});

describe("niceStep", () => {
  it.each([
    [30, 6, 5],
    [6, 6, 1],
    [0.9, 6, 0.2],
    [120, 6, 20],
    [0, 6, 1],
  ])("cuts 0..%s into at most %s steps of %s", (max, count, step) => {
    expect(niceStep(max, count)).toBeCloseTo(step, 10);
    expect(max / niceStep(max, count)).toBeLessThanOrEqual(count);
  });
});

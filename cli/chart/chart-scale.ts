/*
 * Small pieces every hand-written SVG chart of this package needs (the benchmark's scale curve in
 * bench/, the spend chart of `runpod-iac cost`): escaping text and choosing axis steps.
 */

/** Escapes text for an SVG text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A "nice" step (1, 2 or 5 times a power of ten) that cuts [0, max] into at most `count` parts. */
export function niceStep(max: number, count: number): number {
  if (!(max > 0)) return 1;
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step ?? 10 * power;
}

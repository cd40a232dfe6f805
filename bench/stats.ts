import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The median over rounds of `a[i] / b[i]`: each round's alternatives ran minutes or seconds apart,
 * so a ratio within a round cancels the machine's slow swings in load that a ratio of medians keeps.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(perRoundRatios(a, b));
}

/** The median over rounds of `a[i] - b[i]` (see `pairedRatio`). */
export function pairedDifference(a: readonly number[], b: readonly number[]): number {
  return median(perRoundDifferences(a, b));
}

/** Each round's `a[i] / b[i]`, the values `pairedRatio` takes the median of. */
export function perRoundRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}

/** Each round's `a[i] - b[i]`, the values `pairedDifference` takes the median of. */
export function perRoundDifferences(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x - b[i]!);
}

/** A confidence interval for a median, and the probability that it holds the true median. */
export interface MedianInterval {
  low: number;
  high: number;
  coverage: number;
}

/**
 * A distribution-free confidence interval for the median of the population `values` were drawn
 * from: the k-th smallest and the k-th largest value, for the largest k whose coverage is at least
 * `confidence`. The true median lies below the k-th smallest of n values only if fewer than k of
 * them fall below it, which has the binomial probability P(Bin(n, 1/2) <= k - 1); the same holds
 * above, so the coverage is 1 - 2 P(Bin(n, 1/2) <= k - 1) whatever the distribution of the
 * values. Six values give their minimum and maximum (96.9%), twelve the 3rd smallest and 3rd
 * largest (96.1%). Undefined when even the minimum and maximum fall short (five values or fewer
 * at 95%): no interval that few rounds allow says anything.
 */
export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval | undefined {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  // cdf = P(Bin(n, 1/2) <= k - 1), built up term by term: C(n, i) / 2^n.
  let term = 0.5 ** n;
  let cdf = term;
  let best: MedianInterval | undefined;
  for (let k = 1; 2 * k <= n + 1; k++) {
    const coverage = 1 - 2 * cdf;
    if (coverage < confidence) break;
    best = { low: sorted[k - 1]!, high: sorted[n - k]!, coverage };
    term = (term * (n - k + 1)) / k;
    cdf += term;
  }
  return best;
}

/**
 * The order in which round `round` runs the alternatives: a balanced Latin square (a Williams
 * design). Over n rounds (2n for an odd count n) each alternative runs first, second, ... equally
 * often, and directly after each other alternative equally often. A plain rotation balances the
 * positions only: each alternative then follows the same one in every round, and what ran just
 * before matters: in the client benchmark raw undici made 17% fewer `status` calls per second
 * right after the official SDK than right after itself (36,800 against 43,800, medians of six
 * runs, a full GC before each).
 */
export function interleaved<T>(items: readonly T[], round: number): T[] {
  const n = items.length;
  if (n < 2) return [...items];
  // The first row is 0, 1, n-1, 2, n-2, ...; row r adds r to each (mod n).
  const shift = round % n;
  const row: T[] = [];
  for (let i = 0, low = 1, high = n - 1; i < n; i++) {
    const k = i === 0 ? 0 : i % 2 === 1 ? low++ : high--;
    row.push(items[(k + shift) % n]!);
  }
  // For an odd count, the second n rounds run the rows backwards (each pair then follows both ways).
  return n % 2 === 1 && Math.floor(round / n) % 2 === 1 ? row.reverse() : row;
}

/** Milliseconds `fn` takes, wall clock. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * Runs `op(0) ... op(total - 1)` with `concurrency` calls in flight; resolves to the wall time in ms.
 * A failing call is counted, not thrown, so one refused request does not hide the figure.
 */
export async function drive(
  total: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ ms: number; errors: number; firstError?: unknown }> {
  let next = 0;
  let errors = 0;
  let firstError: unknown;
  const lane = async () => {
    while (next < total) {
      const i = next++;
      try {
        await op(i);
      } catch (error) {
        errors++;
        firstError ??= error;
      }
    }
  };
  const ms = await timed(() => Promise.all(Array.from({ length: Math.min(concurrency, total) }, lane)));
  return { ms, errors, ...(firstError === undefined ? {} : { firstError }) };
}

/**
 * CPU time, in ms, of every child process this process has waited for (Linux `cutime + cstime`
 * of /proc/self/stat, in 10 ms ticks); NaN elsewhere. The Pulumi CLI waits for its language host
 * and plugins, so the difference around one Automation API call is the CPU that operation cost
 * in the engine, the program and the providers: less sensitive to a busy machine than wall time.
 */
export function childCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces); field 3 is fields[0].
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * A ratio rounded to the two decimals it is shown with; targets compare this, so a verdict never
 * contradicts the figure printed next to it (finer differences are noise on this machine).
 */
export function shownRatio(ratio: number): number {
  return Math.round(ratio * 100) / 100;
}

/** Formatting shared by the console table and RESULTS.md. */
export const format = {
  int: (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a"),
  ms: (n: number) => (Number.isFinite(n) ? (n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`) : "n/a"),
  seconds: (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "n/a"),
  ratio: (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : "n/a"),
  /** A signed difference in ms: "+ 120 ms", "- 40 ms". */
  deltaMs: (n: number) => (Number.isFinite(n) ? `${n < 0 ? "-" : "+"} ${Math.abs(Math.round(n))} ms` : "n/a"),
  bytes: (n: number) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString("en-US")} B` : "n/a"),
  mib: (n: number) => (Number.isFinite(n) ? `${(n / 1024 / 1024).toFixed(1)} MiB` : "n/a"),
  us: (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)} µs` : "n/a"),
};

/**
 * " (96% CI low to high)": the distribution-free confidence interval of the median of per-round
 * values ({@link medianInterval}), so a verdict can be told apart from the machine's noise; empty
 * when there are too few rounds for one.
 */
export function medianIntervalNote(perRound: readonly number[], show: (n: number) => string = format.ratio): string {
  const interval = medianInterval(perRound);
  if (!interval) return "";
  return ` (${Math.floor(interval.coverage * 100)}% CI ${show(interval.low)} to ${show(interval.high)})`;
}

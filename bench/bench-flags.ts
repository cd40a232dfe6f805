import { parseArgs } from "node:util";

/** The benchmarks, in the order they run. */
export const BENCHMARKS = ["client", "emulator", "pulumi", "state", "scale"] as const;
/** One benchmark's name. */
export type BenchmarkName = (typeof BENCHMARKS)[number];

/** What `npm run bench -- ...` asked for. */
export interface BenchFlags {
  only: BenchmarkName[];
  quick: boolean;
  /** Where the markdown goes; `undefined` when nothing is written. */
  resultsFile: string | undefined;
  help: boolean;
}

/** Usage of `npm run bench`. */
export const BENCH_USAGE = `Usage: npm run bench -- [options]

  --only LIST     comma-separated subset of ${BENCHMARKS.join(",")} (default: all)
                  scale: up, unchanged preview and destroy at 10, 100 and 500 resources against
                  the no-op baseline, with the curve drawn as scale.svg next to the report
  --quick         small sizes and one round, for iterating (figures are not comparable to a full run)
  --out FILE      write the markdown report here, and any chart next to it (default:
                  bench/RESULTS.md for a full run of all; a --quick or --only run prints only, so
                  RESULTS.md always holds a full run)
  --no-write      print only, write no report
  --help          show this help
`;

/** Parses the arguments after `node dist/bench/run.js`; throws with a readable message on a mistake. */
export function parseBenchFlags(args: string[], defaultResultsFile: string): BenchFlags {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      only: { type: "string" },
      quick: { type: "boolean" },
      out: { type: "string" },
      "no-write": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const only = values.only === undefined ? [...BENCHMARKS] : values.only.split(",").map((s) => s.trim());
  for (const name of only) {
    if (!(BENCHMARKS as readonly string[]).includes(name)) {
      throw new Error(`--only ${values.only}: unknown benchmark "${name}"; choose from ${BENCHMARKS.join(", ")}`);
    }
  }
  // Keep the canonical order whatever order the list was given in.
  const selected = BENCHMARKS.filter((b) => only.includes(b));
  const quick = values.quick === true;
  const full = !quick && selected.length === BENCHMARKS.length;
  return {
    only: selected,
    quick,
    resultsFile: values["no-write"] ? undefined : (values.out ?? (full ? defaultResultsFile : undefined)),
    help: values.help === true,
  };
}

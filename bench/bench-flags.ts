import { parseArgs } from "node:util";

/** The benchmarks, in the order they run. */
export const BENCHMARKS = [
  "client",
  "emulator",
  "pulumi",
  "state",
  "scale",
  "batch",
  "batch-api",
  "management",
  "openai",
  "plugin",
  "volumes",
  "paging",
  "rollout",
] as const;
/** One benchmark's name. */
export type BenchmarkName = (typeof BENCHMARKS)[number];

/** What `npm run bench -- ...` asked for. */
export interface BenchFlags {
  only: BenchmarkName[];
  quick: boolean;
  /** `--pulumi-sizes`: stack sizes of the pulumi benchmark instead of its usual ones. */
  pulumiSizes: number[] | undefined;
  /** `--pulumi-rounds`: rounds per size of the pulumi benchmark instead of its usual count. */
  pulumiRounds: number | undefined;
  /** Where the markdown goes; `undefined` when nothing is written. */
  resultsFile: string | undefined;
  /**
   * True when the report replaces only its own sections (and target rows) of an existing
   * `resultsFile`: a full run of `--only batch` (or management, openai, plugin), worth keeping
   * next to the last full run of everything.
   */
  merge: boolean;
  help: boolean;
}

/** Usage of `npm run bench`. */
export const BENCH_USAGE = `Usage: npm run bench -- [options]

  --only LIST     comma-separated subset of ${BENCHMARKS.join(",")} (default: all)
                  pulumi: up, unchanged preview, refresh and destroy of 10, 50, 100 and 500
                  resources against the no-op baseline on v2 without a quota (0 and 100 ms of
                  latency), and of 100 and 500 under v2's default quota, with the management
                  calls of each operation (about 70 minutes; the quota paces up and destroy of
                  500 to about 8 minutes each)
                  scale: up, unchanged preview and destroy at 10, 100 and 500 resources against
                  the no-op baseline on v2 without a quota, with the curve drawn as scale.svg
                  next to the report (about 10 minutes)
                  batch: ours at 3,000 jobs from an idle account (3 rounds, against the floor of
                  20 s), 10,000 jobs through submitMany, the official SDK and raw undici at the
                  emulator's real rate limits, with and without injected 429s and lost answers,
                  and ours' memory at 10,000 and 100,000 jobs (about 20 minutes)
                  batch-api: 20,000 jobs through submitMany by the batch API against the /run
                  path (client CPU, peak heap, duplicates, wall time), and a session of 100
                  requests pinned to one worker of a load-balancing endpoint against the same
                  requests unpinned (about 5 minutes)
                  management: the client's management calls per second on v2 against v1, and
                  bursts of 1,000 v2 calls against a quota of 50 a second (about 2 minutes)
                  openai: chat completions per second through the npm openai package against
                  the emulated vLLM worker, beside /runsync of the same job (about 1 minute)
                  plugin: up, an unchanged preview and destroy of 100 resources through the
                  provider plugin beside the same program of dynamic resources, with the state
                  each leaves, and through the release's standalone plugin (built by this run
                  with every platform's, whose sizes are reported), with the two plugins' starts
                  to their first answer (about 15 minutes)
                  volumes: uploads to a volume through the emulator's S3-compatible API, 200 small
                  files and one file five times an 8 MiB PutObject limit, by this package's client
                  beside the AWS CLI, with peak memory, and the hashing of 10,000 files (about 3
                  minutes; makes the integration tier's Python environment on first use)
                  paging: refresh through v2, under its default quota, of 100 resources among
                  2,500 of each kind (their lists in pages of 1,000) beside the same stack alone
                  on an account (about 4 minutes)
                  rollout: an image bump of 1 and of 10 endpoints through one template on v2
                  with its quota, workers booting in 8 s: when pulumi up ends against when the
                  last rollout finished, and the polls it spent (about 3 minutes)
  --quick         small sizes and one round, for iterating (figures are not comparable to a full run)
  --pulumi-sizes LIST
                  comma-separated stack sizes of the pulumi benchmark (even numbers: half volumes,
                  half endpoints), e.g. 100 to look at one size closely; the rows under the quota
                  then run at these sizes too
  --pulumi-rounds N
                  rounds per size of the pulumi benchmark (a multiple of 6 keeps its order
                  balanced), the rows under the quota included; more rounds narrow the confidence
                  intervals its targets show
  --out FILE      write the markdown report here, and any chart next to it (default:
                  bench/RESULTS.md for a full run of all; a full run of batch, batch-api,
                  management, openai, plugin, volumes, paging or rollout alone replaces its own section there, marked as measured alone; a
                  --quick run, or another --only, prints only)
  --no-write      print only, write no report
  --help          show this help
`;

/** The benchmarks whose full run alone replaces its own section of RESULTS.md. */
const MERGED_ALONE: readonly BenchmarkName[] = [
  "batch",
  "batch-api",
  "management",
  "openai",
  "plugin",
  "volumes",
  "paging",
  "rollout",
];

/** Parses the arguments after `node dist/bench/run.js`; throws with a readable message on a mistake. */
export function parseBenchFlags(args: string[], defaultResultsFile: string): BenchFlags {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      only: { type: "string" },
      quick: { type: "boolean" },
      "pulumi-sizes": { type: "string" },
      "pulumi-rounds": { type: "string" },
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
  const pulumiSizes = values["pulumi-sizes"]?.split(",").map((s) => positiveWhole("--pulumi-sizes", s.trim(), true));
  const pulumiRounds =
    values["pulumi-rounds"] === undefined
      ? undefined
      : positiveWhole("--pulumi-rounds", values["pulumi-rounds"], false);
  // RESULTS.md holds a full run: every benchmark at its usual sizes and rounds; a full run of
  // one of the benchmarks that need no Pulumi stack sizes (batch, batch-api, management, openai, plugin, paging)
  // alone replaces its own section there, marked as measured alone.
  const full = !quick && selected.length === BENCHMARKS.length && !pulumiSizes && !pulumiRounds;
  const batchAlone = !quick && selected.length === 1 && MERGED_ALONE.includes(selected[0]!);
  const noWrite = values["no-write"] === true;
  return {
    only: selected,
    quick,
    pulumiSizes,
    pulumiRounds,
    resultsFile: noWrite ? undefined : (values.out ?? (full || batchAlone ? defaultResultsFile : undefined)),
    merge: !noWrite && values.out === undefined && batchAlone,
    help: values.help === true,
  };
}

/** `text` as a whole number above zero (and even when `even`), or an error naming the flag, value and rule. */
function positiveWhole(flag: string, text: string, even: boolean): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n > 0) || (even && n % 2 !== 0)) {
    const rule = even ? "an even whole number above 0 (half volumes, half endpoints)" : "a whole number above 0";
    throw new Error(`${flag}: "${text}" is not ${rule}`);
  }
  return n;
}

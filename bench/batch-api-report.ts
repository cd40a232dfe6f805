import { BATCH_PATH, type BatchApiBenchSettings, type BatchApiResult, RUN_PATH } from "./batch-api-bench";
import { BATCH_WORKERS } from "./batch-bench";
import type { BenchSection, TargetCheck } from "./report";
import { format, median, medianIntervalNote, pairedRatio, perRoundRatios, shownRatio } from "./stats";

/** The targets (docs/benchmarks.md "Batch jobs and worker affinity"). */
const CPU_TARGET = 0.5;
const HEAP_TARGET = 1.2;
const SESSION_TARGET = 1.05;

/** The section of the report: the two paths of submitMany side by side, the sessions, and the targets. */
export function batchApiSection(s: BatchApiBenchSettings, result: BatchApiResult): BenchSection {
  const { runs, session } = result;
  const of = (path: string) => runs.filter((r) => r.alternative === path);
  const run = of(RUN_PATH);
  const batch = of(BATCH_PATH);
  const perJob = (ms: number, jobs: number) => `${((ms * 1000) / jobs).toFixed(1)} µs`;
  const rows = runs.map((r, i) => [
    String(Math.floor(i / 2) + 1),
    r.alternative,
    format.seconds(r.wallMs),
    format.seconds(r.cpuMs),
    perJob(r.cpuMs, r.jobs),
    format.mib(r.peakHeapBytes),
    format.int(r.requests),
    format.int(r.duplicates),
    format.int(r.withoutOutcome + r.reportedTwice),
    format.int(r.errors + r.unknown),
    format.seconds(r.emulatorCpuMs),
  ]);
  const cpu = pairedRatio(
    batch.map((r) => r.cpuMs),
    run.map((r) => r.cpuMs),
  );
  const heap = pairedRatio(
    batch.map((r) => r.peakHeapBytes),
    run.map((r) => r.peakHeapBytes),
  );
  const sessionRatios = perRoundRatios(session.pinnedMs, session.unpinnedMs);
  const sessionRatio = median(sessionRatios);
  const duplicates = batch.reduce((n, r) => n + r.duplicates, 0);
  const missing = batch.reduce((n, r) => n + r.withoutOutcome + r.reportedTwice, 0);
  const jobs = s.jobs.toLocaleString("en-US");
  const targets: TargetCheck[] = [
    {
      benchmark: "batch API",
      target: `submitMany of ${jobs} jobs: client CPU per job through batches <= ${CPU_TARGET}x the /run path's`,
      measured: `${format.ratio(cpu)} (${perJob(median(batch.map((r) => r.cpuMs)), s.jobs)} against ${perJob(median(run.map((r) => r.cpuMs)), s.jobs)})`,
      met: Number.isFinite(cpu) ? shownRatio(cpu) <= CPU_TARGET : undefined,
      whyMissed: "the batch path's CPU goes to serializing and reading pages; profile submitMany's batch path",
    },
    {
      benchmark: "batch API",
      target: `submitMany of ${jobs} jobs: peak client heap through batches <= ${HEAP_TARGET}x the /run path's`,
      measured: `${format.ratio(heap)} (${format.mib(median(batch.map((r) => r.peakHeapBytes)))} against ${format.mib(median(run.map((r) => r.peakHeapBytes)))})`,
      met: Number.isFinite(heap) ? shownRatio(heap) <= HEAP_TARGET : undefined,
      whyMissed: "an append body (up to 10 MiB) is held while it is sent; smaller parts would lower the peak",
    },
    {
      benchmark: "batch API",
      target: `submitMany of ${jobs} jobs through batches: 0 duplicates, every input one outcome`,
      measured: `${duplicates} duplicates, ${missing} inputs without exactly one outcome`,
      met: batch.length > 0 ? duplicates === 0 && missing === 0 : undefined,
      whyMissed: "an input ran twice or lost its outcome: a bug of the batch path, see its journal and counters",
    },
    {
      benchmark: "worker affinity",
      target: `a pinned session of ${s.sessionRequests} requests <= ${SESSION_TARGET}x the same requests unpinned`,
      measured: `${format.ratio(sessionRatio)}${medianIntervalNote(sessionRatios)}`,
      met: Number.isFinite(sessionRatio) ? shownRatio(sessionRatio) <= SESSION_TARGET : undefined,
      whyMissed:
        `the pin itself costs the client ${format.us(session.pinCostUs)} a call (measured apart, with no network) and the ` +
        "emulator one header and one lookup, against the " +
        `${format.ms(median(session.unpinnedMs) / s.sessionRequests)} of a request; a miss whose interval holds 1.0x is ` +
        "this machine's noise between rounds (other processes on the 2 cores), which a quiet machine and more rounds narrow",
    },
  ];
  return {
    title: "12. Batch jobs and worker affinity",
    method: [
      `submitMany of ${jobs} inputs \`{ i }\`, through \`/run\` and through the batch API (\`submitWith: "batch"\`, its defaults: batches of 5,000, 10 at once, a summary read a second), ${s.rounds} round(s), alternating which path goes first`,
      `one emulator process per run at \`--time-scale ${s.timeScale}\` with the platform's rate limits (the /run path told the 1 s window), an endpoint of ${BATCH_WORKERS} workers running the \`tally\` handler, which counts every run of every input (duplicates)`,
      "client CPU: this process's user + system time during the run, less the forced collections of the heap sampler; peak heap: the live heap sampled after a full GC every 100 ms, above the heap before the run",
      `the pin's own cost: the same calls through a \`fetch\` that answers at once, pinned and not (7 rounds of 50,000, the median difference)`,
      `a session: ${s.sessionRequests} POSTs one after the other to a load-balancing endpoint of 2 warm workers (the \`echo\` image) through \`client.pinnedFetch()\`, pinned to the worker of its first answer, each beside the same POST unpinned through undici's dispatch (alternating which goes first); ${s.sessionRounds} rounds, the ratio the median of each round's pinned / unpinned total`,
    ],
    tables: [
      {
        title: `submitMany of ${jobs} jobs: the /run path and the batch API`,
        columns: [
          "round",
          "path",
          "wall",
          "client CPU",
          "CPU per job",
          "peak heap",
          "requests",
          "duplicates",
          "without one outcome",
          "errors",
          "emulator CPU",
        ],
        rows,
        textColumns: 2,
      },
      {
        title: `A session of ${s.sessionRequests} requests on a load-balancing endpoint`,
        columns: [
          "rounds",
          "unpinned (median)",
          "pinned (median)",
          "pinned / unpinned",
          "answers from the pinned worker",
          "the pin's own cost per call",
        ],
        rows: [
          [
            String(session.pinnedMs.length),
            format.ms(median(session.unpinnedMs)),
            format.ms(median(session.pinnedMs)),
            format.ratio(sessionRatio),
            `${session.pinnedSameWorker} of ${session.pinnedRequests}`,
            format.us(session.pinCostUs),
          ],
        ],
      },
    ],
    targets,
    notes: [
      "The batch path's wall time on the emulator is not the platform's: there a batch runs on batch workers with hours of latency, which is why `/run` stays the default (docs/client.md).",
    ],
  };
}

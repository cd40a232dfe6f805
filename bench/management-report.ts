import { type ManagementBenchSettings, UNBINDING_QUOTA } from "./management-settings";
import type { BenchSection, TargetCheck } from "./report";
import { format, median, pairedRatio, perRoundRatios, shownRatio } from "./stats";

/** Part (a)'s figures per alternative: calls per second and client CPU per call, one value per round. */
export type DialectSamples = Map<
  string,
  { callsPerSecond: number[]; cpuMicros: number[]; errors: number; firstError?: unknown }
>;

/** One burst of part (b). */
export interface BurstSample {
  paced: boolean;
  wallMs: number;
  /** The floor the quota sets for this burst (`quotaFloorMs`). */
  floorMs: number;
  /** Answers of 429 the account got (the emulator's `managementQuotaRefused`). */
  refused: number;
  /** Calls that failed even after retries. */
  failed: number;
  firstError?: unknown;
  /** CPU time of the benchmark's process (the client) during the burst. */
  cpuMs: number;
}

/** Target: v2 at least 0.95 of v1's management calls per second. */
const DIALECT_TARGET = 0.95;
/** Target: a paced burst within 1.1 times the floor the quota sets. */
const FLOOR_TARGET = 1.1;

const V1 = "v1";
const V2 = "v2 (quota off)";

/** The section of `npm run bench`: tables, targets and method. */
export function managementSection(
  s: ManagementBenchSettings,
  dialects: DialectSamples,
  bursts: readonly BurstSample[],
): BenchSection {
  const v1 = dialects.get(V1)!;
  const rows = [...dialects].map(([name, sample]) => [
    name,
    format.int(median(sample.callsPerSecond)),
    format.ratio(pairedRatio(sample.callsPerSecond, v1.callsPerSecond)),
    format.us(median(sample.cpuMicros)),
    String(sample.errors),
  ]);
  const v2vs1 = pairedRatio(dialects.get(V2)!.callsPerSecond, v1.callsPerSecond);
  const paced = bursts.filter((b) => b.paced);
  const worstRatio = Math.max(...paced.map((b) => b.wallMs / b.floorMs));
  const pacedRefused = paced.reduce((n, b) => n + b.refused, 0);
  const targets: TargetCheck[] = [
    {
      benchmark: "management v2",
      target: `v2 >= ${DIALECT_TARGET}x v1 management calls/s (quota off)`,
      measured: `${format.ratio(v2vs1)} (rounds: ${perRoundRatios(dialects.get(V2)!.callsPerSecond, v1.callsPerSecond)
        .map((r) => r.toFixed(2))
        .join(", ")})`,
      met: shownRatio(v2vs1) >= DIALECT_TARGET,
      whyMissed:
        "v2 answers carry problem-object errors and are validated by v2's zod schemas; compare the client CPU per call column to see whether the client or the server is slower.",
    },
    {
      benchmark: "management v2",
      target: `burst of ${format.int(s.burstCalls)} calls, ${s.burstCallers} callers: 0 answers of 429`,
      measured: `${pacedRefused} in ${paced.length} paced burst(s)`,
      met: pacedRefused === 0,
      whyMissed:
        "a 429 means the client sent into a window it believed open: see the notes for which burst, and the pacing rules in sdk/rate-limit/quota-tracker.ts.",
    },
    {
      benchmark: "management v2",
      target: `burst wall time <= ${FLOOR_TARGET}x the quota's floor`,
      measured: `worst ${format.ratio(worstRatio)} of ${paced.length} paced burst(s)`,
      met: shownRatio(worstRatio) <= FLOOR_TARGET,
      whyMissed:
        "time lost waiting past a window's end: the client learns a window's end from `t` (whole seconds) and from the first answer of a new window; see the notes.",
    },
  ];
  const cpuRatio = pairedRatio(dialects.get(V2)!.cpuMicros, v1.cpuMicros);
  const notes: string[] = [
    `Client CPU per call, v2 (quota off) over v1: ${format.ratio(cpuRatio)} (median of per-round ratios; below 1 means the v2 client spends less CPU per call). Calls per second also depend on the emulator process and on whatever else runs on the machine; CPU per call is the client's alone.`,
  ];
  for (const [name, sample] of dialects) {
    if (sample.firstError !== undefined) notes.push(`${name}: first error: ${errorText(sample.firstError)}`);
  }
  for (const b of bursts) {
    if (b.firstError !== undefined)
      notes.push(`${b.paced ? "paced" : "unpaced"} burst: first error: ${errorText(b.firstError)}`);
  }
  const quota = `${s.burstQuota} per ${s.burstWindowSeconds === 1 ? "second" : `${s.burstWindowSeconds} s`}`;
  return {
    title: "7. Management API v2: the client on v2 against v1, and bursts against the quota",
    method: [
      `(a) The version-neutral \`client.networkVolumes.get(id)\` through a client whose \`apiUrl\` ends in \`/v1\` and one whose \`apiUrl\` ends in \`/v2\` (same emulator process, same volume, \`--no-management-quota\`: no rate-limit headers, so it measures the client and the dialect, not the limit), and a v2 client against a second emulator process whose quota never binds (\`--management-quota ${UNBINDING_QUOTA}\`), so every answer carries \`RateLimit\` and \`RateLimit-Policy\` and the client parses and paces by them. ${format.int(s.dialectCalls)} calls per alternative and round at concurrency ${s.dialectConcurrency}, ${s.dialectRounds} round(s) in a balanced order (\`interleaved\`), a full GC before each; medians over rounds, and the median of per-round ratios to v1.`,
      `(b) ${format.int(s.burstCalls)} calls of \`client.v2.catalog.cpus()\` from ${s.burstCallers} concurrent callers against an emulator process started with \`--management-quota ${s.burstWindowSeconds === 1 ? `second=${s.burstQuota}` : `burst=${s.burstQuota}/${s.burstWindowSeconds}`}\` (${quota}, windows fixed on the emulator clock), each burst on an account of its own, so it starts with the window's whole quota and at whatever point of the window the run reaches it. ${s.burstRounds} burst(s) with pacing on (the default), and one with \`pacing: false\` (the client only retries 429s after \`Retry-After\`, up to 50 attempts) after the first, for comparison. One warm-up burst on a fourth account is not measured.`,
      `The floor: with q calls per window of w and d the time from the burst's start to the end of the window it starts in (read from \`/_emulator/clock\` just before the start), the last of N calls cannot be sent before window ceil(N / q) opens, so no client can finish before d + (ceil(N / q) - 2) × w (for N = ${format.int(s.burstCalls)}, q = ${s.burstQuota}, w = ${s.burstWindowSeconds} s: d + ${Math.ceil(s.burstCalls / s.burstQuota) - 2} s). The calls' own time is left out, so the floor is below what any client reaches.`,
      "429s are the emulator's count for the burst's account (`managementQuotaRefused` of `/_emulator/stats`). Client CPU is the benchmark process's user + system time during the burst (the emulator runs in its own process); it shows pacing costs no CPU while it waits, where wall time is set by the quota.",
    ],
    tables: [
      {
        title: "Management calls per second (median of rounds; median per-round ratio to v1)",
        columns: ["client", "get/s", "vs v1", "client CPU/call", "errors"],
        rows,
      },
      {
        title: `Bursts of ${format.int(s.burstCalls)} calls from ${s.burstCallers} callers against ${quota}`,
        columns: [
          "burst",
          "pacing",
          "wall time",
          "floor",
          "wall / floor",
          "answers of 429",
          "failed calls",
          "client CPU",
        ],
        textColumns: 2,
        rows: bursts.map((b, i) => [
          String(i + 1),
          b.paced ? "on" : "off",
          format.seconds(b.wallMs),
          format.seconds(b.floorMs),
          format.ratio(b.wallMs / b.floorMs),
          String(b.refused),
          String(b.failed),
          format.ms(b.cpuMs),
        ]),
      },
    ],
    targets,
    notes,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

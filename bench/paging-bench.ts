import type { PulumiCommand } from "@pulumi/pulumi/automation";
import { type RunningEmulator, startEmulator } from "../emulator";
import { EmulatorApi } from "./emulator-process";
import { createRunpodStack } from "./pulumi-bench";
import type { BenchStack } from "./pulumi-stack";
import type { BenchSection, TargetCheck } from "./report";
import { drive, format, interleaved, median, medianIntervalNote, perRoundRatios, shownRatio, timed } from "./stats";

/** Sizes of the paged-refresh benchmark. */
export interface PagingBenchSettings {
  /** Resources of the stack (half network volumes, half serverless endpoints). */
  stackSize: number;
  /** Resources of each of the two kinds on the crowded account, the stack's included. */
  perKind: number;
  /** Items per page of the emulator's v2 lists (the platform's default is 1000). */
  pageSize: number;
  /** Timed refreshes of each stack, interleaved. */
  rounds: number;
}

/** 100 resources among 2,500 of each kind, at the platform's page size: 3 pages per kind; 12 rounds (about 10 s each). */
export const PAGING_FULL: PagingBenchSettings = { stackSize: 100, perKind: 2_500, pageSize: 1_000, rounds: 12 };
/** `--quick`: 10 among 60 of each kind, pages of 20. */
export const PAGING_QUICK: PagingBenchSettings = { stackSize: 10, perKind: 60, pageSize: 20, rounds: 1 };

/** A refresh may cost more wall time than the same stack's alone on the account by this ratio at most. */
const TIME_TARGET = 1.2;
const CROWDED_KEY = "bench-paging-crowded";
const ALONE_KEY = "bench-paging-alone";

interface Side {
  name: string;
  key: string;
  api: EmulatorApi;
  stack: BenchStack;
  /** Per timed refresh: wall ms, admitted calls, refused (429) calls. */
  ms: number[];
  calls: number[];
  refused: number[];
  /** List pages a refresh of this account reads: each kind's pages and the GPU catalog's. */
  pages: number;
}

/**
 * Benchmark 11: `pulumi refresh` of a stack whose resources sit on later pages of v2's lists,
 * among thousands of others of their kinds, against the same stack alone on an account, side by
 * side under v2's default quota. The stacks are deployed through v1 (no quota, a contract says a
 * stack moves between versions with no change) and refreshed through v2; the others are made
 * through v1 first, so the stack's resources come last in creation order, on the last page.
 */
export async function runPagingBench(
  s: PagingBenchSettings,
  log: (line: string) => void,
  command: PulumiCommand,
): Promise<BenchSection> {
  const emulator = await startEmulator({ port: 0, apiKeys: [CROWDED_KEY, ALONE_KEY], pageSize: s.pageSize });
  const sides: Side[] = [];
  try {
    const gpuTypes = (
      await new EmulatorApi(emulator.url, ALONE_KEY).call<{ gpus: unknown[] }>("GET", "/v2/catalog/gpus?limit=1000")
    ).gpus.length;
    const pagesOf = (n: number) => Math.max(1, Math.ceil(n / s.pageSize));
    const crowdedApi = new EmulatorApi(emulator.url, CROWDED_KEY);
    const others = s.perKind - s.stackSize / 2;
    log(`paging: making ${others} network volumes and ${others} endpoints outside the stack (through v1)`);
    const made = await drive(2 * others, 16, (i) =>
      i % 2 === 0
        ? crowdedApi.call("POST", "/v1/networkvolumes", { name: `other-${i}`, size: 10, dataCenterId: "EU-RO-1" })
        : crowdedApi.call("POST", "/v1/endpoints", {
            name: `other-${i}`,
            templateId: "echo",
            gpuTypeIds: ["NVIDIA L4"],
            workersMax: 0,
          }),
    );
    if (made.errors > 0) throw new Error(`making the other resources: ${String(made.firstError)}`);
    for (const [name, key, perKind] of [
      ["crowded", CROWDED_KEY, s.perKind],
      ["alone", ALONE_KEY, s.stackSize / 2],
    ] as const) {
      log(`paging: deploying the ${name} stack of ${s.stackSize} (through v1)`);
      const stack = await deployThroughV1(command, emulator, key, s.stackSize, name);
      sides.push({
        name,
        key,
        api: new EmulatorApi(emulator.url, key),
        stack,
        ms: [],
        calls: [],
        refused: [],
        pages: 2 * pagesOf(perKind) + pagesOf(gpuTypes),
      });
    }
    const crowded = sides[0]!;
    const lastPageStart = (pagesOf(s.perKind) - 1) * s.pageSize;
    const position = await stackPositions(crowded, emulator);
    log(`paging: the crowded stack's volumes sit at positions ${position.first + 1} to ${position.last + 1}`);
    // One refresh each through v2 before timing: the first after the switch may rewrite the state.
    for (const side of sides) await refreshed(side);
    for (let round = 0; round < s.rounds; round++) {
      for (const side of interleaved(sides, round)) {
        const before = await side.api.requestCounters();
        side.ms.push(await timed(() => refreshed(side)));
        const after = await side.api.requestCounters();
        const refused = after.quotaRefused - before.quotaRefused;
        side.refused.push(refused);
        side.calls.push(after.requests - before.requests - refused);
        log(`paging: round ${round + 1}, ${side.name}: ${format.seconds(side.ms.at(-1)!)}, ${side.calls.at(-1)} calls`);
      }
    }
    return pagingSection(s, sides, position, lastPageStart);
  } finally {
    for (const side of sides) side.stack.dispose();
    await emulator.close();
  }
}

/** A stack of `size` deployed through v1 on `key`'s account, then moved to v2. */
async function deployThroughV1(
  command: PulumiCommand,
  emulator: RunningEmulator,
  key: string,
  size: number,
  label: string,
): Promise<BenchStack> {
  const stack = await createRunpodStack(command, emulator, size, `paging-${label}`, { RUNPOD_API_KEY: key });
  await stack.stack.setConfig("runpod:apiUrl", { value: emulator.apiUrlV1 });
  const up = await stack.stack.up({ parallel: size });
  if (up.summary.result !== "succeeded") throw new Error(`up of the ${label} stack: ${up.summary.result}`);
  // The engine keeps the provider's configuration of the last update: an unchanged `up` through v2
  // (which sends nothing) makes the refreshes read through v2.
  await stack.stack.setConfig("runpod:apiUrl", { value: emulator.apiUrlV2 });
  const moved = await stack.stack.up({ parallel: size });
  const changed = Object.keys(moved.summary.resourceChanges ?? {}).filter((op) => op !== "same");
  if (changed.length > 0) throw new Error(`the ${label} stack changed when pointed at v2: ${changed.join(", ")}`);
  return stack;
}

/** Refreshes a side's stack through v2; anything but an unchanged stack is an error. */
async function refreshed(side: Side): Promise<void> {
  const result = await side.stack.stack.refresh({ parallel: 100 });
  const changes = Object.keys(result.summary.resourceChanges ?? {}).filter((op) => op !== "same");
  if (result.summary.result !== "succeeded" || changes.length > 0) {
    throw new Error(`refresh of the ${side.name} stack: ${result.summary.result}, changes ${changes.join(", ")}`);
  }
}

/** Where the stack's volumes sit in the account's list of volumes (0-based positions). */
async function stackPositions(side: Side, emulator: RunningEmulator): Promise<{ first: number; last: number }> {
  const state = await side.stack.stack.exportStack();
  const ids = new Set(
    (state.deployment.resources as { type: string; id?: string }[])
      .filter((r) => r.type.endsWith("NetworkVolume"))
      .map((r) => r.id),
  );
  const all = await new EmulatorApi(emulator.url, side.key).call<{ id: string }[]>("GET", "/v1/networkvolumes");
  const at = all.flatMap((v, i) => (ids.has(v.id) ? [i] : []));
  return { first: Math.min(...at), last: Math.max(...at) };
}

/** The section: each side's refresh times and calls, and the two targets. */
function pagingSection(
  s: PagingBenchSettings,
  sides: Side[],
  position: { first: number; last: number },
  lastPageStart: number,
): BenchSection {
  const [crowded, alone] = sides as [Side, Side];
  const perRound = perRoundRatios(crowded.ms, alone.ms);
  const ratio = median(perRound);
  const mostCalls = Math.max(...crowded.calls);
  const targets: TargetCheck[] = [
    {
      benchmark: "paging",
      target: `refresh of ${s.stackSize} among ${format.int(s.perKind)} of each kind: management calls <= list pages`,
      measured: `${format.int(mostCalls)} calls, ${crowded.pages} pages (${format.int(Math.max(...crowded.refused))} 429s)`,
      met: mostCalls <= crowded.pages,
      whyMissed:
        "a listing reads every page once; more calls mean reads by id (a resource the listing did not hold) or a listing taken twice in one refresh.",
    },
    {
      benchmark: "paging",
      target: `refresh among ${format.int(s.perKind)} per kind <= ${TIME_TARGET}x the same stack alone`,
      measured: `${format.ratio(ratio)}${medianIntervalNote(perRound)}`,
      met: shownRatio(ratio) <= TIME_TARGET,
      whyMissed:
        "the crowded refresh reads and parses every page of both kinds (the provider process's CPU per listed item) where the stack alone reads one page each. What would close it: a CPU profile of the provider process during the refresh (`--cpu-prof` through NODE_OPTIONS).",
    },
  ];
  return {
    title: "11. Refresh on paged lists: a stack among thousands of its kinds",
    method: [
      `A stack of ${s.stackSize} resources (half network volumes, half serverless endpoints: bench/programs/runpod-stack) on an account holding ${format.int(s.perKind)} of each kind, made before the stack's (so the stack's volumes sit at positions ${position.first + 1} to ${position.last + 1}, the last page starting at ${lastPageStart + 1}), against the same stack alone on a second account of the same in-process emulator, pages of ${format.int(s.pageSize)} (the platform's default).`,
      "Both stacks were deployed through management API v1 (the others made through v1 too), moved to v2 by an unchanged `up`, and refreshed through v2 under its default quota (60 calls a minute, 3,000 an hour, 50,000 a day); one untimed refresh each first, then the timed ones interleaved.",
      `${s.rounds} rounds; each refresh \`pulumi refresh --parallel 100\` through the Automation API, which must show no change; calls are those the emulator admitted (429s apart).`,
    ],
    tables: [
      {
        title: "Refresh through v2",
        columns: ["stack", "median", "fastest", "slowest", "calls", "list pages", "429s"],
        rows: sides.map((side) => [
          `${side.name} (${side === crowded ? `${format.int(s.perKind)} per kind` : `${s.stackSize / 2} per kind`})`,
          format.seconds(median(side.ms)),
          format.seconds(Math.min(...side.ms)),
          format.seconds(Math.max(...side.ms)),
          format.int(Math.max(...side.calls)),
          format.int(side.pages),
          format.int(side.refused.reduce((a, b) => a + b, 0)),
        ]),
      },
    ],
    targets,
    notes: [],
  };
}

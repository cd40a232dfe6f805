import { type RunningEmulator, startEmulator } from "../../../emulator";
import { type BackendKind, openStateBackend, type StateBackend } from "../../backends/state-backend";
import { type CliResult, createEngineStack, type EngineStack, ensureBuilt } from "../engine-harness";
import { accountCounters, drift, platformInventory, reconcile, stateInventory } from "../inventory";
import { readState, setFaults } from "../kill-window";
import { seedStreams } from "../seed";
import { type RecordingProxy, startRecordingProxy } from "./recording-proxy";

/**
 * A fleet on one account (docs/teams.md): one project, a stack per environment and region, all on one
 * shared state backend and one emulator account with its rate limits on and 10% of management
 * requests answered 429, updated by a few parallel runners (CI jobs) that each take the next
 * stack. Every stack must converge in one `pulumi up`, touch no other stack's resources, and
 * destroy to nothing. The figures come from the emulator's own counters, and the management
 * routes from the URL the emulator advertises (`apiUrl`), so this runs the same whichever API
 * version the emulator serves. `fleet.test.ts` runs a small fleet in `npm test`; `npm run fleet`
 * the full one (4 environments x 5 regions, 4 runners).
 */

/** What to run. */
export interface FleetOptions {
  environments: readonly string[];
  /** Data centers, one stack per environment and region. */
  regions: readonly string[];
  /** Runners at once. */
  runners: number;
  /** Volumes, and as many endpoints, per stack. */
  perStack: number;
  seed: number;
  backend: BackendKind;
}

/** One phase (`up` of every stack, or `destroy`), by the emulator's counters. */
export interface PhaseFigures {
  wallMs: number;
  /** Per stack: the slowest, the median and the fastest run. */
  stackMs: { min: number; median: number; max: number };
  /** HTTP requests the emulator answered, retries included. */
  attempts: number;
  /** 429s injected by the fault rule. */
  injected429: number;
  /** 429s of the emulator's rate limiter. */
  limiter429: number;
  /** Attempts per request that got through (attempts / (attempts - 429s)). */
  attemptsPerRequest: number;
  peakInFlight: number;
  /** Runs that failed (each stack gets one). */
  failed: { stack: string; output: string }[];
}

/** What the fleet did and what it left. */
export interface FleetResult {
  stacks: number;
  resources: number;
  up: PhaseFigures;
  destroy: PhaseFigures;
  /** Per stack, after `up`: orphans, duplicates, drift, pending operations (all must be empty). */
  problems: string[];
  /** Requests of one stack naming a resource another stack holds (must be empty). */
  crossStack: string[];
  /** Resources left on the platform after destroy (must be 0). */
  leftAfterDestroy: number;
}

interface FleetStack {
  name: string;
  proxy: RecordingProxy;
  e: EngineStack;
}

/** Runs `fn` over `items`, at most `limit` at once, in order of `items`. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Runs `args` on every stack, `runners` at once, and reads the phase's figures off the emulator. */
async function phase(
  stacks: FleetStack[],
  emulator: RunningEmulator,
  key: string,
  runners: number,
  args: string[],
): Promise<PhaseFigures> {
  const before = accountCounters(emulator, key);
  const t0 = Date.now();
  const runs = await pool(stacks, runners, async (s) => {
    const started = Date.now();
    const r: CliResult = await s.e.cli(args);
    return { stack: s.name, ms: Date.now() - started, r };
  });
  const wallMs = Date.now() - t0;
  const after = accountCounters(emulator, key);
  const attempts = after.requests - before.requests;
  const injected429 = after.faults.rateLimit - before.faults.rateLimit;
  const limiter429 = after.rateLimited - before.rateLimited;
  const ms = runs.map((x) => x.ms);
  return {
    wallMs,
    stackMs: { min: Math.min(...ms), median: median(ms), max: Math.max(...ms) },
    attempts,
    injected429,
    limiter429,
    attemptsPerRequest: attempts / Math.max(1, attempts - injected429 - limiter429),
    peakInFlight: after.peakInFlight,
    failed: runs
      .filter((x) => x.r.code !== 0)
      .map((x) => ({ stack: x.stack, output: `${x.r.stdout.slice(-3000)}\n${x.r.stderr.slice(-3000)}` })),
  };
}

/** Ids named in the paths a stack requested that belong to another stack. */
function crossStackTouches(stacks: FleetStack[], owned: Map<string, Set<string>>): string[] {
  const owner = new Map<string, string>();
  for (const [stack, ids] of owned) for (const id of ids) owner.set(id, stack);
  const found: string[] = [];
  for (const s of stacks) {
    for (const request of s.proxy.requests) {
      const path = request.split(" ")[1]?.split("?")[0] ?? "";
      for (const segment of path.split("/")) {
        const holder = owner.get(segment);
        if (holder !== undefined && holder !== s.name) found.push(`${s.name}: ${request} (${holder}'s)`);
      }
    }
  }
  return found;
}

/** Runs the fleet: set-up, one `up` per stack, the checks, one `destroy` per stack. */
export async function runFleet(options: FleetOptions): Promise<FleetResult> {
  ensureBuilt();
  const streams = seedStreams(options.seed, "fleet");
  const key = `rpa_FLEET${options.seed}`;
  // The fleet's 429s are the job API's limits and the injected ones, as in its published runs; the
  // v2 management quota's pacing is measured by `npm run bench -- --only management`.
  const emulator = await startEmulator({ port: 0, apiKeys: [key], seed: streams.emulator, managementQuota: false });
  const management = new URL(emulator.apiUrl).pathname;
  const queue = new URL(emulator.queueUrl).pathname;
  let backend: StateBackend | undefined;
  const stacks: FleetStack[] = [];
  try {
    await setFaults(emulator, key, [{ route: management, rateLimitRate: 0.1 }]);
    backend = await openStateBackend(options.backend);
    const shared = backend;
    const names = options.environments.flatMap((env) =>
      options.regions.map((region) => ({ name: `${env}-${region.toLowerCase()}`, region })),
    );
    // Set-up, as each CI job's checkout would have it: one work dir per stack, one backend for all.
    stacks.push(
      ...(await pool(names, options.runners, async ({ name, region }) => {
        const proxy = await startRecordingProxy(emulator.url);
        const e = await createEngineStack(
          "fleet",
          { apiUrl: `${proxy.origin}${management}`, queueUrl: `${proxy.origin}${queue}`, apiKey: key },
          {
            backend: shared,
            stackName: name,
            label: `fleet-${name}`,
            config: { "fleet:count": { value: String(options.perStack) }, "fleet:region": { value: region } },
            env: { RUNPOD_RETRY_SEED: String(streams.retries) },
          },
        );
        return { name, proxy, e };
      })),
    );
    const up = await phase(stacks, emulator, key, options.runners, ["up", "--yes", "--skip-preview"]);
    const problems: string[] = [];
    const owned = new Map<string, Set<string>>();
    const states = await pool(stacks, options.runners, async (s) => ({ s, state: await readState(s.e) }));
    for (const { s, state } of states) {
      const { ids, pending } = stateInventory(state);
      owned.set(s.name, new Set(ids));
      if (ids.length !== 2 * options.perStack) problems.push(`${s.name}: ${ids.length} resources in state`);
      problems.push(...pending.map((p) => `${s.name}: pending ${p}`));
      problems.push(...drift(emulator, key, state).map((d) => `${s.name}: drift ${d}`));
    }
    const all = { deployment: { resources: states.flatMap(({ state }) => state.deployment.resources ?? []) } };
    const r = reconcile(platformInventory(emulator, key), all);
    problems.push(...r.orphans.map((o) => `orphan ${o}`), ...r.missing.map((m) => `missing ${m}`));
    problems.push(...r.duplicates.map((d) => `duplicate ${d}`), ...r.doubleRecorded.map((d) => `recorded twice ${d}`));
    const crossStack = crossStackTouches(stacks, owned);
    const destroy = await phase(stacks, emulator, key, options.runners, ["destroy", "--yes", "--skip-preview"]);
    return {
      stacks: stacks.length,
      resources: r.platform,
      up,
      destroy,
      problems,
      crossStack,
      leftAfterDestroy: platformInventory(emulator, key).length,
    };
  } finally {
    for (const s of stacks) {
      s.e.dispose();
      await s.proxy.close();
    }
    await backend?.close();
    await emulator.close();
  }
}

/** The result as one line of figures (what the docs quote). */
export function fleetFigures(result: FleetResult, options: FleetOptions): string {
  const p = (name: string, f: PhaseFigures) =>
    `${name}WallS=${(f.wallMs / 1000).toFixed(1)} ${name}StackS=${(f.stackMs.min / 1000).toFixed(1)}/` +
    `${(f.stackMs.median / 1000).toFixed(1)}/${(f.stackMs.max / 1000).toFixed(1)} ${name}Attempts=${f.attempts} ` +
    `${name}Injected429=${f.injected429} ${name}Limiter429=${f.limiter429} ` +
    `${name}AttemptsPerRequest=${f.attemptsPerRequest.toFixed(3)} ${name}Failed=${f.failed.length}`;
  return (
    `fleet: seed=${options.seed} backend=${options.backend} stacks=${result.stacks} ` +
    `(${options.environments.length} environments x ${options.regions.length} regions) runners=${options.runners} ` +
    `resources=${result.resources} ${p("up", result.up)} ${p("destroy", result.destroy)} ` +
    `peakInFlight=${result.destroy.peakInFlight} problems=${result.problems.length} ` +
    `crossStack=${result.crossStack.length} leftAfterDestroy=${result.leftAfterDestroy}`
  );
}

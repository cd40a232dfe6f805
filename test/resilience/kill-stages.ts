import * as fs from "node:fs";
import { type FaultRule, type RunningEmulator, startEmulator } from "../../emulator";
import type { StateBackend } from "../backends/state-backend";
import {
  type CliResult,
  createEngineStack,
  type EngineStack,
  ensureBuilt,
  RAISED_MANAGEMENT_QUOTA,
  type StackNaming,
} from "./engine-harness";
import { drift, platformInventory, reconcile, stateInventory } from "./inventory";
import { managementRoutes } from "./management-routes";
import { checkpointSidecar, hold, killWhenHeld, readState, runRecover, setFaults } from "./kill-window";
import { seedStreams, withSeed } from "./seed";

/**
 * `pulumi up` and `pulumi destroy` SIGKILLed at every step (update, replacement,
 * destroy, create with a broken checkpoint sidecar), each followed by the documented recovery
 * (`runpod-iac recover --run up|destroy`). Each stage kills inside its window (see
 * kill-window.ts), proves the kill left the platform and the state apart, recovers, and requires
 * state equal to the platform, zero orphans, zero duplicates and a second `up` with no changes.
 * The stages run in order on one stack of the fleet program: `npm test` runs them all on PostgreSQL
 * and S3 (shared-backend-scenarios.ts) and the broken-sidecar one on files (kills.test.ts);
 * `npm run soak` runs them all on files over many seeds.
 */

/** One stack, its emulator and the seeded choices of a run of the stages. */
export interface StageContext {
  seed: number;
  key: string;
  emulator: RunningEmulator;
  e: EngineStack;
  /** Volumes (and as many endpoints) of the fleet. */
  count: number;
  /** Kill points: which held answer, how long after it. */
  random: () => number;
  /** What happened so far, for failure messages and the figures line. */
  log: string[];
}

/**
 * Starts a seeded emulator and a fleet stack of `count` volumes and `count` endpoints, on
 * `backend` (opened and closed by the caller) or on a file backend of its own, named by `names`.
 */
export async function openStages(
  seed: number,
  label: string,
  count: number,
  backend?: StateBackend,
  names: StackNaming = {},
): Promise<StageContext> {
  ensureBuilt();
  const streams = seedStreams(seed, label);
  const key = `rpa_KILLSTAGES${seed}`;
  const emulator = await startEmulator({
    port: 0,
    apiKeys: [key],
    rateLimits: false,
    seed: streams.emulator,
    managementQuota: RAISED_MANAGEMENT_QUOTA,
  });
  const e = await createEngineStack(
    "fleet",
    { apiUrl: emulator.apiUrl, queueUrl: emulator.queueUrl, apiKey: key },
    {
      config: { "fleet:count": { value: String(count) } },
      label,
      env: { RUNPOD_RETRY_SEED: String(streams.retries) },
      ...(backend ? { backend } : {}),
      ...names,
    },
  );
  return { seed, key, emulator, e, count, random: streams.random, log: [] };
}

/** Stops the emulator and removes the stack's work and backend directories. */
export async function closeStages(ctx: StageContext | undefined): Promise<void> {
  await ctx?.emulator.close();
  ctx?.e.dispose();
}

/** Throws a failure naming the seed, with the stages' log, unless `ok`. */
export function must(ctx: StageContext, ok: boolean, what: string, detail = ""): void {
  if (!ok) throw new Error(withSeed(ctx.seed, `${what}${detail ? `\n${detail}` : ""}\n-- log:\n${ctx.log.join("\n")}`));
}

function ran(ctx: StageContext, step: string, r: CliResult): void {
  must(ctx, r.code === 0, `${step} failed (exit ${r.code})`, `${r.stdout}\n${r.stderr}`);
}

/** `pulumi up` as every stage runs it. */
export const UP = ["up", "--yes", "--skip-preview"];
const DESTROY = ["destroy", "--yes", "--skip-preview"];

/** Requires state equal to the platform: `count` resources of each kind, no orphan, duplicate, pending operation or drift. */
export async function mustMatchPlatform(ctx: StageContext, stage: string, resources: number): Promise<void> {
  const state = await readState(ctx.e);
  const r = reconcile(platformInventory(ctx.emulator, ctx.key), state);
  const pending = stateInventory(state).pending;
  const drifted = drift(ctx.emulator, ctx.key, state);
  const problems = [
    ...(r.platform !== resources || r.state !== resources
      ? [`platform ${r.platform}, state ${r.state}, want ${resources}`]
      : []),
    ...r.orphans.map((o) => `orphan ${o}`),
    ...r.missing.map((m) => `missing ${m}`),
    ...r.duplicates.map((d) => `duplicate ${d}`),
    ...r.doubleRecorded.map((d) => `recorded twice ${d}`),
    ...pending.map((p) => `pending ${p}`),
    ...drifted.map((d) => `drift ${d}`),
  ];
  must(ctx, problems.length === 0, `${stage}: state does not match the platform`, problems.join("\n"));
}

/** The second `up` after a recovery changes nothing. */
export async function mustBeNoOp(ctx: StageContext, stage: string): Promise<void> {
  ran(ctx, `${stage}: second up (--expect-no-changes)`, await ctx.e.cli([...UP, "--expect-no-changes"]));
}

/** Kills `args` at the k-th held answer of `route` (k and a 0-150 ms delay drawn from the seed). */
async function killAt(ctx: StageContext, stage: string, args: string[], route: string, maxK: number) {
  const k = 1 + Math.floor(ctx.random() * maxK);
  const delayMs = Math.floor(ctx.random() * 150);
  await setFaults(ctx.emulator, ctx.key, [hold(route)]);
  const outcome = await killWhenHeld(ctx.e, ctx.emulator, ctx.key, args, k, delayMs);
  await setFaults(ctx.emulator, ctx.key, []);
  ctx.log.push(
    `${stage}: kill at held answer ${k} of ${route} + ${delayMs} ms: ${outcome.held} held, killed=${outcome.killed}`,
  );
  must(ctx, outcome.killed, `${stage}: the run ended before ${k} answers of ${route} were held`, outcome.output);
  return outcome;
}

/** Recovers with `runpod-iac recover --run <then>` (and `extra` flags). */
async function recover(ctx: StageContext, stage: string, then: "up" | "destroy", extra: string[] = []): Promise<void> {
  const r = await runRecover(ctx.e, then, extra);
  ctx.log.push(
    `${stage}: recover${extra.length ? ` ${extra.join(" ")}` : ""}: ${r.stdout
      .split("\n")
      .filter((l) => /^\s+(removed|removing|cleared|no pending)/.test(l))
      .join("; ")
      .trim()}`,
  );
  ran(ctx, `${stage}: runpod-iac recover --run ${then}`, r);
  mustNotLeak(ctx, stage, r);
}

/** Requires that `recover` printed no credential of the backend and not the stack's passphrase. */
function mustNotLeak(ctx: StageContext, stage: string, r: CliResult): void {
  const printed = `${r.stdout}${r.stderr}`;
  const secrets = [...ctx.e.backend.credentials, ctx.e.envVars.PULUMI_CONFIG_PASSPHRASE ?? ""];
  const leaked = secrets.filter((c) => c !== "" && printed.includes(c)).length;
  must(ctx, leaked === 0, `${stage}: recover printed ${leaked} secret(s) (${ctx.e.backend.kind} backend, passphrase)`);
}

/**
 * A killed run's lock as a runner on another machine leaves it: `recover` cannot prove that run
 * dead, so it stops (exit 1) naming the lock's host, pid and age, and goes on only with
 * `--force-unlock`, which names them again before removing the lock.
 */
async function recoverForeignLock(ctx: StageContext, stage: string, then: "up" | "destroy"): Promise<void> {
  const moved = await ctx.e.backend.moveLocksToHost(FOREIGN_HOST);
  must(ctx, moved === 1, `${stage}: ${moved} locks of the killed run found, want 1`);
  const refused = await runRecover(ctx.e, then);
  const holder = new RegExp(`held by \\S+@${FOREIGN_HOST} \\(pid \\d+\\), taken (\\d+[dhms] ?)+ ago`);
  must(
    ctx,
    refused.code === 1 && holder.test(refused.stderr) && /--force-unlock/.test(refused.stderr),
    `${stage}: recover should stop at another machine's lock, naming it`,
    `${refused.stdout}\n${refused.stderr}`,
  );
  mustNotLeak(ctx, stage, refused);
  ctx.log.push(`${stage}: recover without --force-unlock stopped at the lock of ${FOREIGN_HOST}`);
  await recover(ctx, stage, then, ["--force-unlock"]);
}

/** The host a "foreign" lock names. */
const FOREIGN_HOST = "ci-runner-7";

/** The faults of faults.test.ts, on a small fleet, on the advertised API's routes: `up` converges in at most 3 runs. */
function faultMix(base: string): FaultRule[] {
  return [
    { route: `POST ${base}`, errorRate: 0.2, rateLimitRate: 0.1, dropRate: 0.05, jitterMs: 40, lostResponseRate: 0.3 },
    { route: base, errorRate: 0.2, rateLimitRate: 0.1, dropRate: 0.05, jitterMs: 40, lostResponseRate: 0.05 },
  ];
}

/** The management routes of the emulator's advertised API URL. */
const routesOf = (ctx: StageContext) => managementRoutes(ctx.emulator.apiUrl);

/** Creates the fleet, under the seeded fault mix when `faults` (at most 3 runs). */
export async function createFleet(ctx: StageContext, faults: boolean): Promise<string> {
  if (faults) await setFaults(ctx.emulator, ctx.key, faultMix(routesOf(ctx).base));
  let runs = 0;
  let last: CliResult | undefined;
  while (runs < 3 && last?.code !== 0) {
    runs++;
    last = await ctx.e.cli(UP);
  }
  await setFaults(ctx.emulator, ctx.key, []);
  ctx.log.push(`create: ${runs} up run(s)${faults ? " under faults" : ""}`);
  ran(ctx, `create: up (${runs} runs)`, last as CliResult);
  await mustMatchPlatform(ctx, "create", 2 * ctx.count);
  return `create: ${runs} run(s)`;
}

/**
 * Kill during updates (every volume grows, every endpoint gets more workers): the platform
 * changed, state did not. With `foreignLock` the killed run's lock is made another machine's
 * first (see `recoverForeignLock`).
 */
export async function killDuringUpdate(ctx: StageContext, options: { foreignLock?: boolean } = {}): Promise<string> {
  await ctx.e.stack.setConfig("fleet:generation", { value: "1" });
  await killAt(ctx, "update", UP, `PATCH ${routesOf(ctx).base}`, ctx.count);
  const changed = drift(ctx.emulator, ctx.key, await readState(ctx.e));
  must(ctx, changed.length > 0, "update: the kill left no update unrecorded (no drift)");
  ctx.log.push(`update: ${changed.length} platform values not in state at the kill`);
  if (options.foreignLock) await recoverForeignLock(ctx, "update", "up");
  else await recover(ctx, "update", "up");
  await mustMatchPlatform(ctx, "update", 2 * ctx.count);
  await mustBeNoOp(ctx, "update");
  return `update: ${changed.length} unrecorded changes${options.foreignLock ? ", another machine's lock" : ""}`;
}

/**
 * Kill during replacements (every volume moves to another data center: create the new, update
 * the endpoints, delete the old). The seed picks the window: right after a new volume was created
 * (old not yet deleted) or right after an old one was deleted (still in state).
 */
export async function killDuringReplace(ctx: StageContext): Promise<string> {
  await ctx.e.stack.setConfig("fleet:dcShift", { value: "1" });
  const afterCreate = ctx.random() < 0.5;
  const volumes = routesOf(ctx).networkVolumes;
  const route = afterCreate ? `POST ${volumes}` : `DELETE ${volumes}`;
  await killAt(ctx, "replace", UP, route, ctx.count);
  const atKill = reconcile(platformInventory(ctx.emulator, ctx.key), await readState(ctx.e));
  const apart = afterCreate ? atKill.orphans.length : atKill.missing.length;
  must(
    ctx,
    apart > 0,
    `replace: the kill after ${afterCreate ? "a create" : "a delete"} left nothing apart`,
    JSON.stringify(atKill),
  );
  ctx.log.push(
    `replace: ${afterCreate ? `${apart} new volumes unrecorded` : `${apart} deleted volumes still in state`}`,
  );
  await recover(ctx, "replace", "up");
  await mustMatchPlatform(ctx, "replace", 2 * ctx.count);
  await mustBeNoOp(ctx, "replace");
  return `replace: ${afterCreate ? "after create" : "after delete"}, ${apart} apart`;
}

/** Kill during `pulumi destroy`: resources deleted on the platform are still in state. */
export async function killDuringDestroy(ctx: StageContext): Promise<string> {
  await killAt(ctx, "destroy", DESTROY, `DELETE ${routesOf(ctx).base}`, ctx.count);
  const atKill = reconcile(platformInventory(ctx.emulator, ctx.key), await readState(ctx.e));
  must(ctx, atKill.missing.length > 0, "destroy: the kill left no deleted resource in state", JSON.stringify(atKill));
  ctx.log.push(`destroy: ${atKill.missing.length} deleted resources still in state`);
  await recover(ctx, "destroy", "destroy");
  await mustMatchPlatform(ctx, "destroy", 0);
  return `destroy: ${atKill.missing.length} apart`;
}

/**
 * Kill during creates (the fleet created anew after a destroy): creates that took effect are
 * unrecorded, and `recover` must adopt every one of them, creating none twice. With
 * `breakSidecar` (file backends), the checkpoint's `.attrs` sidecar is then emptied as a kill
 * between its truncate and its write does: every `pulumi` command then fails (`failed to load
 * checkpoint: EOF`, as a killed CI run once left it), and `recover` must repair that first.
 */
export async function killDuringCreate(ctx: StageContext, options: { breakSidecar?: boolean } = {}): Promise<string> {
  const stage = options.breakSidecar ? "checkpoint" : "create";
  await killAt(ctx, stage, UP, `POST ${routesOf(ctx).base}`, ctx.count);
  const recorded = new Set(stateInventory(await readState(ctx.e)).ids);
  const lost = platformInventory(ctx.emulator, ctx.key).filter((r) => !recorded.has(r.id));
  must(ctx, lost.length > 0, `${stage}: the kill left no create unrecorded`);
  if (options.breakSidecar) {
    fs.writeFileSync(checkpointSidecar(ctx.e), "");
    const cancel = await ctx.e.cli(["cancel", "--yes"]);
    must(
      ctx,
      cancel.code !== 0 && /failed to load checkpoint: EOF|error: EOF/.test(cancel.stderr),
      "checkpoint: an empty sidecar should break pulumi cancel (the old runbook's first step)",
      cancel.stderr,
    );
    ctx.log.push(`checkpoint: ${lost.length} creates unrecorded, sidecar emptied, pulumi cancel fails`);
  } else {
    ctx.log.push(`create: ${lost.length} creates unrecorded`);
  }
  await recover(ctx, stage, "up");
  await mustMatchPlatform(ctx, stage, 2 * ctx.count);
  const ids = new Set(stateInventory(await readState(ctx.e)).ids);
  const adopted = lost.filter((r) => ids.has(r.id)).length;
  must(ctx, adopted === lost.length, `${stage}: ${adopted} of ${lost.length} lost creates adopted`);
  await mustBeNoOp(ctx, stage);
  return `${stage}: ${lost.length} lost creates adopted`;
}

/** `killDuringCreate` with the checkpoint's sidecar emptied (file backends). */
export const killWithBrokenCheckpoint = (ctx: StageContext): Promise<string> =>
  killDuringCreate(ctx, { breakSidecar: true });

/** Destroys the fleet: nothing may be left on the platform. */
export async function destroyFleet(ctx: StageContext): Promise<void> {
  ran(ctx, "final destroy", await ctx.e.cli(DESTROY));
  await mustMatchPlatform(ctx, "final destroy", 0);
}

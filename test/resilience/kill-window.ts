import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { FaultRule, RunningEmulator } from "../../emulator";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import type { CliResult, EngineStack, StateExport } from "./engine-harness";
import { accountCounters } from "./inventory";
import { killTree } from "./process-tree";

/**
 * Killing a `pulumi` run inside the window that matters, deterministically: the emulator holds
 * the answer of every request a rule matches (`holdResponseMs`) after the request took effect,
 * the test waits until the chosen number of answers is being held, and SIGKILLs the whole run
 * then. The platform has acted and Pulumi has not heard: no sleeping and hoping.
 */

/** How long a held answer waits; the kill comes long before (the emulator sends it at once when the client dies). */
const HOLD_MS = 60_000;
/** The longest wait for the k-th held answer: a busy machine may take long to start a run. */
const WAIT_MS = 240_000;

/** Sets an account's fault rules through the admin route (never faulted itself). */
export async function setFaults(emulator: RunningEmulator, key: string, rules: FaultRule[]): Promise<void> {
  const res = await fetch(`${emulator.url}/_emulator/faults`, {
    method: "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (res.status !== 200) throw new Error(`PUT /_emulator/faults: ${res.status} ${await res.text()}`);
}

/** A rule holding the answers of `route` (e.g. `PATCH /v1`) long enough to kill in the window. */
export const hold = (route: string): FaultRule => ({ route, holdResponseMs: HOLD_MS });

/** What a kill found. */
export interface KillOutcome {
  /** False when the run ended before `k` answers were held (nothing was killed). */
  killed: boolean;
  /** Held answers when the kill came. */
  held: number;
  exitCode: number | null;
  output: string;
}

/**
 * Starts `pulumi <args>`, waits until `k` answers are held by the emulator, then `delayMs` more
 * (other requests may take effect meanwhile), and SIGKILLs every process of the run.
 */
export async function killWhenHeld(
  e: EngineStack,
  emulator: RunningEmulator,
  key: string,
  args: string[],
  k: number,
  delayMs: number,
): Promise<KillOutcome> {
  const heldNow = () => accountCounters(emulator, key).faults.heldResponse;
  const before = heldNow();
  const child = e.spawnCli(args);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const deadline = Date.now() + WAIT_MS;
  while (heldNow() - before < k && child.exitCode === null && Date.now() < deadline) await sleep(5);
  if (heldNow() - before >= k) await sleep(delayMs);
  const held = heldNow() - before;
  if (child.exitCode !== null || held < k) {
    if (child.exitCode === null) await killTree(child);
    return { killed: false, held, exitCode: child.exitCode, output };
  }
  await killTree(child);
  return { killed: true, held, exitCode: null, output };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The package's bin, built in dist/ (what `npx runpod-iac` runs). */
const BIN = path.join(REPO_ROOT, "dist", "cli", "main.js");

/**
 * Runs `runpod-iac recover` against the stack's backend, as the runbook says: free the stack
 * (and repair a file backend), then (`run`) refresh and `up` or `destroy`. `extra` adds flags
 * such as `--force-unlock`.
 */
export async function runRecover(
  e: EngineStack,
  run: "up" | "destroy" | undefined,
  extra: string[] = [],
): Promise<CliResult> {
  const pulumi = path.join(await providePulumiCli(), "pulumi");
  const args = [BIN, "recover", "--backend", e.backend.url, "--stack", e.stackName, "--pulumi", pulumi, ...extra];
  if (run) args.push("--run", run, "--cwd", e.workDir);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: e.workDir, env: { ...process.env, ...e.envVars }, maxBuffer: 64 << 20 },
      (err, stdout, stderr) =>
        resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 }),
    );
  });
}

/** The stack's file backend directory; the stages that break a file need one. */
function fileBackendDir(e: EngineStack): string {
  if (!e.backend.dir) throw new Error(`the ${e.backend.kind} backend has no files: this stage needs a file backend`);
  return e.backend.dir;
}

/** The checkpoint's sidecar in the stack's file backend. */
export function checkpointSidecar(e: EngineStack): string {
  const stacks = path.join(fileBackendDir(e), ".pulumi", "stacks");
  for (const project of fs.readdirSync(stacks)) {
    const file = path.join(stacks, project, `${e.stackName}.json.attrs`);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`no ${e.stackName}.json.attrs under ${stacks}`);
}

/**
 * The stack's state, which the kill tests read after every step. On a file backend it is read
 * straight from the checkpoint file (`{ checkpoint: { latest } }`): one `pulumi stack export` less
 * each time (seconds on a busy machine), and readable whatever the sidecars say. Other backends
 * are read through the engine (`pulumi stack export`). The engine itself reads it in every
 * recovery step and in the second `up`.
 */
export async function readState(e: EngineStack): Promise<StateExport> {
  if (!e.backend.dir) return e.exportState();
  const stacks = path.join(e.backend.dir, ".pulumi", "stacks");
  for (const project of fs.readdirSync(stacks)) {
    const file = path.join(stacks, project, `${e.stackName}.json`);
    if (!fs.existsSync(file)) continue;
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint?: { latest?: StateExport["deployment"] } };
    return { deployment: parsed.checkpoint?.latest ?? {} };
  }
  throw new Error(`no checkpoint of ${e.stackName} under ${stacks}`);
}

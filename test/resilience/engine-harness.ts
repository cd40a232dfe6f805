import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type ConfigMap, LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { pulumiCommandOf, resultsFromEngineEvents, setNewStackConfig } from "../e2e/engine-results";
import { DEFAULT_QUOTA_WINDOWS, type QuotaWindow } from "../../emulator";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { openStateBackend, type StateBackend } from "../backends/state-backend";

/**
 * The real Pulumi engine for the resilience tests. Unlike test/e2e/harness.ts it does not start
 * the emulator itself: each test starts the one it needs (in-process with faults, or the CLI with
 * its request log) and hands its addresses in.
 */

/** Work directories live inside the repo so `runpod-iac` and `@pulumi/pulumi` resolve as in a user's project. */
const WORK_ROOT = path.join(REPO_ROOT, ".e2e-work");

/** Where a stack's provider sends its requests, and with which key. */
export interface PlatformAccess {
  apiUrl: string;
  queueUrl: string;
  apiKey: string;
}

/** Output of one `pulumi` CLI run. */
export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** A stack of a program from test/resilience/programs, on a file backend of its own or a given one. */
export interface EngineStack {
  stack: Stack;
  stackName: string;
  workDir: string;
  /** Where its state lives. */
  backend: StateBackend;
  /** `PULUMI_HOME` of its engine runs (workspace settings, credentials, plugins). */
  homeDir: string;
  /** Environment of every engine run: backend, its credentials, passphrase, `RUNPOD_API_KEY`. */
  envVars: Record<string, string>;
  /** Runs the `pulumi` CLI in the work dir; `env` overrides the stack's environment. */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Starts the `pulumi` CLI as the leader of its own process group (for kill tests). */
  spawnCli(args: string[]): ChildProcess;
  /** `pulumi stack export`, parsed. */
  exportState(): Promise<StateExport>;
  /** Removes the work dir, Pulumi's home and a backend of the stack's own (a given one stays open). */
  dispose(): void;
}

/** The parts of `pulumi stack export` the tests read. */
export interface StateExport {
  deployment: {
    resources?: { urn: string; type: string; id?: string; outputs?: Record<string, unknown> }[];
    pending_operations?: { type: string; resource: { urn: string } }[];
  };
}

/**
 * Builds the package when dist/ is older than the sources the engine loads: programs require
 * `runpod-iac` (dist/) like a user's project. `npm test` builds first, so this is a no-op there.
 */
/**
 * v2's per-user management quota at ten times the default a minute (an account with a raised
 * limit), for the scenarios whose subject is not the quota: at 60 a minute their management calls
 * (retries under faults, a recovery's refresh and its second `up`) would spend most of their time
 * waiting for the quota's windows, with both cores idle. The quota stays on, so the client still
 * reads its headers; its own tests and the pulumi benchmark pace it at the default.
 */
export const RAISED_MANAGEMENT_QUOTA: readonly QuotaWindow[] = [
  { name: "minute", quota: 600, seconds: 60 },
  ...DEFAULT_QUOTA_WINDOWS.slice(1),
];

export function ensureBuilt(): void {
  const impl = path.join(REPO_ROOT, "dist", "provider", "impl.js");
  const fresh = () => {
    const newest = Math.max(
      ...["provider", "sdk", "emulator"].map((dir) => newestSource(path.join(REPO_ROOT, dir))),
      fs.statSync(path.join(REPO_ROOT, "index.ts")).mtimeMs,
    );
    return fs.existsSync(impl) && fs.statSync(impl).mtimeMs >= newest;
  };
  if (fresh()) return;
  // Test files run in parallel workers: one builds, the others wait, so no engine loads a half-written file.
  withLock(path.join(REPO_ROOT, "dist", ".resilience-build.lock"), () => {
    if (fresh()) return;
    try {
      execFileSync("npx", ["tsc", "-p", "tsconfig.json"], { cwd: REPO_ROOT, stdio: "pipe" });
    } catch {
      // Type errors elsewhere in the tree do not stop tsc from emitting; the check below decides.
    }
  });
  if (!fs.existsSync(impl)) throw new Error("could not build dist/ (npx tsc -p tsconfig.json)");
}

/** Runs `fn` holding a directory lock (mkdir is atomic); a lock older than 5 minutes is stale. */
function withLock(lock: string, fn: () => void): void {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000 || Date.now() > deadline) fs.rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** How `createEngineStack` sets a stack up. */
export interface EngineStackOptions {
  /** Stack config besides the platform's addresses. */
  config?: ConfigMap;
  /** Prefix of the work dir's name (default: the program's). */
  label?: string;
  /** Added to every engine run's environment (e.g. `RUNPOD_RETRY_SEED`). */
  env?: Record<string, string>;
  /** A backend the caller opened and closes (default: a file backend of the stack's own). */
  backend?: StateBackend;
  /** Default `resilience`. */
  stackName?: string;
  /** The project's name (default: the program's, from its Pulumi.yaml). */
  project?: string;
  /** `PULUMI_CONFIG_PASSPHRASE` of every engine run (default `resilience-passphrase`). */
  passphrase?: string;
}

/** How a stack and its project are named, and the passphrase of its secrets. */
export type StackNaming = Pick<EngineStackOptions, "stackName" | "project" | "passphrase">;

/**
 * A passphrase that is part of the project's name (and so of the stack's full name,
 * `organization/team-backend-app/dev`): everything `recover` prints must mask it, and nothing it
 * parses from the engine may be masked, or the stack it names is not the stack (a masked
 * `organization/****-backend-app/dev` is refused by the engine).
 */
export const PASSPHRASE_IN_NAMES: Required<StackNaming> = {
  passphrase: "team",
  project: "team-backend-app",
  stackName: "dev",
};

/** Creates a stack of `program` (a folder of test/resilience/programs) against `platform`. */
export async function createEngineStack(
  program: string,
  platform: PlatformAccess,
  options: EngineStackOptions = {},
): Promise<EngineStack> {
  const bin = await providePulumiCli();
  fs.mkdirSync(WORK_ROOT, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(WORK_ROOT, `${options.label ?? program}-`));
  fs.cpSync(path.join(REPO_ROOT, "test", "resilience", "programs", program), workDir, { recursive: true });
  if (options.project !== undefined) renameProject(workDir, options.project);
  const backend = options.backend ?? (await openStateBackend("file"));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-pulumi-home-"));
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: backend.url,
    ...backend.env,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase ?? "resilience-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: home,
    RUNPOD_API_KEY: platform.apiKey,
    ...options.env,
  };
  const stackName = options.stackName ?? "resilience";
  const pulumiCommand = await pulumiCommandOf(path.dirname(bin));
  const stack = resultsFromEngineEvents(
    // A backend of its own has no stack yet: create it (createOrSelect would first try, and fail,
    // to select it, a CLI start more); on a caller's backend, a stack may already be there.
    options.backend
      ? await LocalWorkspace.createOrSelectStack({ stackName, workDir }, { pulumiCommand, envVars })
      : await LocalWorkspace.createStack({ stackName, workDir }, { pulumiCommand, envVars }),
  );
  await setNewStackConfig(stack, {
    "runpod:apiUrl": { value: platform.apiUrl },
    "runpod:queueUrl": { value: platform.queueUrl },
    ...options.config,
  });
  const pulumi = path.join(bin, "pulumi");
  const fullArgs = (args: string[]) => [...args, "--stack", stackName, "--non-interactive"];
  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<CliResult>((resolve) => {
      execFile(
        pulumi,
        fullArgs(args),
        { cwd: workDir, env: { ...process.env, ...envVars, ...env }, maxBuffer: 256 << 20 },
        (err, stdout, stderr) =>
          resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 }),
      );
    });
  return {
    stack,
    stackName,
    workDir,
    backend,
    homeDir: home,
    envVars,
    cli,
    spawnCli: (args) =>
      spawn(pulumi, fullArgs(args), {
        cwd: workDir,
        env: { ...process.env, ...envVars },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    async exportState() {
      const out = await cli(["stack", "export"]);
      if (out.code !== 0) throw new Error(`pulumi stack export failed: ${out.stderr}`);
      return JSON.parse(out.stdout) as StateExport;
    },
    dispose() {
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
      if (!options.backend && backend.dir) fs.rmSync(backend.dir, { recursive: true, force: true });
    },
  };
}

/** Gives the program copied into `workDir` the project name `project` (its Pulumi.yaml's `name`). */
function renameProject(workDir: string, project: string): void {
  const file = path.join(workDir, "Pulumi.yaml");
  const text = fs.readFileSync(file, "utf8");
  if (!/^name: .*$/m.test(text)) throw new Error(`${file} has no name: line to rename`);
  fs.writeFileSync(file, text.replace(/^name: .*$/m, `name: ${project}`));
}

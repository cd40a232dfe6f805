import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type ConfigMap, LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { providePulumiCli, REPO_ROOT } from "../scripts/pulumi-cli";

/** The benchmark programs, in bench/programs/ (plain JS, so no transpiling is measured). */
export type BenchProgram =
  "runpod-stack" | "plugin-stack" | "noop-stack" | "pod-stack" | "rollout-stack" | "volume-files-stack";

/** A stack of a benchmark program with its own work dir and file backend. */
export interface BenchStack {
  stack: Stack;
  workDir: string;
  backendDir: string;
  /** Bytes of the stack's checkpoint file in the file backend (what `pulumi up` writes). */
  stateFileBytes(): number;
  dispose(): void;
}

/**
 * Work dirs live inside the repo (gitignored), like the end-to-end tests', so `require("runpod-iac")`
 * resolves through the self-link node_modules/runpod-iac -> .. and runs the built package.
 */
const WORK_ROOT = path.join(REPO_ROOT, ".e2e-work");
const STACK_NAME = "bench";

/** Provides the Pulumi CLI (scripts/provide-pulumi.sh, as the end-to-end tests do) for the Automation API. */
export async function benchPulumiCommand(): Promise<{ command: PulumiCommand; version: string }> {
  const bin = await providePulumiCli();
  const command = await PulumiCommand.get({ root: path.dirname(bin) });
  return { command, version: command.version?.toString() ?? "unknown" };
}

function findStateFile(dir: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findStateFile(full);
      if (found) return found;
    } else if (entry.name === `${STACK_NAME}.json`) {
      return full;
    }
  }
  return undefined;
}

/** Copies `program` into a fresh work dir and creates its stack with `config` and `env` (e.g. RUNPOD_API_KEY). */
export async function createBenchStack(
  command: PulumiCommand,
  program: BenchProgram,
  label: string,
  config: ConfigMap,
  env: Record<string, string>,
): Promise<BenchStack> {
  fs.mkdirSync(WORK_ROOT, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(WORK_ROOT, `bench-${label}-`));
  fs.cpSync(path.join(REPO_ROOT, "bench", "programs", program), workDir, { recursive: true });
  const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-bench-backend-"));
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: path.join(backendDir, ".pulumi-home"),
    ...env,
  };
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: STACK_NAME, workDir },
    { pulumiCommand: command, envVars },
  );
  await stack.setAllConfig(config);
  return {
    stack,
    workDir,
    backendDir,
    stateFileBytes() {
      const file = findStateFile(path.join(backendDir, ".pulumi", "stacks"));
      return file ? fs.statSync(file).size : Number.NaN;
    },
    dispose() {
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(backendDir, { recursive: true, force: true });
    },
  };
}

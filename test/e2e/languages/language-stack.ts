import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { providePulumiCli, REPO_ROOT } from "../../../scripts/pulumi-cli";
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY } from "../../../emulator/s3/s3-options";
import { RunpodClient } from "../../../sdk/client";
import { openStateBackend, type StateBackend } from "../../backends/state-backend";
import { providePython, provideGoProgram, runTool, runToolOk } from "./language-tools";

/** A language whose program the end-to-end tests deploy through the plugin. */
export type Language = "python" | "go" | "yaml";

/** One config value of a stack. */
export interface ConfigValue {
  value: string;
  secret?: boolean;
}

/** What one step (up, preview or destroy) of a program did. */
export interface StepResult {
  ok: boolean;
  /** Resource changes by operation (`create`, `update`, `same`, `delete`, ...). */
  changes: Record<string, number>;
  /** Stack outputs after an `up` (a secret one's value is "[secret]"). */
  outputs: Record<string, { value: unknown; secret: boolean }>;
  /** Why the step failed. */
  error?: string;
}

/** A stack of one language's program against its own emulator, backend and Pulumi home. */
export interface LanguageStack {
  language: Language;
  emulator: RunningEmulator;
  client: RunpodClient;
  apiKey: string;
  backend: StateBackend;
  /** PULUMI_HOME: the plugin cache (the plugin is installed there) and the CLI's own files. */
  home: string;
  /** The project folder: Pulumi.yaml and the stack's settings file (encrypted config). */
  workDir: string;
  /** Sets (or, with undefined, removes) one key of the stack's config for the next steps. */
  setConfig(key: string, value: ConfigValue | undefined): void;
  step(step: "up" | "preview" | "destroy"): Promise<StepResult>;
  /** Everything the engine and the program printed so far, searched for secrets. */
  log(): string;
  /** API requests the emulator has answered for this account (admin routes excluded). */
  requestCount(): Promise<number>;
  /**
   * Runs the `pulumi` CLI in the project folder with the stack's environment; its output is not
   * added to `log()` (the tests decrypt secrets on purpose with `--show-secrets`).
   */
  cli(args: string[]): Promise<string>;
  dispose(): Promise<void>;
}

const STACK = "dev";
/** The files of the programs' `./weights` folder when a stack starts. */
export const WEIGHTS: Readonly<Record<string, string>> = {
  "config.json": '{"layers": 2}',
  "tokenizer/vocab.txt": "a b c",
};
/** The programs' project name (its config namespace). */
export const PROJECT = "runpod-deployment";
const LANGUAGES_DIR = path.join(REPO_ROOT, "test", "e2e", "languages");
const WORK_ROOT = path.join(REPO_ROOT, ".e2e-work");

/**
 * Starts an emulator (management API v2) and a file backend, installs the plugin into a Pulumi
 * home of the stack's own with `runpod-iac plugin install` (as a user does; needs `npm run
 * build`), and readies the language's program: the cached Python environment with the committed
 * SDK, the cached Go build, or the YAML program's folder. The key is in the stack's config, a
 * secret, as are the provider's URLs and the program's `apiToken`.
 */
export async function createLanguageStack(
  language: Language,
  apiToken: string,
  /**
   * Another program than the language's deployment: a Python file run by the same inline runner,
   * or a YAML project file (Pulumi.yaml's text). Go always runs its built program.
   */
  program?: { python?: string; yaml?: string },
): Promise<LanguageStack> {
  const bin = await providePulumiCli();
  const [python, goProgram] = await Promise.all([
    language === "python" ? providePython() : undefined,
    language === "go" ? provideGoProgram() : undefined,
  ]);
  const apiKey = `rpa_LANG${Math.random().toString(36).slice(2, 12).toUpperCase()}`;
  // Workers boot in 200 ms, polled every 0.5 s (below): endpoints are waited on until they serve.
  // An image `crash` is a container that crashes at start (a handler file that throws when loaded).
  const handlers = fs.mkdtempSync(path.join(os.tmpdir(), `runpod-${language}-handlers-`));
  fs.writeFileSync(path.join(handlers, "crash.mjs"), `throw new Error("CUDA error: out of memory");\n`);
  const emulator = await startEmulator({
    managementQuota: false,
    workerBootMs: 200,
    handlersDir: handlers,
    port: 0,
    apiKeys: [apiKey],
    rateLimits: false,
  });
  const backend = await openStateBackend("file");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `runpod-${language}-home-`));
  fs.mkdirSync(WORK_ROOT, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(WORK_ROOT, `lang-${language}-`));
  if (language === "yaml" && program?.yaml !== undefined)
    fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), program.yaml);
  else if (language === "yaml") fs.cpSync(path.join(LANGUAGES_DIR, "yaml"), workDir, { recursive: true });
  // The weights the programs put on the volume (`./weights`, the project folder's).
  for (const [name, content] of Object.entries(WEIGHTS)) {
    fs.mkdirSync(path.dirname(path.join(workDir, "weights", name)), { recursive: true });
    fs.writeFileSync(path.join(workDir, "weights", name), content);
  }
  // The runners see neither a developer's RUNPOD_* variables nor an outer PULUMI_* setting: only these.
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("RUNPOD_") && !k.startsWith("PULUMI_")),
  );
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    PULUMI_BACKEND_URL: backend.url,
    PULUMI_CONFIG_PASSPHRASE: "languages-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: home,
    RUNPOD_ROLLOUT_POLL_SECONDS: "0.5",
  };
  await runToolOk(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "plugin", "install"], { env });
  const client = new RunpodClient({ apiKey, apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
  const config = new Map<string, ConfigValue>([
    ["runpod-iac:apiKey", { value: apiKey, secret: true }],
    ["runpod-iac:apiUrl", { value: emulator.apiUrlV2 }],
    ["runpod-iac:queueUrl", { value: emulator.queueUrl }],
    [`${PROJECT}:apiToken`, { value: apiToken, secret: true }],
    ["runpod-iac:s3AccessKeyId", { value: DEFAULT_S3_ACCESS_KEY_ID }],
    ["runpod-iac:s3SecretAccessKey", { value: DEFAULT_S3_SECRET_ACCESS_KEY, secret: true }],
    ["runpod-iac:s3Url", { value: emulator.s3Url }],
  ]);
  let log = "";
  let yamlStack: Stack | undefined;

  async function inline(command: string, args: string[], step: string): Promise<StepResult> {
    // In the project folder, as a user runs a program: relative paths (`./weights`) are its.
    const result = await runTool(command, [...args, step], {
      cwd: workDir,
      env: {
        ...env,
        RUNPOD_E2E_WORK_DIR: workDir,
        RUNPOD_E2E_STACK: STACK,
        RUNPOD_E2E_PULUMI_ROOT: path.dirname(bin),
        RUNPOD_E2E_CONFIG: JSON.stringify(Object.fromEntries(config)),
        ...(program?.python !== undefined ? { RUNPOD_E2E_PROGRAM: program.python } : {}),
      },
    });
    log += result.stdout + result.stderr;
    const line = result.stdout.trim().split("\n").pop() ?? "";
    try {
      const parsed = JSON.parse(line) as Partial<StepResult>;
      return {
        ok: parsed.ok === true,
        changes: parsed.changes ?? {},
        outputs: parsed.outputs ?? {},
        error: parsed.error,
      };
    } catch {
      return { ok: false, changes: {}, outputs: {}, error: `exit code ${result.code}: ${result.stderr}` };
    }
  }

  async function yaml(step: string): Promise<StepResult> {
    yamlStack ??= await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir },
      { pulumiCommand: await PulumiCommand.get({ root: path.dirname(bin) }), envVars: env as Record<string, string> },
    );
    await yamlStack.setAllConfig(Object.fromEntries(config));
    const onOutput = (s: string) => void (log += s);
    try {
      if (step === "up") {
        const up = await yamlStack.up({ onOutput });
        const outputs = Object.fromEntries(
          Object.entries(up.outputs).map(([k, v]) => [k, { value: v.secret ? "[secret]" : v.value, secret: v.secret }]),
        );
        return { ok: true, changes: { ...up.summary.resourceChanges }, outputs };
      }
      if (step === "preview") {
        const preview = await yamlStack.preview({ onOutput });
        return { ok: true, changes: { ...preview.changeSummary }, outputs: {} };
      }
      const destroy = await yamlStack.destroy({ onOutput });
      return { ok: true, changes: { ...destroy.summary.resourceChanges }, outputs: {} };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log += message;
      return { ok: false, changes: {}, outputs: {}, error: message };
    }
  }

  return {
    language,
    emulator,
    client,
    apiKey,
    backend,
    home,
    workDir,
    setConfig(key, value) {
      if (value === undefined) config.delete(key);
      else config.set(key, value);
    },
    step(step) {
      if (language === "python") return inline(python!, [path.join(LANGUAGES_DIR, "python", "inline.py")], step);
      if (language === "go") return inline(goProgram!, [], step);
      return yaml(step);
    },
    log: () => log,
    async requestCount() {
      const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: `Bearer ${apiKey}` } });
      return ((await res.json()) as { requests: { total: number } }).requests.total;
    },
    async cli(args) {
      const out = await runToolOk(path.join(bin, "pulumi"), [...args, "--stack", STACK, "--non-interactive"], {
        cwd: workDir,
        env,
      });
      return out;
    },
    async dispose() {
      await client.close();
      await emulator.close();
      await backend.close();
      fs.rmSync(handlers, { recursive: true, force: true });
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type ConfigMap, LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { pulumiCommandOf, resultsFromEngineEvents, setNewStackConfig } from "./engine-results";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { RunpodClient } from "../../sdk/client";
import { openStateBackend, type StateBackend } from "../backends/state-backend";

/** A management API version the suite's stacks talk. */
export type E2EApiVersion = "v1" | "v2";

/**
 * The version the end-to-end stacks talk unless a test says otherwise: v2, the default, or the
 * one `RUNPOD_E2E_API_VERSION` names (`v1` runs the suite the way stacks pinned to v1 run).
 */
export function defaultE2EApiVersion(env: NodeJS.ProcessEnv = process.env): E2EApiVersion {
  const raw = env.RUNPOD_E2E_API_VERSION?.trim();
  if (raw === undefined || raw === "") return "v2";
  if (raw === "v1" || raw === "v2") return raw;
  throw new Error(`RUNPOD_E2E_API_VERSION = ${JSON.stringify(raw)} must be v1 or v2`);
}

/** The emulator's management base URL of `version`. */
export function apiUrlOf(emulator: RunningEmulator, version: E2EApiVersion): string {
  return version === "v1" ? emulator.apiUrlV1 : emulator.apiUrlV2;
}

/** Work directories live inside the repo so `runpod-iac` and `@pulumi/pulumi` resolve as in a user's project. */
const WORK_ROOT = path.join(REPO_ROOT, ".e2e-work");

/** A stack of a test program, deployed against an in-process emulator, on a file backend of its own or a given one. */
export interface E2EStack {
  stack: Stack;
  emulator: RunningEmulator;
  /** The management API version the stack's `runpod:apiUrl` names. */
  apiVersion: E2EApiVersion;
  /** A client on the same version (its `v1` or `v2` operations reach only that version). */
  client: RunpodClient;
  apiKey: string;
  workDir: string;
  /** Where its state lives. */
  backend: StateBackend;
  envVars: Record<string, string>;
  /** API requests the emulator has answered for this account (admin routes excluded). */
  requestCount(): Promise<number>;
  /** Requests answered for this account by route (`METHOD /route`) since the last call, which resets them. */
  takeRequestCounts(): Promise<Record<string, number>>;
  /** Runs the `pulumi` CLI itself in the work dir with the stack's environment. */
  cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  dispose(): Promise<void>;
}

/** Copies a program from test/e2e/programs into a fresh work dir. */
export function copyProgram(program: string, label: string): string {
  return copyInto(path.join(REPO_ROOT, "test", "e2e", "programs", program), label);
}

/**
 * Copies one of the examples users copy (examples/<name>) into a fresh work dir, with a
 * `node_modules` link to the repository's, so it runs as in a user's project after `npm install`.
 */
export function copyExample(name: string): string {
  const dir = copyInto(path.join(REPO_ROOT, "examples", name), `example-${name}`);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

function copyInto(source: string, label: string): string {
  fs.mkdirSync(WORK_ROOT, { recursive: true });
  const dir = fs.mkdtempSync(path.join(WORK_ROOT, `${label}-`));
  fs.cpSync(source, dir, { recursive: true });
  return dir;
}

/**
 * Starts an emulator, provides the CLI and creates a stack of `program` with `config`. The API key
 * reaches the provider through RUNPOD_API_KEY unless `keyInConfig` puts it in `runpod:apiKey`.
 */
export async function createE2EStack(
  program: string,
  config: ConfigMap,
  options: {
    keyInConfig?: boolean;
    label?: string;
    workDir?: string;
    stackName?: string;
    /** A TypeScript program (the examples): run transpile-only, since `npm run lint` type-checks them. */
    typescript?: boolean;
    /** More emulator options, e.g. `additionalGpuTypeIds`. */
    emulator?: EmulatorOptions;
    /** A backend the caller opened and closes (default: a file backend of the stack's own). */
    backend?: StateBackend;
    /** The management API version `runpod:apiUrl` names (default {@link defaultE2EApiVersion}). */
    apiVersion?: E2EApiVersion;
    /**
     * Another stack whose emulator and account this one uses (the other stack closes it), so
     * that the tests of one file start one emulator. Its stacks need project names of their own.
     */
    shareEmulatorOf?: E2EStack;
  } = {},
): Promise<E2EStack> {
  const bin = await providePulumiCli();
  const shared = options.shareEmulatorOf;
  const apiKey = shared?.apiKey ?? `rpa_E2E${Math.random().toString(36).slice(2, 12).toUpperCase()}`;
  // The v2 management quota is off unless a test asks for it (`emulator.managementQuota`): these
  // tests are about the engine and the resources, the quota's own tests and benchmark pace it.
  const emulator =
    shared?.emulator ??
    (await startEmulator({
      managementQuota: false,
      // Workers boot in 200 ms unless a test asks: every endpoint created with workersMin above 0
      // is waited on until it serves, and the suite creates many.
      workerBootMs: 200,
      ...options.emulator,
      port: 0,
      apiKeys: [apiKey],
      rateLimits: false,
    }));
  const apiVersion = options.apiVersion ?? defaultE2EApiVersion();
  const apiUrl = apiUrlOf(emulator, apiVersion);
  const workDir = options.workDir ?? copyProgram(program, options.label ?? program);
  const backend = options.backend ?? (await openStateBackend("file"));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-e2e-home-"));
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: backend.url,
    ...backend.env,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: home,
    // A rollout is polled every 0.5 s, not every 5 s: the emulator's workers boot in 200 ms.
    RUNPOD_ROLLOUT_POLL_SECONDS: "0.5",
  };
  // As a CI job against the emulator sets them: the key, and the URL, which the policy pack's
  // runpod-live-catalog reads (the pack does not see the stack's config).
  if (!options.keyInConfig) Object.assign(envVars, { RUNPOD_API_KEY: apiKey, RUNPOD_API_URL: apiUrl });
  // TypeScript programs (the examples) are type-checked by `npm run lint`; here they only run.
  if (options.typescript) envVars.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
  const pulumiCommand = await pulumiCommandOf(path.dirname(bin));
  const stackName = options.stackName ?? "e2e";
  const stack = resultsFromEngineEvents(
    // A backend of its own has no stack yet: create it (createOrSelect would first try, and fail,
    // to select it, a CLI start more); on a caller's backend, a stack may already be there.
    options.backend
      ? await LocalWorkspace.createOrSelectStack({ stackName, workDir }, { pulumiCommand, envVars })
      : await LocalWorkspace.createStack({ stackName, workDir }, { pulumiCommand, envVars }),
  );
  await setNewStackConfig(stack, {
    "runpod:apiUrl": { value: apiUrl },
    "runpod:queueUrl": { value: emulator.queueUrl },
    ...(options.keyInConfig ? { "runpod:apiKey": { value: apiKey, secret: true } } : {}),
    ...config,
  });
  const client = new RunpodClient({ apiKey, apiUrl, queueUrl: emulator.queueUrl });
  return {
    stack,
    emulator,
    apiVersion,
    client,
    apiKey,
    workDir,
    backend,
    envVars,
    async requestCount() {
      const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: `Bearer ${apiKey}` } });
      const body = (await res.json()) as { requests: { total: number } };
      return body.requests.total;
    },
    async takeRequestCounts() {
      const headers = { authorization: `Bearer ${apiKey}` };
      const res = await fetch(`${emulator.url}/_emulator/stats`, { headers });
      const body = (await res.json()) as { requests: { byRoute: Record<string, number> } };
      await fetch(`${emulator.url}/_emulator/stats/reset`, { method: "POST", headers });
      return body.requests.byRoute;
    },
    async cli(args) {
      const { execFile } = await import("node:child_process");
      return new Promise((resolve) => {
        execFile(
          path.join(bin, "pulumi"),
          [...args, "--stack", stackName, "--non-interactive"],
          { cwd: workDir, env: { ...process.env, ...envVars }, maxBuffer: 64 << 20 },
          (err, stdout, stderr) =>
            resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 }),
        );
      });
    },
    async dispose() {
      await client.close();
      if (!shared) await emulator.close();
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(home, { recursive: true, force: true });
      if (!options.backend) await backend.close();
    },
  };
}

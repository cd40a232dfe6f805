import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { openStateBackend } from "../backends/state-backend";
import { useExampleStacks } from "./example-stacks";
import { copyExample } from "./harness";

/**
 * examples/github-actions as a runner runs it: the workflow's conditions and concurrency groups,
 * then every command of its jobs through the real engine against the emulator, on a PostgreSQL
 * backend, as the example's README describes.
 */
const { exampleStack, dispose } = useExampleStacks();

interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
}
interface WorkflowJob {
  if: string;
  env?: Record<string, string>;
  steps: WorkflowStep[];
  concurrency?: { group: string; "cancel-in-progress": boolean };
}
interface Workflow {
  on: Record<string, unknown>;
  env: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

/** Steps that fetch from the internet, which the tests provide instead: node_modules and the Pulumi CLI. */
const PROVIDED_STEPS = new Set(["deps", "pulumi-cli"]);

/** Runs a job's `run` steps in order with bash, as the runner would, in the example's directory. */
/**
 * A step's script as it behaves on the runner, whose home is the job's `HOME`: the CLI resolves
 * `pulumi login --local` (`file://~`) from the account's home directory in the password database,
 * not from `$HOME`, so here it would log in to this machine's real `~/.pulumi`; the test's home
 * stands in for the runner's.
 */
function asOnRunner(script: string): string {
  return script.replace(/pulumi login --local\b/g, 'pulumi login "file://$HOME"');
}

async function runJob(
  workflow: Workflow,
  job: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const steps = workflow.jobs[job]?.steps.filter((s) => s.run !== undefined && !PROVIDED_STEPS.has(s.id ?? "")) ?? [];
  let output = "";
  for (const step of steps) {
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        "bash",
        ["-eo", "pipefail", "-c", asOnRunner(step.run ?? "")],
        { cwd, env, maxBuffer: 64 << 20, timeout: 240_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    output += `\n--- ${step.name ?? step.run}\n${result.output}`;
    if (result.code !== 0) return { code: result.code, output };
  }
  return { code: 0, output };
}

/**
 * A job's environment on the runner: the workflow's and the job's `env`, with `${{ secrets.X }}`,
 * `${{ matrix.X }}` and `${{ inputs.X }}` replaced from `contexts`.
 */
function jobEnv(
  workflow: Workflow,
  job: string,
  contexts: { secrets: Record<string, string>; matrix?: Record<string, string>; inputs?: Record<string, string> },
  base: Record<string, string>,
) {
  const env: Record<string, string> = { ...base };
  for (const [k, v] of Object.entries({ ...workflow.env, ...workflow.jobs[job]?.env })) {
    env[k] = v.replace(/\$\{\{\s*(secrets|matrix|inputs)\.([\w-]+)\s*\}\}/g, (_, context: string, name: string) => {
      const value = contexts[context as keyof typeof contexts]?.[name];
      if (value === undefined) throw new Error(`the workflow uses ${context}.${name}, which the test does not provide`);
      return value;
    });
  }
  return env;
}

describe("examples/github-actions: the workflow's jobs", { timeout: 600_000 }, () => {
  const workflow = parse(
    fs.readFileSync(path.join(REPO_ROOT, "examples", "github-actions", "workflow.yml"), "utf8"),
  ) as Workflow;

  it("previews same-repository pull requests, deploys main one concurrency group per stack, recovers by hand, and forks only against the emulator", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["pull_request", "push", "workflow_dispatch"]);
    expect(workflow.jobs.preview?.if).toContain("head.repo.full_name == github.repository");
    expect(workflow.jobs["preview-fork"]?.if).toContain("head.repo.full_name != github.repository");
    expect(workflow.jobs.up?.if).toContain("refs/heads/main");
    expect(workflow.jobs.recover?.if).toContain("workflow_dispatch");
    for (const job of ["preview", "up", "recover"]) {
      expect(workflow.jobs[job]?.env?.RUNPOD_API_KEY).toBe("${{ secrets.RUNPOD_API_KEY }}");
      expect(workflow.jobs[job]?.env?.PULUMI_BACKEND_URL).toBe("${{ secrets.PULUMI_BACKEND_URL }}");
    }
    expect(JSON.stringify(workflow.jobs["preview-fork"])).not.toContain("secrets.");
    // Every deployment of a stack, and its recovery, in that stack's one group, never cancelled midway.
    expect(workflow.jobs.up?.concurrency).toEqual({ group: "runpod-${{ matrix.stack }}", "cancel-in-progress": false });
    expect(workflow.jobs.recover?.concurrency).toEqual({
      group: "runpod-${{ inputs.stack }}",
      "cancel-in-progress": false,
    });
    expect(workflow.env.POLICY).toBe(
      "--policy-pack node_modules/runpod-iac/policy --policy-pack-config policy-config.json",
    );
  });

  it("runs every command of the fork job, the pull-request job, the main job and the recover job against the emulator, on a PostgreSQL backend", async () => {
    // One emulator (from the harness) plays the real platform for `preview` and `up`; the fork
    // job starts its own emulator on port 8787, as on the runner.
    // The shared backend: PostgreSQL, its password in PGPASSWORD as the workflow's comment says.
    const backend = await openStateBackend("postgres");
    const password = backend.credentials[0] as string;
    const e = await exampleStack("github-actions", "prod", backend);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-gha-home-"));
    const base = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      PULUMI_HOME: path.join(home, ".pulumi"),
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      RUNPOD_API_URL: e.emulator.apiUrl,
      RUNPOD_QUEUE_URL: e.emulator.queueUrl,
    };
    const secrets = {
      RUNPOD_API_KEY: e.apiKey,
      PULUMI_BACKEND_URL: backend.url.replace(`:${encodeURIComponent(password)}@`, "@"),
      PGPASSWORD: password,
      PULUMI_CONFIG_PASSPHRASE: e.envVars.PULUMI_CONFIG_PASSPHRASE ?? "",
    };
    expect(secrets.PULUMI_BACKEND_URL).not.toContain(password);
    try {
      // The stack the README has the user create once, with the harness's addresses in its config.
      const preview = await runJob(workflow, "preview", e.workDir, jobEnv(workflow, "preview", { secrets }, base));
      expect(preview.code, preview.output).toBe(0);
      expect(preview.output).toContain("+ 3 to create");
      // The provider sends nothing at preview; the pack's runpod-live-catalog reads the catalog
      // (the job has the key and the emulator's URL), and nothing else is asked.
      const previewRoutes = Object.keys(await e.takeRequestCounts());
      expect(previewRoutes.filter((route) => !route.includes("/v2/catalog/"))).toEqual([]);

      const upEnv = jobEnv(workflow, "up", { secrets, matrix: { stack: "prod" } }, base);
      const up = await runJob(workflow, "up", e.workDir, upEnv);
      expect(up.code, up.output).toBe(0);
      expect(await e.client.endpoints.list()).toHaveLength(1);

      const inputs = { stack: "prod", "force-unlock": "true" };
      const recover = await runJob(
        workflow,
        "recover",
        e.workDir,
        jobEnv(workflow, "recover", { secrets, inputs }, base),
      );
      expect(recover.code, recover.output).toBe(0);
      expect(recover.output).toContain("no pending operations");
      expect(recover.output).toMatch(/Resources:\s+3 unchanged/);
      for (const output of [preview.output, up.output, recover.output]) expect(output).not.toContain(password);

      const forkDir = copyExample("github-actions");
      const { RUNPOD_API_URL: _url, RUNPOD_QUEUE_URL: _queue, ...forkBase } = base;
      const fork = await runJob(
        workflow,
        "preview-fork",
        forkDir,
        jobEnv(workflow, "preview-fork", { secrets: {} }, forkBase),
      );
      // The runner ends the job's processes; here the emulator the job started is stopped by hand.
      const pidFile = path.join(forkDir, "emulator.pid");
      if (fs.existsSync(pidFile)) process.kill(Number(fs.readFileSync(pidFile, "utf8")), "SIGTERM");
      const emulatorLog = fs.readFileSync(path.join(forkDir, "emulator.log"), "utf8");
      fs.rmSync(forkDir, { recursive: true, force: true });
      expect(fork.code, fork.output).toBe(0);
      expect(emulatorLog).toContain("ready: listening on http://127.0.0.1:8787");
      expect(fork.output).toMatch(/Resources:\s+\+ 3 created/);
      expect(fork.output).toMatch(/Resources:\s+- 3 deleted/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      await dispose(e);
      await backend.close();
    }
  });
});

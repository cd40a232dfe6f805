import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { openStateBackend, type StateBackend } from "../backends/state-backend";
import type { EmulatorOptions } from "../../emulator";
import { copyExample, createE2EStack, type E2EStack } from "./harness";
import { trainingPodJourney } from "./training-pod-journey";

/**
 * The examples users copy (examples/), each run as a user would run it, through the real engine
 * against the emulator: the README of each example describes exactly what is checked here. The
 * quickstart goes through a whole lifecycle of its own in deployment.test.ts.
 */
const POLICY_DIR = path.join(REPO_ROOT, "policy");
let stacks: E2EStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.map((s) => s.dispose()));
  stacks = [];
});

async function exampleStack(
  name: string,
  stackName: string,
  backend?: StateBackend,
  emulator?: EmulatorOptions,
): Promise<E2EStack> {
  const workDir = copyExample(name);
  const e = await createE2EStack(
    name,
    {},
    {
      workDir,
      stackName,
      typescript: true,
      ...(backend ? { backend } : {}),
      ...(emulator ? { emulator } : {}),
    },
  );
  stacks.push(e);
  return e;
}

/** The engine's output of a preview with the policy pack and the example's policy-config.json. */
async function previewWithPack(e: E2EStack): Promise<{ failed: boolean; output: string }> {
  let output = "";
  const failed = await e.stack
    .preview({
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [path.join(e.workDir, "policy-config.json")],
      onOutput: (s) => {
        output += s;
      },
    })
    .then(
      () => false,
      (err: Error) => {
        output += err.message;
        return true;
      },
    );
  return { failed, output };
}

describe("examples/multi-stack-policy: dev and prod held to their own limits", { timeout: 300_000 }, () => {
  it("deploys each stack with its own config, and refuses prod-sized settings in dev at preview", async () => {
    const dev = await exampleStack("multi-stack-policy", "dev");
    expect(await previewWithPack(dev)).toMatchObject({ failed: false });
    const devUp = await dev.stack.up({
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [path.join(dev.workDir, "policy-config.json")],
    });
    expect(devUp.summary.result).toBe("succeeded");
    const [devEndpoint] = await dev.client.endpoints.list();
    expect(devEndpoint).toMatchObject({ gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000"], workersMax: 2 });

    await dev.stack.setConfig("workersMax", { value: "8" });
    await dev.stack.setConfig("gpuTypeIds", { value: JSON.stringify(["NVIDIA H100 80GB HBM3", "NVIDIA L40S"]) });
    const refused = await previewWithPack(dev);
    expect(refused.failed).toBe(true);
    expect(refused.output).toContain('ServerlessEndpoint "api": workersMax = 8: exceeds the cap of 2 (workersMaxCap)');
    expect(refused.output).toContain(
      'ServerlessEndpoint "api": gpuTypeIds[0] = "NVIDIA H100 80GB HBM3": is not one of the allowed GPU types ["NVIDIA L4","NVIDIA RTX A5000","NVIDIA GeForce RTX 4090"]',
    );

    const prod = await exampleStack("multi-stack-policy", "prod");
    const prodPreview = await previewWithPack(prod);
    expect(prodPreview, prodPreview.output).toMatchObject({ failed: false });
    const prodUp = await prod.stack.up({
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [path.join(prod.workDir, "policy-config.json")],
    });
    expect(prodUp.summary.result).toBe("succeeded");
    const [prodEndpoint] = await prod.client.endpoints.list();
    expect(prodEndpoint).toMatchObject({ workersMin: 1, workersMax: 8 });
    // On v2 (the default) the platform keeps no order among the types: the set is what counts.
    expect(prodEndpoint?.gpuTypeIds).toContain("NVIDIA H100 80GB HBM3");
  });
});

describe("examples/load-balanced-endpoint: HTTP straight to the workers", { timeout: 300_000 }, () => {
  it("deploys a load-balancing endpoint that answers a plain HTTP request, rolls a template change onto it, and destroys it", async () => {
    const handlersDir = path.join(REPO_ROOT, "examples", "load-balanced-endpoint", "handlers");
    const e = await exampleStack("load-balanced-endpoint", "dev", undefined, { handlersDir });
    const up = await e.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    const url = String(up.outputs.url?.value);
    const endpointId = String(up.outputs.endpointId?.value);
    expect(url).toBe(`${e.emulator.url}/lb/${endpointId}`);
    expect(up.outputs.healthUrl?.value).toBe(`${url}/ping`);
    expect(await e.client.v2.serverless.get(endpointId)).toMatchObject({
      type: "LOAD_BALANCER",
      scaling: { type: "REQUEST_COUNT", requestCount: 4 },
      gpu: { pools: ["AMPERE_24", "ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 3090"] },
      flashboot: "FLASHBOOT",
      image: "ghcr.io/acme/greeter:1.0",
    });

    // A plain HTTP request, with the account's key as the platform requires.
    const headers = { authorization: `Bearer ${e.apiKey}` };
    const hello = await fetch(`${url}/hello?name=ada`, { headers });
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ greeting: "hello, ada" });
    expect((await fetch(`${url}/nowhere`, { headers })).status).toBe(404);
    expect((await fetch(String(up.outputs.healthUrl?.value), { headers })).status).toBe(200);

    // A template change: one update (the template's); the provider re-applies it to the endpoint.
    await e.stack.setConfig("greeting", { value: "hi" });
    const changed = await e.stack.up();
    expect(changed.summary.resourceChanges).toEqual({ update: 1, same: 2 });
    expect(await (await fetch(`${url}/hello?name=ada`, { headers })).json()).toEqual({ greeting: "hi, ada" });
    expect((await e.stack.preview()).changeSummary).toEqual({ same: 3 });

    const destroyed = await e.stack.destroy();
    expect(destroyed.summary.resourceChanges).toEqual({ delete: 3 });
    expect((await fetch(`${url}/hello`, { headers })).status).toBe(404);
  });

  it("fails at preview on v1, naming the v2-only fields and the version, and sends nothing", async () => {
    const e = await exampleStack("load-balanced-endpoint", "v1");
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV1 });
    let output = "";
    const refused = await e.stack.preview({ onOutput: (s) => (output += s) }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(refused).toBeInstanceOf(Error);
    output += refused?.message ?? "";
    // The template fails first (the endpoint waits for its id): its v2-only switches, by name.
    expect(output).toContain(
      "property startSsh value {false} has a problem: false: template SSH switches (startSsh) exist only on management API v2, and the API URL names v1",
    );
    expect(output).toContain("property startJupyter value {false} has a problem");
    expect(await e.requestCount()).toBe(0);
  });
});

/** Runs the example's `chat.ts` as its README does (`npx ts-node chat.ts <base URL> <prompt>`), with the account's key. */
function runChat(
  e: E2EStack,
  baseUrl: string,
  prompt: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const tsNode = path.join(REPO_ROOT, "node_modules", "ts-node", "dist", "bin.js");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsNode, "--transpile-only", "chat.ts", baseUrl, prompt],
      { cwd: e.workDir, env: { ...process.env, RUNPOD_API_KEY: e.apiKey }, timeout: 120_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("examples/llm-endpoint: a vLLM endpoint whose Hugging Face token is a Secret", { timeout: 300_000 }, () => {
  it("deploys the secret, template and endpoint, answers a chat through the openai package, never shows the token, and destroys", async () => {
    // A fresh token-shaped value: found nowhere in plain text but here.
    const token = `hf_${randomBytes(24).toString("hex").slice(0, 34)}`;
    const e = await exampleStack("llm-endpoint", "dev");
    await e.stack.setConfig("hfToken", { value: token, secret: true });
    let printed = "";
    const onOutput = (s: string) => {
      printed += s;
    };
    const up = await e.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    const endpointId = String(up.outputs.endpointId?.value);
    const reference = String(up.outputs.tokenReference?.value);
    expect(reference).toMatch(/^\{\{ RUNPOD_SECRET_hf-token-[a-z0-9]{7} \}\}$/);
    expect(up.outputs.openAiBaseUrl?.value).toBe(`${e.emulator.queueUrl}/${endpointId}/openai/v1`);

    // The template holds the placeholder, never the token; the endpoint runs the vLLM worker.
    const [template] = await e.client.v2.templates.list();
    expect(template).toMatchObject({
      image: "runpod/worker-v1-vllm:v2.25.2",
      env: { MODEL_NAME: "Qwen/Qwen3-0.6B", HF_TOKEN: reference },
    });
    // v2 keeps no link from an endpoint to its template: the endpoint carries a copy of it.
    expect(await e.client.v2.serverless.get(endpointId)).toMatchObject({
      type: "QUEUE",
      image: template?.image,
      env: template?.env,
      gpu: { pools: ["ADA_24", "AMPERE_24"] },
    });

    // The pack (its defaults) passes the program without a finding: the template holds a reference.
    let packed = "";
    await e.stack.preview({ policyPacks: [POLICY_DIR], onOutput: (s) => (packed += s) });
    printed += packed;
    expect(packed).toMatch(/Policies:\s+✅ runpod@v/);
    expect(packed).not.toContain("runpod-plaintext-credentials");

    // chat.ts, as the README runs it: a worker starts (the placeholder resolves, or it could not),
    // and the emulated vLLM answers under MODEL_NAME with the prompt's words reversed.
    const chat = await runChat(e, String(up.outputs.openAiBaseUrl?.value), "say hello to the world");
    expect(chat, chat.stderr).toMatchObject({ code: 0 });
    expect(chat.stdout.trim()).toBe("Qwen/Qwen3-0.6B: world the to hello say");

    // Another model is one config change: the template updates in place, the endpoint follows.
    await e.stack.setConfig("model", { value: "Qwen/Qwen3-1.7B" });
    const changed = await e.stack.up({ onOutput });
    expect(changed.summary.resourceChanges).toEqual({ update: 1, same: 3 });

    const state = await e.cli(["stack", "export"]);
    const outputs = await e.cli(["stack", "output", "--json"]);
    expect(state.code, state.stderr).toBe(0);
    expect(outputs.code, outputs.stderr).toBe(0);
    expect(JSON.parse(outputs.stdout)).toMatchObject({ tokenReference: reference, servedModel: "Qwen/Qwen3-1.7B" });
    const destroyed = await e.stack.destroy({ onOutput });
    expect(destroyed.summary.resourceChanges).toEqual({ delete: 4 });
    expect(await e.client.v2.account.secrets.list()).toEqual([]);
    expect(await e.client.v2.templates.list()).toEqual([]);
    expect(await e.client.v2.serverless.list()).toEqual([]);

    const everything = [printed, state.stdout, outputs.stdout, chat.stdout, chat.stderr, await e.backend.storedText()];
    expect(everything.join("\n")).toContain(reference);
    for (const text of everything) expect(text).not.toContain(token);
  });
});

describe("examples/adopt-existing: hand-made resources taken under management", { timeout: 300_000 }, () => {
  it("adopts a volume and an endpoint without creating anything, converges them, and destroy keeps the volume", async () => {
    const e = await exampleStack("adopt-existing", "prod");
    const volume = await e.client.networkVolumes.create({ name: "by-hand", size: 30, dataCenterId: "EU-RO-1" });
    const endpoint = await e.client.endpoints.create({ name: "by-hand", templateId: "echo", workersMax: 1 });
    await e.stack.setAllConfig({
      volumeId: { value: volume.id },
      volumeSize: { value: "40" },
      dataCenterId: { value: "EU-RO-1" },
      endpointId: { value: endpoint.id },
      templateId: { value: "echo" },
    });
    const up = await e.stack.up();
    // The stack and the two adopted resources count as creates in Pulumi's summary.
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    expect(up.outputs.volumeId?.value).toBe(volume.id);
    expect(up.outputs.endpointId?.value).toBe(endpoint.id);
    const volumes = await e.client.networkVolumes.list();
    expect(volumes).toHaveLength(1);
    expect(volumes[0]).toMatchObject({ id: volume.id, name: "weights", size: 40, dataCenterId: "EU-RO-1" });
    const endpoints = await e.client.endpoints.list();
    expect(endpoints.map((x) => x.id)).toEqual([endpoint.id]);
    expect(endpoints[0]).toMatchObject({ name: "api", workersMax: 2, networkVolumeId: volume.id });

    expect((await e.stack.preview()).changeSummary).toEqual({ same: 3 });
    await e.stack.destroy();
    expect(await e.client.endpoints.list()).toEqual([]);
    expect((await e.client.networkVolumes.list()).map((v) => v.id)).toEqual([volume.id]);
  });
});

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
        ["-eo", "pipefail", "-c", step.run ?? ""],
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
      await e.dispose();
      stacks = stacks.filter((s) => s !== e);
      await backend.close();
    }
  });
});

describe(
  "examples/training-pod: a GPU pod on a volume and a CPU pod, stopped and started by one line",
  { timeout: 300_000 },
  () => {
    it("passes the pack, deploys, stops and starts, shows what it cost as a table, JSON and SVG, and destroys", async () => {
      // A manual clock: the test moves platform time, so the spend is known to the cent.
      const e = await exampleStack("training-pod", "dev", undefined, { timeScale: 0, managementQuota: false });
      await trainingPodJourney(e, previewWithPack);
    });
  },
);

import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { RunpodClient } from "../../sdk/client";
import {
  commandsOf,
  exportsOf,
  fencedBlock,
  type Ran,
  runCommand,
  runPulumiSteps,
  wordsOf,
  writeSnippetModule,
} from "./doc-steps";

/**
 * A newcomer's first hour, as the README and docs/quickstart.md write it, every command and
 * program read from the Markdown at test time: `npm start` (the script package.json runs, twice,
 * around a real deployment, leaving nothing that deployment meets), the quickstart page's "deploy it
 * for real" from the repository's layout, the README's whole deployment with its steps, and the
 * README's client and `openai` snippets. The platform is the emulator the README's own command
 * starts (on a free port). A step the docs add that this test cannot run fails it.
 */
const WORK = path.join(REPO_ROOT, ".e2e-work");
/** What `npm ci && npm run build` did before the suite: the docs' build steps are not run again. */
const BUILT = ["npm ci && npm run build"];
/** Values for the docs' `<placeholders>`, by the config key they are given to. */
const WORKER_IMAGE = "ghcr.io/newcomer/worker:1.0";
const SECRETS = {
  registry: "ghp_newcomerRegistryToken1",
  apiToken: "tok_newcomerWorkerToken2",
  hf: "hf_newcomerHuggingFaceToken3",
};
/** The reader's own passphrase, not the quickstart's. */
const PASSPHRASE = "my own passphrase";

let dir: string;
/** The reader's home: where `pulumi login --local` keeps the state, and the CLI its own files. */
let home: string;
let emulator: ChildProcess | undefined;
let env: NodeJS.ProcessEnv;
let pulumi: string;
let apiKey: string;
let client: RunpodClient;

function pulumiFiles(folder: string): Record<string, string> {
  const files = fs.readdirSync(folder).filter((f) => /^Pulumi\..+\.yaml$/.test(f));
  return Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(folder, f), "utf8")]));
}

/** `npm start` as package.json declares it, less the build the suite has done, with the quickstart in `QUICKSTART_DIR`. */
async function npmStart(quickstartDir: string): Promise<Ran> {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const steps = pkg.scripts.start!.split("&&").map((s) => s.trim());
  expect(steps[0]).toBe("npm run build");
  expect(steps).toHaveLength(2);
  const [file, ...args] = wordsOf(steps[1]!);
  const result = await runCommand(file === "node" ? process.execPath : file!, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, QUICKSTART_DIR: quickstartDir, QUICKSTART_EMULATOR_PORT: "0" },
  });
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

/** Starts the README's emulator command (on a free port) in `cwd`, and resolves with its origin. */
function startReadmeEmulator(command: string, cwd: string): Promise<string> {
  const [npx, ...args] = wordsOf(command);
  const child = spawn(npx!, [...args, "--port", "0"], { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  emulator = child;
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const ready = /ready: listening on (http:\/\/\S+)/.exec(out);
      if (ready) resolve(ready[1]!);
    });
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => reject(new Error(`the emulator exited (${code}):\n${out}`)));
  });
}

beforeAll(async () => {
  pulumi = path.join(await providePulumiCli(), "pulumi");
  fs.mkdirSync(WORK, { recursive: true });
  dir = fs.mkdtempSync(path.join(WORK, "newcomer-"));
  home = path.join(dir, "home");
  fs.mkdirSync(home);

  // A project of the reader's own, where the README's emulator command runs: its handler for the
  // worker image is the one the README shows.
  const app = path.join(dir, "app");
  fs.mkdirSync(path.join(app, "handlers"), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(app, "node_modules"), "dir");
  const prose = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const handler = /`(export default [^`]+)` saved as\s+`\.\/handlers\/([\w-]+)\.mjs`/.exec(prose);
  expect(handler, "the README's handler for the worker image").not.toBeNull();
  fs.writeFileSync(path.join(app, "handlers", `${handler![2]}.mjs`), `${handler![1]}\n`);

  const [start, exported] = commandsOf(fencedBlock("README.md", "A whole deployment", "sh", 1));
  const origin = await startReadmeEmulator(start!, app);
  const readmeEnv = exportsOf(exported!);
  for (const [name, value] of Object.entries(readmeEnv)) {
    // The README's addresses are the emulator's default origin; this one listens on a free port.
    readmeEnv[name] = value.replace(/^http:\/\/127\.0\.0\.1:8787(?=\/)/, origin);
  }
  apiKey = readmeEnv.RUNPOD_API_KEY!;
  const inherited = { ...process.env };
  for (const name of ["PULUMI_BACKEND_URL", "PULUMI_ACCESS_TOKEN", "PULUMI_HOME", "PULUMI_CONFIG_PASSPHRASE_FILE"]) {
    delete inherited[name];
  }
  env = {
    ...inherited,
    ...readmeEnv,
    HOME: home,
    // The CLI's own files (credentials, workspaces), away from the account's ~/.pulumi.
    PULUMI_HOME: path.join(home, ".pulumi"),
    PATH: `${path.dirname(pulumi)}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // The programs are type-checked by `npm run lint`; here they only run.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
  client = new RunpodClient({ apiKey, apiUrl: readmeEnv.RUNPOD_API_URL, queueUrl: readmeEnv.RUNPOD_QUEUE_URL });
}, 300_000);

afterAll(async () => {
  await client?.close();
  if (emulator?.pid !== undefined && emulator.exitCode === null) {
    const exited = new Promise((resolve) => emulator!.once("exit", resolve));
    process.kill(-emulator.pid, "SIGTERM");
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a newcomer's path through the README and the quickstart page", { timeout: 600_000 }, () => {
  it("runs npm start, deploys the quickstart for real as the page says, and npm start again", async () => {
    const readme = commandsOf(fencedBlock("README.md", "runpod-iac", "sh"));
    expect(readme.map((c) => c.split("&&").map((s) => s.trim()))).toEqual([
      ["npm ci", "npm start"],
      ["npm ci", "npm test"],
    ]);
    // The repository as a fresh clone lays it out: the root Pulumi.yaml and the example it runs.
    const clone = path.join(dir, "clone");
    fs.mkdirSync(path.join(clone, "examples"), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), path.join(clone, "Pulumi.yaml"));
    fs.cpSync(path.join(REPO_ROOT, "examples", "quickstart"), path.join(clone, "examples", "quickstart"), {
      recursive: true,
    });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(clone, "node_modules"), "dir");
    const quickstartDir = path.join(clone, ".quickstart");
    const before = [pulumiFiles(REPO_ROOT), pulumiFiles(path.join(REPO_ROOT, "examples", "quickstart"))];

    const first = await npmStart(quickstartDir);
    expect(first.stdout).toMatch(/\+ 5 created/);
    expect(first.stdout).toMatch(/quickstart: job \S+ COMPLETED/);
    // Its stack settings are in its own folder; nothing where a reader's own stack goes.
    expect(Object.keys(pulumiFiles(path.join(quickstartDir, "project")))).toEqual(["Pulumi.quickstart-emulator.yaml"]);
    expect([pulumiFiles(REPO_ROOT), pulumiFiles(path.join(REPO_ROOT, "examples", "quickstart"))]).toEqual(before);
    expect(pulumiFiles(clone)).toEqual({});

    const { configured } = await runPulumiSteps(fencedBlock("docs/quickstart.md", "Deploy it for real", "sh"), {
      pulumi,
      cwd: clone,
      env,
      built: BUILT,
      localState: home,
      values: {
        "runpod:apiKey": apiKey,
        "quickstart:imageName": WORKER_IMAGE,
        "quickstart:registryUser": "newcomer",
        "quickstart:registryPassword": SECRETS.registry,
        "quickstart:apiToken": SECRETS.apiToken,
      },
    });
    expect(configured).toContain("quickstart:imageName");
    const config = fs.readFileSync(path.join(clone, "Pulumi.dev.yaml"), "utf8");
    expect(config).not.toContain("127.0.0.1");
    expect(config).not.toContain(SECRETS.registry);
    const outputs = JSON.parse(
      (await runCommand(pulumi, ["stack", "output", "--json"], { cwd: clone, env })).stdout,
    ) as Record<string, string>;
    const template = await client.templates.get(outputs.templateId!);
    expect(template.imageName).toBe(WORKER_IMAGE);
    const job = await client.jobs(outputs.endpointId!).runSync({ input: { prompt: "hi" } }, { wait: 30_000 });
    expect(job).toMatchObject({ status: "COMPLETED", output: { reply: "hi" } });

    // npm start after a real deployment: its own stack, unchanged.
    const second = await npmStart(quickstartDir);
    expect(second.stdout).toMatch(/5 unchanged/);
    expect(second.stdout).toMatch(/quickstart: job \S+ COMPLETED/);
  });

  it("deploys the README's whole deployment with its steps, then runs its client and openai snippets", async () => {
    const app = path.join(dir, "app");
    // What `pulumi new typescript` makes for the program: a project of the Node.js runtime.
    fs.writeFileSync(path.join(app, "Pulumi.yaml"), "name: my-app\nruntime: nodejs\n");
    fs.writeFileSync(path.join(app, "index.ts"), fencedBlock("README.md", "A whole deployment", "ts", 0));
    await runPulumiSteps(fencedBlock("README.md", "A whole deployment", "sh", 0), {
      pulumi,
      cwd: app,
      env,
      built: BUILT,
      localState: home,
      values: { ghcrToken: SECRETS.registry, hfToken: SECRETS.hf, "runpod:apiKey": apiKey },
    });
    const url = (await runCommand(pulumi, ["stack", "output", "endpointUrl"], { cwd: app, env })).stdout.trim();
    const endpointId = url.slice(url.lastIndexOf("/") + 1);
    expect(endpointId).not.toBe("");

    const clientSnippet = path.join(app, "client.mjs");
    writeSnippetModule(
      clientSnippet,
      fencedBlock("README.md", "A whole deployment", "ts", 1).replaceAll("<endpoint id>", endpointId),
    );
    const jobRun = await runCommand(process.execPath, [clientSnippet], { cwd: app, env });
    expect(jobRun.code, jobRun.stderr).toBe(0);
    expect(jobRun.stdout).toMatch(/^COMPLETED \{ reply: 'hello' \}/);

    // The openai snippet, against an endpoint of the official vLLM worker serving the snippet's model.
    const openAiSource = fencedBlock("README.md", "Your LLM endpoint through the `openai` package", "ts");
    const model = /model: "([^"]+)"/.exec(openAiSource)?.[1];
    expect(model).toBeDefined();
    const vllm = await client.templates.create({
      name: "vllm",
      imageName: "runpod/worker-v1-vllm:v2.25.2",
      isServerless: true,
      env: { MODEL_NAME: model! },
    });
    const llm = await client.endpoints.create({ name: "llm", templateId: vllm.id, workersMax: 1 });
    const openAiSnippet = path.join(app, "openai.mjs");
    writeSnippetModule(openAiSnippet, openAiSource.replaceAll("<endpoint id>", llm.id));
    const chat = await runCommand(process.execPath, [openAiSnippet], { cwd: app, env });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout.trim()).not.toBe("");
  });
});

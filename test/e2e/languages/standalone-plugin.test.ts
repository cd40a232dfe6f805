import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { providePulumiCli, REPO_ROOT } from "../../../scripts/pulumi-cli";
import { writeTarGz } from "../../../scripts/release/archives";
import { NODE_RUNTIMES } from "../../../scripts/release/node-runtimes";
import type { ReleaseResult } from "../../../scripts/release/release";
import { RunpodClient } from "../../../sdk/client";
import { openStateBackend, type StateBackend } from "../../backends/state-backend";
import { provideGoProgram, runTool, runToolOk } from "./language-tools";
import { buildTestRelease, compileWithTypeScript7, freshVenvWithWheel, installWithOurCli } from "./release-setup";

/**
 * The release as a Python, Go, YAML or TypeScript user gets it: the linux-amd64 plugin and the
 * wheel built by `npm run release:artifacts`' code (test/e2e/languages/release-setup.ts), the
 * plugin installed from its tarball by `runpod-iac plugin install --file` (which calls `pulumi
 * plugin install resource runpod-iac <version> --file`), the wheel installed with pip into a fresh
 * virtual environment. The schema's examples (test/e2e/languages/examples/, go/examples.go) are
 * deployed through it against the emulator, the Python, Go and YAML programs with no `node` on the
 * PATH of the engine and the plugin, the TypeScript one compiled by TypeScript 7. Each language's
 * deployment is one `up` (the four stacks' resources stand side by side, auto-named apart); one
 * `destroy` shows the plugin deletes what it made: deleting is the plugin's, whichever language
 * declared the resources.
 */

const API_TOKEN = "tok_EXAMPLES_7c1d0e";
const REGISTRY_PASSWORD = "pw_EXAMPLES_91ab4f";
const HF_TOKEN = "hf_EXAMPLES_5e20c3";
const EXAMPLES = path.join(REPO_ROOT, "test", "e2e", "languages", "examples");

describe("the standalone plugin and the wheel of the release", { timeout: 900_000 }, () => {
  let release: ReleaseResult & { tarball: string; wheel: string };
  let home: string;
  let python: string;
  let cliBin: string;
  let emulator: RunningEmulator;
  let backend: StateBackend;
  let client: RunpodClient;
  let installed = "";
  let log = "";
  const apiKey = `rpa_REL${Math.random().toString(36).slice(2, 12).toUpperCase()}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-release-"));

  /**
   * PATH for the engine and the plugin: the CLI's folder, the environment's, and a folder of the few
   * system tools a run may call (the system's own folders may hold a node); never a node.
   */
  function pathWithoutNode(...first: string[]): string {
    const tools = path.join(work, "system-tools");
    if (!fs.existsSync(tools)) {
      fs.mkdirSync(tools);
      for (const name of ["sh", "bash", "env", "git", "uname", "cat"]) {
        const found = ["/usr/bin", "/bin"].map((d) => path.join(d, name)).find((f) => fs.existsSync(f));
        if (found) fs.symlinkSync(found, path.join(tools, name));
      }
    }
    const dirs = [...first, tools];
    for (const dir of dirs) expect(fs.existsSync(path.join(dir, "node")), `node in ${dir}`).toBe(false);
    return dirs.join(path.delimiter);
  }

  function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith("RUNPOD_") && !k.startsWith("PULUMI_") && k !== "PATH"),
    );
    return {
      ...env,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: backend.url,
      PULUMI_CONFIG_PASSPHRASE: "release-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      ...extra,
    };
  }

  /** The stack config of a program of project `project`. */
  function config(project: string): Record<string, { value: string; secret?: boolean }> {
    return {
      "runpod-iac:apiKey": { value: apiKey, secret: true },
      "runpod-iac:apiUrl": { value: emulator.apiUrlV2 },
      "runpod-iac:queueUrl": { value: emulator.queueUrl },
      [`${project}:apiToken`]: { value: API_TOKEN, secret: true },
      [`${project}:registryPassword`]: { value: REGISTRY_PASSWORD, secret: true },
      [`${project}:hfToken`]: { value: HF_TOKEN, secret: true },
    };
  }

  beforeAll(async () => {
    const started = Date.now();
    release = await buildTestRelease(path.join(work, "release"));
    const built = Date.now();
    cliBin = await providePulumiCli();
    home = path.join(work, "home");
    installed = await installWithOurCli(release.tarball, home, cliBin);
    python = await freshVenvWithWheel(path.join(work, "venv"), release.wheel);
    emulator = await startEmulator({ managementQuota: false, port: 0, apiKeys: [apiKey], rateLimits: false });
    backend = await openStateBackend("file");
    client = new RunpodClient({ apiKey, apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
    process.stderr.write(
      `standalone-plugin: release built in ${built - started} ms, installed (plugin, fresh venv) in ${Date.now() - built} ms\n`,
    );
  }, 900_000);

  afterAll(async () => {
    await client?.close();
    await emulator?.close();
    await backend?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("is installed from its tarball: the executable at the folder's root, no PulumiPlugin.yaml", () => {
    const folder = path.join(home, "plugins", `resource-runpod-iac-v${release.version}`);
    expect(installed).toBe(
      `installed the runpod-iac provider plugin ${release.version} for linux-amd64 (Node.js ${NODE_RUNTIMES["linux-amd64"].version} inside) in ${folder}\n`,
    );
    expect(fs.readdirSync(folder).sort()).toEqual(
      ["LICENSE", "THIRD-PARTY-NOTICES.md", "pulumi-resource-runpod-iac", "runpod-iac-plugin.json"].sort(),
    );
    expect(JSON.parse(fs.readFileSync(path.join(folder, "runpod-iac-plugin.json"), "utf8"))).toMatchObject({
      name: "runpod-iac",
      version: release.version,
      platform: "linux-amd64",
    });
  });

  it("is refused by runpod-iac plugin install as another version, or as a tarball of another platform, naming it", async () => {
    const plugins = () => fs.readdirSync(path.join(home, "plugins")).filter((f) => !f.endsWith(".lock"));
    const before = plugins();
    const wrongVersion = installWithOurCli(release.tarball, home, cliBin, ["--version", "9.9.9"]);
    await expect(wrongVersion).rejects.toThrow(
      `this tarball is the plugin runpod-iac ${release.version} for linux-amd64; --version asks for 9.9.9. ` +
        `Install pulumi-resource-runpod-iac-v9.9.9-linux-amd64.tar.gz instead (nothing was installed).`,
    );
    // A tarball as the darwin-arm64 build is laid out: its manifest says which it is.
    const manifest = path.join(work, "runpod-iac-plugin.json");
    fs.writeFileSync(
      manifest,
      JSON.stringify({ name: "runpod-iac", version: "0.4.0", platform: "darwin-arm64", node: "26.10.0" }),
    );
    const darwin = path.join(work, "pulumi-resource-runpod-iac-v0.4.0-darwin-arm64.tar.gz");
    await writeTarGz(darwin, [{ name: "runpod-iac-plugin.json", source: manifest }], new Date(0));
    await expect(installWithOurCli(darwin, home, cliBin)).rejects.toThrow(
      "this tarball is the plugin runpod-iac 0.4.0 for darwin-arm64; this machine is linux-amd64. " +
        "Install pulumi-resource-runpod-iac-v0.4.0-linux-amd64.tar.gz instead (nothing was installed).",
    );
    expect(plugins()).toEqual(before);
  });

  it("serves its schema with no node on PATH, and says which plugin it is when installed as another version", async () => {
    const env = baseEnv({ PATH: pathWithoutNode(cliBin) });
    const schema = await runToolOk(
      path.join(cliBin, "pulumi"),
      ["package", "get-schema", `runpod-iac@${release.version}`],
      { env },
    );
    expect(JSON.parse(schema)).toEqual(
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "plugin", "schema.json"), "utf8")),
    );
    await runToolOk(
      path.join(cliBin, "pulumi"),
      ["plugin", "install", "resource", "runpod-iac", "9.9.9", "--file", release.tarball],
      { env },
    );
    const wrong = await runTool(path.join(cliBin, "pulumi"), ["package", "get-schema", "runpod-iac@9.9.9"], { env });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout + wrong.stderr).toContain(
      `this is the plugin runpod-iac ${release.version} for linux-amd64, installed as version 9.9.9`,
    );
    await runToolOk(path.join(cliBin, "pulumi"), ["plugin", "rm", "resource", "runpod-iac", "9.9.9", "--yes"], { env });
  });

  /** Runs an inline runner (Python's inline.py, the Go build) for one step; resolves to its result line. */
  async function inline(command: string, args: string[], step: string, program: string, project: string) {
    const dir = path.join(work, `inline-${path.basename(command)}`);
    fs.mkdirSync(dir, { recursive: true });
    const result = await runTool(command, [...args, step], {
      env: baseEnv({
        PATH: pathWithoutNode(path.dirname(command), cliBin),
        RUNPOD_E2E_WORK_DIR: dir,
        RUNPOD_E2E_STACK: "dev",
        RUNPOD_E2E_PULUMI_ROOT: path.dirname(cliBin),
        RUNPOD_E2E_CONFIG: JSON.stringify(config(project)),
        RUNPOD_E2E_PROGRAM: program,
      }),
    });
    log += result.stdout + result.stderr;
    const line = result.stdout.trim().split("\n").pop() ?? "";
    try {
      return JSON.parse(line) as {
        ok: boolean;
        changes: Record<string, number>;
        outputs: Record<string, { value: unknown }>;
        error?: string;
      };
    } catch {
      throw new Error(`exit code ${result.code}: ${result.stderr}`);
    }
  }

  /** Checks what one deployment of the examples left on the platform, and that destroy removes it. */
  async function expectDeployed(outputs: Record<string, { value: unknown }>): Promise<void> {
    expect(await client.networkVolumes.get(String(outputs.volumeId?.value))).toMatchObject({ size: 20 });
    expect((await client.templates.get(String(outputs.templateId?.value))).env).toMatchObject({ API_TOKEN });
    expect(String(outputs.endpointUrl?.value)).toContain(emulator.queueUrl);
    expect(await client.pods.get(String(outputs.podId?.value))).toMatchObject({ vcpuCount: 4 });
    expect(await client.v2.clusters.get(String(outputs.clusterId?.value))).toMatchObject({ compute: { podCount: 2 } });
    expect(outputs.hfTokenReference?.value).toMatch(/^\{\{ RUNPOD_SECRET_hf-token-\w+ \}\}$/);
  }

  /** Checks that what one deployment made (its outputs' ids) is gone from the platform. */
  async function expectGone(outputs: Record<string, { value: unknown }>): Promise<void> {
    const id = (key: string) => String(outputs[key]?.value);
    await expect(client.networkVolumes.get(id("volumeId"))).rejects.toMatchObject({ status: 404 });
    await expect(client.templates.get(id("templateId"))).rejects.toMatchObject({ status: 404 });
    await expect(client.pods.get(id("podId"))).rejects.toMatchObject({ status: 404 });
    await expect(client.v2.clusters.get(id("clusterId"))).rejects.toMatchObject({ status: 404 });
  }

  it("deploys the Python examples with the wheel from a fresh environment, no node on PATH", async () => {
    const runner = [path.join(REPO_ROOT, "test", "e2e", "languages", "python", "inline.py")];
    const program = path.join(EXAMPLES, "python", "examples.py");
    const up = await inline(python, runner, "up", program, "runpod-deployment");
    expect(up.error).toBeUndefined();
    await expectDeployed(up.outputs);
    expect(up.outputs.gpuTypeIds?.value).toEqual(expect.arrayContaining(["NVIDIA L4"]));
  });

  it("deploys the Go examples, no node on PATH", async () => {
    const binary = await provideGoProgram();
    const up = await inline(binary, [], "up", "examples", "runpod-deployment");
    expect(up.error).toBeUndefined();
    await expectDeployed(up.outputs);
  });

  /** A project folder with a copy of an examples program, under the repository (TypeScript resolves runpod-iac there). */
  async function workspaceStack(language: "yaml" | "typescript", env: NodeJS.ProcessEnv) {
    fs.mkdirSync(path.join(REPO_ROOT, ".e2e-work"), { recursive: true });
    const dir = fs.mkdtempSync(path.join(REPO_ROOT, ".e2e-work", `examples-${language}-`));
    fs.cpSync(path.join(EXAMPLES, language), dir, { recursive: true });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: dir },
      {
        pulumiCommand: await PulumiCommand.get({ root: path.dirname(cliBin) }),
        envVars: env as Record<string, string>,
      },
    );
    await stack.setAllConfig(config("runpod-examples"));
    return { stack, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
  }

  it("deploys the YAML examples with pulumi up and destroys them, no node on PATH", async () => {
    const { stack, dispose } = await workspaceStack("yaml", baseEnv({ PATH: pathWithoutNode(cliBin) }));
    try {
      const up = await stack.up({ onOutput: (s) => void (log += s) });
      const outputs = up.outputs as Record<string, { value: unknown }>;
      await expectDeployed(outputs);
      await stack.destroy({ onOutput: (s) => void (log += s) });
      await expectGone(outputs);
    } finally {
      dispose();
    }
  });

  it("deploys the TypeScript examples, compiled by TypeScript 7, with pulumi up through the same plugin", async () => {
    // A TypeScript program runs on Node.js; its catalog functions are the package's own, which read RUNPOD_*.
    const env = baseEnv({
      PATH: `${cliBin}${path.delimiter}${process.env.PATH}`,
      RUNPOD_API_KEY: apiKey,
      RUNPOD_API_URL: emulator.apiUrlV2,
    });
    const { stack, dispose } = await workspaceStack("typescript", env);
    try {
      // Pulumi.yaml says `typescript: false`: the engine runs package.json's main, the compiled bin/index.js.
      await compileWithTypeScript7(stack.workspace.workDir);
      const up = await stack.up({ onOutput: (s) => void (log += s) });
      await expectDeployed(up.outputs as Record<string, { value: unknown }>);
    } finally {
      dispose();
    }
  });

  it("left no credential or secret value in plaintext in any state or output", async () => {
    const stored = await backend.storedText();
    for (const secret of [apiKey, API_TOKEN, REGISTRY_PASSWORD, HF_TOKEN]) {
      expect(stored, "a secret in the stored state").not.toContain(secret);
      expect(log, "a secret in the engine's or a program's output").not.toContain(secret);
    }
  });
});

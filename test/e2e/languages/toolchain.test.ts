import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providePulumiCli, REPO_ROOT } from "../../../scripts/pulumi-cli";
import { openStateBackend, type StateBackend } from "../../backends/state-backend";
import { FIXTURE_SCHEMA, generateSdks, providePython, runToolOk } from "./language-tools";

/**
 * The toolchain the Python, Go and YAML programs run on, proven without the plugin: the Go tool
 * writes both SDKs from a schema shaped like the plugin's, the cached Python environment installs
 * and imports the Python one, the Go one compiles, and the YAML language host runs a program with
 * `pulumi up` on the real engine.
 */
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;
let work: string;
beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-toolchain-"));
  // Cold: the generator's build (about 1-2 minutes on 2 cores); warm: about a second.
  await generateSdks(FIXTURE_SCHEMA, path.join(work, "sdks"));
}, 600_000);
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the SDK generator (tools/pulumi-sdkgen)", () => {
  it("writes a Python package and a Go module that name plugin runpod-iac at package.json's version", () => {
    const plugin = { resource: true, name: "runpod-iac", version: VERSION };
    const read = (rel: string) => fs.readFileSync(path.join(work, "sdks", rel), "utf8");
    expect(JSON.parse(read("python/pulumi_runpod_iac/pulumi-plugin.json"))).toEqual(plugin);
    expect(JSON.parse(read("go/runpodiac/pulumi-plugin.json"))).toEqual(plugin);
    expect(read("python/pyproject.toml")).toContain(`version = "${VERSION}"`);
    expect(read("go/go.mod")).toMatch(/^module runpod-iac\.local\/sdk\/go\n/);
    expect(read("go/runpodiac/internal/pulumiUtilities.go")).toContain(`semver.MustParse("${VERSION}")`);
  });
});

describe("the Python environment (scripts/provide-python.sh)", () => {
  it("installs the generated SDK next to pulumi 3.259.0, and the SDK imports with its docs and version", async () => {
    const sdk = path.join(work, "sdks", "python");
    const before = fs.readdirSync(sdk, { recursive: true }).sort();
    const python = await providePython(sdk);
    // pip builds from a copy: the SDK folder (committed, in the repository's case) is left as it was.
    expect(fs.readdirSync(sdk, { recursive: true }).sort()).toEqual(before);
    const script = [
      "import importlib.metadata as m, json, pulumi, pulumi_runpod_iac as r",
      "print(json.dumps({",
      " 'pulumi': m.version('pulumi'),",
      " 'sdk': m.version('pulumi_runpod_iac'),",
      " 'pluginVersion': r._utilities.get_version(),",
      " 'classes': [c.__name__ for c in (r.NetworkVolume, r.Template, r.ServerlessEndpoint, r.Provider)],",
      " 'argsDoc': r.NetworkVolumeArgs.__init__.__doc__,",
      "}))",
    ].join("\n");
    const out = JSON.parse(await runToolOk(python, ["-c", script])) as Record<string, unknown>;
    expect(out).toMatchObject({
      pulumi: "3.259.0",
      sdk: VERSION,
      pluginVersion: VERSION,
      classes: ["NetworkVolume", "Template", "ServerlessEndpoint", "Provider"],
    });
    expect(out.argsDoc).toContain("Size in GB, 0..4000. May only grow.");
    // A second call is a cache hit: the same environment, not a new one.
    expect(await providePython(sdk)).toBe(python);
  }, 600_000);
});

describe("the Go SDK", () => {
  it("compiles: go build ./... and go vet ./... in the generated module, with its go.sum as written", async () => {
    const env = { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly" };
    const dir = path.join(work, "sdks", "go");
    // -trimpath: the flags of the CLI's build, so the packages it compiled are reused.
    await runToolOk("go", ["build", "-trimpath", "./..."], { cwd: dir, env });
    await runToolOk("go", ["vet", "-trimpath", "./..."], { cwd: dir, env });
  }, 900_000);
});

// The engine's start and a stack's set-up take seconds, or minutes on a busy 2-core machine.
describe("the YAML language host (scripts/provide-pulumi.sh)", { timeout: 300_000 }, () => {
  let backend: StateBackend;
  let home: string;
  beforeAll(async () => {
    backend = await openStateBackend("file");
    home = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-yaml-home-"));
  });
  afterAll(async () => {
    await backend?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it("sits next to the CLI and runs a YAML program with pulumi up; a secret stays ciphertext", async () => {
    const bin = await providePulumiCli();
    expect(fs.existsSync(path.join(bin, "pulumi-language-yaml"))).toBe(true);
    const workDir = path.join(work, "yaml-outputs");
    fs.cpSync(path.join(__dirname, "yaml-outputs"), workDir, { recursive: true });
    const token = `tok-${Math.random().toString(36).slice(2)}`;
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir },
      {
        pulumiCommand: await PulumiCommand.get({ root: path.dirname(bin) }),
        envVars: {
          PULUMI_BACKEND_URL: backend.url,
          PULUMI_CONFIG_PASSPHRASE: "yaml-passphrase",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_HOME: home,
        },
      },
    );
    await stack.setAllConfig({
      "yaml-outputs:greeting": { value: "hi" },
      "yaml-outputs:token": { value: token, secret: true },
    });
    let log = "";
    const up = await stack.up({ onOutput: (s) => void (log += s) });
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.message).toEqual({ value: "hi, world", secret: false });
    expect(up.outputs.token).toEqual({ value: token, secret: true });
    const stored = await backend.storedText();
    expect(stored).toContain("hi, world");
    expect(stored).not.toContain(token);
    expect(log).not.toContain(token);
  });
});

import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { apiUrlOf, createE2EStack, type E2EStack } from "./harness";
import { exportedState, isCiphertext } from "./plugin-stacks";

const run = promisify(execFile);

/** Secrets the imported resources hold on the platform: never in the printed code or the state. */
const TOKEN = "tok_import_secret_31";
const PASSWORD = "rpg_import_secret_31";

/**
 * `pulumi import` of every type of the plugin but Secret (plugin-secrets.test.ts imports one, whose
 * value the platform never returns), in a TypeScript project of its own on the
 * emulator of `shared()`, through the plugin `npx runpod-iac plugin install` put in the stack's
 * plugin cache (the project names no plugin folder): one resource by id, the others in bulk
 * (`--file`); the code the engine prints, pasted into the program, compiles and previews no change.
 */
export function importJourney(shared: () => E2EStack): void {
  let i: E2EStack;
  const ids: Record<string, string> = {};
  let code = "";
  let bin = "";

  /** Runs the `pulumi` CLI with the stack's environment, without the harness's `--stack`. */
  const pulumi = (args: string[]) =>
    run(path.join(bin, "pulumi"), args, { cwd: i.workDir, env: { ...process.env, ...i.envVars }, maxBuffer: 64 << 20 });

  beforeAll(async () => {
    const e = shared();
    bin = await providePulumiCli();
    i = await createE2EStack("plugin-import", {}, { typescript: true, shareEmulatorOf: e, apiVersion: "v2" });
    await i.stack.setAllConfig({
      "runpod-iac:apiUrl": { value: apiUrlOf(e.emulator, "v2") },
      "runpod-iac:queueUrl": { value: e.emulator.queueUrl },
    });
    // Made outside Pulumi, as in the console.
    const c = i.client;
    const registry = await c.containerRegistryAuth.create({
      name: "imported-registry",
      username: "bot",
      password: PASSWORD,
    });
    const template = await c.templates.create({
      name: "imported-worker",
      imageName: "ghcr.io/acme/echo:2.0",
      isServerless: true,
      containerRegistryAuthId: registry.id,
      env: { GREETING: "hi", API_TOKEN: TOKEN },
    });
    const volume = await c.networkVolumes.create({ name: "imported-models", size: 25, dataCenterId: "EU-RO-1" });
    const endpoint = await c.endpoints.create({
      name: "imported-api",
      templateId: template.id,
      gpuTypeIds: ["NVIDIA L4"],
      workersMax: 1,
      networkVolumeId: volume.id,
    });
    const pod = await c.pods.create({
      name: "imported-pod",
      imageName: "ubuntu:24.04",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3m"],
      vcpuCount: 2,
      env: { RUN: "import", HF_TOKEN: TOKEN },
    });
    const cluster = await c.v2.clusters.create({
      name: "imported-cluster",
      type: "TRAINING",
      compute: { gpuTypeId: "NVIDIA L4", gpuCountPerPod: 1, podCount: 2 },
      image: "trainer:1.0",
      ports: ["22/tcp"],
    });
    Object.assign(ids, {
      registry: registry.id,
      template: template.id,
      volume: volume.id,
      endpoint: endpoint.id,
      pod: pod.id,
      cluster: cluster.id,
    });
  }, 300_000);
  afterAll(async () => i?.dispose());

  it("is installed by `runpod-iac plugin install` where the engine finds it, and serves its schema", async () => {
    const install = await run(process.execPath, [path.join(REPO_ROOT, "dist", "cli", "main.js"), "plugin", "install"], {
      env: { ...process.env, PULUMI_HOME: i.envVars.PULUMI_HOME },
    });
    expect(install.stdout).toContain(path.join(i.envVars.PULUMI_HOME!, "plugins", "resource-runpod-iac-v"));
    const schema = JSON.parse((await pulumi(["package", "get-schema", "runpod-iac"])).stdout) as { name: string };
    expect(schema).toEqual(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "plugin", "schema.json"), "utf8")));
  });

  it("imports one resource by type, name and id, the others in bulk, and prints code without a secret", async () => {
    const flags = ["--yes", "--protect=false", "--non-interactive", "--stack", "e2e"];
    await pulumi(["import", "runpod-iac:index:NetworkVolume", "models", ids.volume!, "--out", "volume.ts", ...flags]);
    const file = {
      resources: [
        { type: "runpod-iac:index:ContainerRegistryAuth", name: "registry", id: ids.registry },
        { type: "runpod-iac:index:Template", name: "worker", id: ids.template },
        { type: "runpod-iac:index:ServerlessEndpoint", name: "api", id: ids.endpoint },
        { type: "runpod-iac:index:Pod", name: "prep", id: ids.pod },
        { type: "runpod-iac:index:Cluster", name: "train", id: ids.cluster },
      ],
    };
    fs.writeFileSync(path.join(i.workDir, "import.json"), JSON.stringify(file));
    await pulumi(["import", "--file", "import.json", "--out", "rest.ts", ...flags]);
    const read = (f: string) => fs.readFileSync(path.join(i.workDir, f), "utf8");
    // One program: the second file's imports are the first's.
    code = `${read("volume.ts")}\n${read("rest.ts").replace(/^import .*\n/gm, "")}`;
    expect(code).toContain('import * as runpod_iac from "runpod-iac/plugin";');
    for (const type of ["NetworkVolume", "ContainerRegistryAuth", "Template", "ServerlessEndpoint", "Pod", "Cluster"]) {
      expect(code).toContain(`new runpod_iac.${type}(`);
    }
    expect(code).not.toContain(TOKEN);
    expect(code).not.toContain(PASSWORD);
    const { text, resources } = await exportedState(i);
    expect(text).not.toContain(TOKEN);
    const template = resources.find((r) => r.type === "runpod-iac:index:Template")!;
    expect(template.id).toBe(ids.template);
    expect(isCiphertext(template.outputs?.env)).toBe(true);
  });

  it("prints code that, pasted into the program with the credentials and env it leaves out, compiles and previews no change", async () => {
    // The registry's username and password are write-only: the printed code leaves them empty.
    expect(code).toMatch(/password: "",\n\s*username: "",/);
    // v2 keeps no link from an endpoint to its template: the import found the one it holds the settings of.
    expect(code).toMatch(/templateId: worker\.id,/);
    // v2's cluster record holds no container settings: the import read them from its first member.
    expect(code).toMatch(
      /imageName: "trainer:1\.0",\n\s*name: "imported-cluster",\n\s*podCount: 2,\n\s*ports: \["22\/tcp"\],/,
    );
    // The env the printed code leaves out, declared as the platform holds it (its secret as a secret): no change.
    const secret = `pulumi.secret(${JSON.stringify(TOKEN)})`;
    const program = code
      .replace('password: "",', `password: pulumi.secret(${JSON.stringify(PASSWORD)}),`)
      .replace('username: "",', 'username: "bot",')
      .replace(
        'imageName: "ghcr.io/acme/echo:2.0",',
        `imageName: "ghcr.io/acme/echo:2.0",\n    env: { GREETING: "hi", API_TOKEN: ${secret} },`,
      )
      .replace(
        'imageName: "ubuntu:24.04",',
        `imageName: "ubuntu:24.04",\n    env: { RUN: "import", HF_TOKEN: ${secret} },`,
      );
    fs.writeFileSync(path.join(i.workDir, "index.ts"), program);
    const tsc = path.join(REPO_ROOT, "node_modules", ".bin", "tsc");
    const options = [
      "--noEmit",
      "--strict",
      "--module",
      "node16",
      "--moduleResolution",
      "node16",
      "--target",
      "es2022",
    ];
    await run(tsc, [...options, "--types", "node", "--skipLibCheck", "index.ts"], { cwd: i.workDir });
    const before = await i.requestCount();
    const preview = await i.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 7 });
    expect(await i.requestCount()).toBe(before);
  });
}

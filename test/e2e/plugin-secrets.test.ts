import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providePulumiCli } from "../../scripts/pulumi-cli";
import { apiUrlOf, createE2EStack, type E2EStack } from "./harness";
import { exportedState, isCiphertext } from "./plugin-stacks";

const run = promisify(execFile);

/** Secret values: the program's (config) and one made outside Pulumi; never in plaintext anywhere. */
const HF_TOKEN = "hf_plugin_secret_value_71";
const CONSOLE_VALUE = "console_secret_value_71";

/**
 * The provider plugin's Secret and catalog functions, on the real engine against an emulator over
 * HTTP, in one stack: `up` creates a secret and a template whose env refers to it, and reads the
 * catalog through the plugin's invoke; a secret made outside Pulumi is imported by id; the values
 * appear in no state, output or printed code; destroy leaves nothing.
 */
describe("the provider plugin's Secret and catalog functions", { timeout: 600_000 }, () => {
  let e: E2EStack;
  let printed = "";
  const log = (s: string) => (printed += s);

  beforeAll(async () => {
    e = await createE2EStack("plugin-secrets", {}, { apiVersion: "v2" });
    await e.stack.setAllConfig({
      "runpod-iac:apiUrl": { value: apiUrlOf(e.emulator, "v2") },
      "runpod-iac:queueUrl": { value: e.emulator.queueUrl },
      hfToken: { value: HF_TOKEN, secret: true },
    });
  }, 300_000);
  afterAll(async () => e?.dispose());

  it("creates the secret and a template referring to it, and invokes getGpuTypes through the plugin", async () => {
    const up = await e.stack.up({ onOutput: log });
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value as unknown]));
    expect(out.reference).toBe("{{ RUNPOD_SECRET_HF_TOKEN_E2E }}");
    const secrets = await e.client.v2.account.secrets.list();
    expect(secrets.map((s) => s.name)).toEqual(["HF_TOKEN_E2E"]);
    const template = await e.client.templates.get(String(out.templateId));
    expect(template.env).toMatchObject({ HF_TOKEN: "{{ RUNPOD_SECRET_HF_TOKEN_E2E }}" });
    // The catalog the plugin read is the platform's.
    const catalog = await e.client.v2.catalog.gpus();
    expect(out.gpuTypeIds).toEqual(catalog.map((g) => g.id));
    expect((out.gpuTypeIds as string[]).length).toBeGreaterThan(0);
  });

  it("keeps the secret's value as ciphertext in the state, and imports a secret made outside Pulumi", async () => {
    const made = await e.client.v2.account.secrets.create({ name: "CONSOLE_TOKEN", value: CONSOLE_VALUE });
    const bin = await providePulumiCli();
    const flags = ["--yes", "--protect=false", "--non-interactive", "--stack", "e2e"];
    const imported = await run(
      path.join(bin, "pulumi"),
      ["import", "runpod-iac:index:Secret", "console", made.id, "--out", "imported.ts", ...flags],
      { cwd: e.workDir, env: { ...process.env, ...e.envVars }, maxBuffer: 64 << 20 },
    );
    printed += imported.stdout + imported.stderr;
    const code = fs.readFileSync(path.join(e.workDir, "imported.ts"), "utf8");
    expect(code).toContain('new runpod_iac.Secret("console"');
    expect(code).toContain('name: "CONSOLE_TOKEN"');
    // The platform never returns a value: the printed code leaves it empty, to be given again.
    expect(code).toContain('value: ""');

    const { text, resources } = await exportedState(e);
    const secret = resources.find((r) => r.type === "runpod-iac:index:Secret" && r.urn.endsWith("::hf"))!;
    expect(isCiphertext(secret.outputs!.value)).toBe(true);
    expect(isCiphertext(secret.inputs!.value)).toBe(true);
    const console = resources.find((r) => r.type === "runpod-iac:index:Secret" && r.urn.endsWith("::console"))!;
    expect(console.id).toBe(made.id);
    expect(console.outputs).toMatchObject({ name: "CONSOLE_TOKEN", reference: "{{ RUNPOD_SECRET_CONSOLE_TOKEN }}" });
    expect(console.outputs!.value).toBeUndefined();
    for (const value of [HF_TOKEN, CONSOLE_VALUE]) {
      expect(text).not.toContain(value);
      expect(printed).not.toContain(value);
      expect(code).not.toContain(value);
    }
  });

  it("destroys to nothing, the imported secret included", async () => {
    // The imported secret is in the state, not in the program: destroy deletes it with the rest.
    await e.stack.destroy({ onOutput: log });
    expect(await e.client.v2.account.secrets.list()).toEqual([]);
    expect(await e.client.templates.list()).toEqual([]);
    expect(printed).not.toContain(HF_TOKEN);
    expect(printed).not.toContain(CONSOLE_VALUE);
  });
});

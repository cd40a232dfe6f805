import { execFile } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providePulumiCli, REPO_ROOT } from "../../scripts/pulumi-cli";
import { apiUrlOf, createE2EStack, type E2EStack } from "./harness";
import { exportedState, isCiphertext } from "./plugin-stacks";

/**
 * The provider plugin `runpod-iac` on management API v1, on the real engine against an emulator
 * over HTTP: a stack whose only settings are the plugin's (`runpod-iac:apiUrl` names v1) creates
 * through the plugin, takes over a volume made outside Pulumi with `adoptId` (the dynamic
 * resources' adoption, run by the plugin), previews no change without a request, and is read by
 * `runpod-iac cost` through the plugin's keys; a missing key is named by the plugin's key.
 */

const API_TOKEN = "tok_plugin_v1_secret_53";

/** Runs `runpod-iac cost` (the built CLI) in the stack's directory with the stack's environment. */
async function cost(e: E2EStack, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = await providePulumiCli();
  const cli = path.join(REPO_ROOT, "dist", "cli", "main.js");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, "cost", "--stack", "e2e", "--pulumi", path.join(bin, "pulumi"), ...args],
      { cwd: e.workDir, env: { ...process.env, ...e.envVars }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("the provider plugin on management API v1", { timeout: 600_000 }, () => {
  let e: E2EStack;
  let adoptId: string;
  let printed = "";
  const log = (s: string) => (printed += s);

  beforeAll(async () => {
    // The key only where the test puts it: the stack's config, never the environment.
    delete process.env.RUNPOD_API_KEY;
    delete process.env.RUNPOD_API_URL;
    // `keyInConfig` puts the key in `runpod:apiKey`, which the plugin does not read.
    e = await createE2EStack("plugin-v1", {}, { keyInConfig: true, apiVersion: "v1" });
    // Made outside Pulumi, as in the console: smaller than the program declares.
    adoptId = (await e.client.networkVolumes.create({ name: "console-models", size: 20, dataCenterId: "EU-RO-1" })).id;
    await e.stack.setAllConfig({
      "runpod-iac:apiUrl": { value: apiUrlOf(e.emulator, "v1") },
      "runpod-iac:queueUrl": { value: e.emulator.queueUrl },
      apiToken: { value: API_TOKEN, secret: true },
      adoptVolumeId: { value: adoptId },
      volumeSize: { value: "30" },
    });
  }, 300_000);
  afterAll(async () => e?.dispose());

  it("without runpod-iac:apiKey or RUNPOD_API_KEY, fails naming both, and creates nothing", async () => {
    const err = await e.stack.up({ onOutput: log }).catch((x: Error) => x);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain(
      "No RunPod API key: set the stack config `runpod-iac:apiKey` (as a secret), or set RUNPOD_API_KEY",
    );
    expect(await e.client.templates.list()).toEqual([]);
    expect(await e.client.endpoints.list()).toEqual([]);
    // From here on the stack holds the plugin's settings only.
    await e.stack.removeAllConfig(["runpod:apiKey", "runpod:apiUrl", "runpod:queueUrl"]);
    await e.stack.setConfig("runpod-iac:apiKey", { value: e.apiKey, secret: true });
  });

  it("creates through the plugin on v1 and adopts the existing volume, growing it to the declared size", async () => {
    const up = await e.stack.up({ onOutput: log });
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value as unknown]));
    expect(out.volumeId).toBe(adoptId);
    expect(out.volumeSize).toBe(30);
    expect(await e.client.networkVolumes.list()).toEqual([
      expect.objectContaining({ id: adoptId, name: "console-models", size: 30 }),
    ]);
    // v1 keeps the endpoint's template: the one the plugin created.
    expect(await e.client.endpoints.get(String(out.endpointId))).toMatchObject({
      templateId: out.templateId,
      networkVolumeId: adoptId,
    });
    expect(await e.client.templates.get(String(out.templateId))).toMatchObject({
      env: { GREETING: "hello", API_TOKEN },
    });
    expect(out.endpointUrl).toBe(`${e.emulator.queueUrl}/${String(out.endpointId)}`);
    const { text, resources } = await exportedState(e);
    expect(text).not.toContain(API_TOKEN);
    expect(text).not.toContain(e.apiKey);
    const template = resources.find((r) => r.type === "runpod-iac:index:Template")!;
    expect(isCiphertext((template.inputs?.env as Record<string, unknown>).API_TOKEN)).toBe(true);
    expect(resources.find((r) => r.type === "runpod-iac:index:NetworkVolume")?.inputs?.adoptId).toBe(adoptId);
  });

  it("previews no change and sends nothing, then refreshes without a change", async () => {
    const before = await e.requestCount();
    expect((await e.stack.preview({ onOutput: log })).changeSummary).toEqual({ same: 4 });
    expect(await e.requestCount()).toBe(before);
    expect((await e.stack.refresh({ onOutput: log })).summary.resourceChanges).toEqual({ same: 4 });
  });

  it("is read by `runpod-iac cost` through the plugin's keys (v1 bills the account's volumes together)", async () => {
    const json = await cost(e, ["--since", "1d", "--json"]);
    log(json.stdout + json.stderr);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { resources: { type: string; id: string; scope?: string }[] };
    expect(doc.resources.map((r) => [r.type, r.id, r.scope])).toEqual([
      ["ServerlessEndpoint", expect.any(String), undefined],
      ["NetworkVolume", "*", "account"],
    ]);
  });

  it("destroys what it created and adopted, and printed no secret", async () => {
    expect((await e.stack.destroy({ onOutput: log })).summary.resourceChanges).toEqual({ delete: 4 });
    expect(await e.client.networkVolumes.list()).toEqual([]);
    expect(await e.client.endpoints.list()).toEqual([]);
    expect(printed).not.toContain(API_TOKEN);
    expect(printed).not.toContain(e.apiKey);
  });
});

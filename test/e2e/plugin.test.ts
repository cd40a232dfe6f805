import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiUrlOf, copyProgram, createE2EStack, type E2EStack } from "./harness";
import { exportedState, importFrom, isCiphertext, platformResources, writeProject } from "./plugin-stacks";
import { importJourney } from "./plugin-import-journey";

/**
 * The provider plugin `runpod-iac` on the real engine, against one emulator over HTTP: a program of
 * the plugin-backed classes (`runpod-iac/plugin`) through its whole life on management API v2; a
 * stack of dynamic resources moved to the plugin by its import line and back, on v1; and
 * `pulumi import` of every type through the installed plugin, whose printed code previews no change.
 */

const REGISTRY_PASSWORD = "rpg_plugin_password_77";
const API_TOKEN = "tok_plugin_secret_77";

describe("the provider plugin runpod-iac", { timeout: 600_000 }, () => {
  let e: E2EStack;
  let ids: Record<string, string>;
  let printed = "";
  const log = (s: string) => (printed += s);

  beforeAll(async () => {
    e = await createE2EStack("plugin-journey", {}, { keyInConfig: true, apiVersion: "v2" });
    // The plugin's own configuration keys, the key as a secret.
    await e.stack.setAllConfig({
      "runpod-iac:apiUrl": { value: apiUrlOf(e.emulator, "v2") },
      "runpod-iac:queueUrl": { value: e.emulator.queueUrl },
      "runpod-iac:apiKey": { value: e.apiKey, secret: true },
      registryPassword: { value: REGISTRY_PASSWORD, secret: true },
      apiToken: { value: API_TOKEN, secret: true },
      volumeSize: { value: "20" },
    });
  }, 300_000);
  afterAll(async () => e?.dispose());

  async function setFaults(rules: Record<string, unknown>[]): Promise<void> {
    const res = await fetch(`${e.emulator.url}/_emulator/faults`, {
      method: "PUT",
      headers: { authorization: `Bearer ${e.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ rules }),
    });
    expect(res.ok).toBe(true);
  }

  it("deploys the whole deployment, and a create whose answer was lost is found, not repeated", async () => {
    await setFaults([{ route: "POST /v2/network-volumes", lostResponseRate: 1 }]);
    const up = await e.stack.up({ onOutput: log });
    await setFaults([]);
    expect(up.summary.resourceChanges).toEqual({ create: 6 });
    ids = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)]));
    const volumes = (await e.client.networkVolumes.list()).filter((v) => v.name.startsWith("models-"));
    expect(volumes.map((v) => v.id)).toEqual([ids.volumeId]);
    expect(await e.client.endpoints.get(ids.endpointId!)).toMatchObject({ networkVolumeId: ids.volumeId });
    expect(ids.endpointUrl).toBe(`${e.emulator.queueUrl}/${ids.endpointId}`);
    // The pod's placement filters (100 GB, 12 vCPUs per GPU) chose a large machine, whose share it got.
    expect([up.outputs.podVcpus?.value, up.outputs.podMemoryGb?.value]).toEqual([16, 125]);
    expect(await e.client.v2.pods.get(ids.podId!)).toMatchObject({ gpu: { vcpuCount: 16, memory: 125 } });
  });

  it("keeps every secret as ciphertext in the state and out of the engine's output", async () => {
    const { text, resources } = await exportedState(e);
    for (const secret of [REGISTRY_PASSWORD, API_TOKEN, e.apiKey]) {
      expect(text).not.toContain(secret);
      expect(printed).not.toContain(secret);
    }
    const state = Object.fromEntries(resources.map((r) => [r.type, r]));
    const registry = state["runpod-iac:index:ContainerRegistryAuth"]!;
    expect([registry.inputs?.password, registry.outputs?.password].every(isCiphertext)).toBe(true);
    const template = state["runpod-iac:index:Template"]!;
    expect(isCiphertext((template.inputs?.env as Record<string, unknown>).API_TOKEN)).toBe(true);
    expect(isCiphertext(template.outputs?.env)).toBe(true);
    expect(isCiphertext(state["runpod-iac:index:Pod"]!.outputs?.env)).toBe(true);
    expect(isCiphertext(state["pulumi:providers:runpod-iac"]!.inputs?.apiKey)).toBe(true);
  });

  it("grows the volume in place, then previews no change and sends nothing", async () => {
    await e.stack.setConfig("volumeSize", { value: "30" });
    const up = await e.stack.up({ onOutput: log });
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 5 });
    expect(String(up.outputs.volumeId!.value)).toBe(ids.volumeId);
    expect(await e.client.networkVolumes.get(ids.volumeId!)).toMatchObject({ size: 30 });
    const before = await e.requestCount();
    const preview = await e.stack.preview({ onOutput: log });
    expect(preview.changeSummary).toEqual({ same: 6 });
    expect(await e.requestCount()).toBe(before);
  });

  it("is refused a shrink at preview, naming the field, the values and the rule", async () => {
    await e.stack.setConfig("volumeSize", { value: "10" });
    const err = await e.stack.preview().catch((x: Error) => x);
    expect(String((err as Error).message)).toContain(
      "size can only grow: the volume has 30 GB and 10 GB was requested; network volumes cannot shrink",
    );
    await e.stack.setConfig("volumeSize", { value: "30" });
  });

  it("refreshes without a change", async () => {
    const refresh = await e.stack.refresh({ onOutput: log });
    expect(refresh.summary.resourceChanges).toEqual({ same: 6 });
  });

  describe("a stack of dynamic resources, moved by its import line (on v1)", () => {
    let m: E2EStack;
    let deployed: ReturnType<typeof platformResources>;
    beforeAll(async () => {
      const workDir = copyProgram("migration", "plugin-migration");
      writeProject(workDir, "runpod-e2e-plugin-migration", "index.js", true);
      m = await createE2EStack("migration", {}, { workDir, apiVersion: "v1", shareEmulatorOf: e });
      // The plugin reads its own keys (the key: RUNPOD_API_KEY, as for the dynamic resources).
      await m.stack.setAllConfig({
        "runpod-iac:apiUrl": { value: apiUrlOf(e.emulator, "v1") },
        "runpod-iac:queueUrl": { value: e.emulator.queueUrl },
      });
    }, 300_000);
    afterAll(async () => m?.dispose());

    /** An unchanged preview that sends nothing; then `up` and `refresh`, unchanged, keeping ids and outputs. */
    async function movesWithoutChange(): Promise<void> {
      const before = await m.requestCount();
      expect((await m.stack.preview()).changeSummary).toEqual({ same: 7 });
      expect(await m.requestCount()).toBe(before);
      expect((await m.stack.up()).summary.resourceChanges).toEqual({ same: 7 });
      expect((await m.stack.refresh()).summary.resourceChanges).toEqual({ same: 7 });
      const now = platformResources((await exportedState(m, true)).resources);
      for (const [name, r] of Object.entries(deployed)) {
        expect({ id: now[name]?.id, outputs: now[name]?.outputs }, name).toEqual({ id: r.id, outputs: r.outputs });
      }
    }

    it("moves to the plugin with no change and no replacement, keeping ids and outputs; refresh runs through it", async () => {
      expect((await m.stack.up()).summary.resourceChanges).toEqual({ create: 7 });
      deployed = platformResources((await exportedState(m, true)).resources);
      expect(Object.values(deployed).map((r) => r.type)).toContain("pulumi-nodejs:dynamic/runpod:Pod");
      importFrom(m.workDir, "runpod-iac/plugin");
      await movesWithoutChange();
      const types = Object.values(platformResources((await exportedState(m)).resources)).map((r) => r.type);
      expect(new Set(types)).toEqual(
        new Set(Object.values(deployed).map((r) => r.type.replace(/.*:/, "runpod-iac:index:"))),
      );
    });

    it("moves back to the dynamic resources the same way, and again to the plugin, which destroys it", async () => {
      importFrom(m.workDir, "runpod-iac");
      await movesWithoutChange();
      importFrom(m.workDir, "runpod-iac/plugin");
      expect((await m.stack.preview()).changeSummary).toEqual({ same: 7 });
      expect((await m.stack.destroy()).summary.resourceChanges).toEqual({ delete: 7 });
      for (const r of Object.values(deployed).filter((x) => x.type.endsWith(":NetworkVolume"))) {
        await expect(m.client.networkVolumes.get(r.id!)).rejects.toMatchObject({ code: "not_found" });
      }
    });
  });

  describe("pulumi import of every type, through the installed plugin", () => {
    importJourney(() => e);
  });

  it("destroys the deployment to nothing", async () => {
    const destroy = await e.stack.destroy({ onOutput: log });
    expect(destroy.summary.resourceChanges).toEqual({ delete: 6 });
    await expect(e.client.networkVolumes.get(ids.volumeId!)).rejects.toMatchObject({ code: "not_found" });
    await expect(e.client.endpoints.get(ids.endpointId!)).rejects.toMatchObject({ code: "not_found" });
    // A deleted pod is gone, or stays listed as terminated for a while, as on the platform.
    const pod = await e.client.pods.get(ids.podId!).catch((err: { code?: string }) => err.code);
    expect(typeof pod === "object" ? pod.desiredStatus : pod).toMatch(/^(not_found|TERMINATED)$/);
    expect(printed).not.toContain(API_TOKEN);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunpodClient } from "../../sdk/client";
import { createE2EStack, type E2EStack } from "./harness";

/*
 * Pods through the real Pulumi engine against the emulator, on each management API version named
 * explicitly (the stack's runpod:apiUrl is the emulator's apiUrlV2, then apiUrlV1). The steps of a
 * stack build on each other, so they run in order.
 */

const HF_TOKEN = "hf_E2ePodSecretToken9x";
const out = (outputs: Record<string, { value: unknown }>, key: string) => outputs[key]?.value;

/** A stack of the pods program on `version`, with a client of the same version. */
async function podStack(version: "v1" | "v2", label: string): Promise<{ e: E2EStack; client: RunpodClient }> {
  const e = await createE2EStack(
    "pods",
    { "e2e:hfToken": { value: HF_TOKEN, secret: true } },
    { label, emulator: { managementQuota: false } },
  );
  const apiUrl = version === "v1" ? e.emulator.apiUrlV1 : e.emulator.apiUrlV2;
  await e.stack.setConfig("runpod:apiUrl", { value: apiUrl });
  return { e, client: new RunpodClient({ apiKey: e.apiKey, apiUrl }) };
}

/** The outputs the state holds for the resource `name` (refresh updates these, not the stack's exports). */
async function stateOutputs(e: E2EStack, name: string): Promise<Record<string, unknown>> {
  const state = await e.stack.exportStack();
  const resource = state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith(`::${name}`));
  return resource.outputs;
}

/** Fails when a secret appears in anything the backend stores (every checkpoint, backups, history) or in `texts`. */
async function expectNoPlaintextSecrets(e: E2EStack, texts: string[], more: string[] = []): Promise<void> {
  const stored = await e.backend.storedText();
  // The search finds what the state holds in plaintext: the CPU pod's image.
  expect(stored).toContain("ubuntu:24.04");
  for (const secret of [HF_TOKEN, e.apiKey, ...more]) {
    expect(stored.includes(secret), "a secret stored by the backend").toBe(false);
    for (const text of texts) expect(text.includes(secret), "a secret in the engine's output").toBe(false);
  }
  // The env output is a secret value as a whole.
  const plain = await e.cli(["stack", "export"]);
  const gpu = JSON.parse(plain.stdout).deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::gpu"));
  expect(gpu.outputs.env).toHaveProperty("4dabf18193072939515e22adb298388d");
}

describe("pods on management API v2 through the real engine", { timeout: 300_000 }, () => {
  let e: E2EStack;
  let client: RunpodClient;
  const printed: string[] = [];
  const secrets: string[] = [];
  let gpuId: string;
  let cpuId: string;

  beforeAll(async () => {
    ({ e, client } = await podStack("v2", "pods-v2"));
    // v2 generates a Jupyter password: a secret output that must never be stored in plaintext.
    await e.stack.setConfig("e2e:jupyter", { value: "true" });
  });
  afterAll(async () => {
    await client?.close();
    await e?.dispose();
  });

  it("creates a volume, a GPU pod on it and a CPU pod, running", async () => {
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ create: 4 });
    gpuId = String(out(result.outputs, "gpuId"));
    cpuId = String(out(result.outputs, "cpuId"));
    const volumeId = String(out(result.outputs, "volumeId"));
    expect(await client.pods.get(gpuId)).toMatchObject({
      desiredStatus: "RUNNING",
      gpu: { id: "NVIDIA L4", count: 1 },
      networkVolume: { id: volumeId },
      dataCenterId: "EU-RO-1",
    });
    expect(await client.pods.get(cpuId)).toMatchObject({ desiredStatus: "RUNNING", cpuFlavorId: "cpu3m" });
    expect(out(result.outputs, "gpuCostPerHr")).toBe(0.43);
    expect(out(result.outputs, "gpuEnv")).toEqual({ MODEL: "llama", HF_TOKEN });
    const password = (await client.pods.get(gpuId)).env?.JUPYTER_PASSWORD;
    expect(password).toMatch(/^\S{12,}$/);
    expect(out(result.outputs, "jupyterPassword")).toBe(password);
    secrets.push(password!);
  });

  it("stops both pods and renames the GPU pod by editing config, keeping their ids", async () => {
    await e.stack.setAllConfig({ "e2e:status": { value: "EXITED" }, "e2e:gpuName": { value: "trainer" } });
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ update: 2, same: 2 });
    expect(await client.pods.get(gpuId)).toMatchObject({ desiredStatus: "EXITED", name: "trainer" });
    expect((await client.pods.get(cpuId)).desiredStatus).toBe("EXITED");
  });

  it("starts them again with the same one-line change", async () => {
    await e.stack.setConfig("e2e:status", { value: "RUNNING" });
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ update: 2 });
    expect((await client.pods.get(gpuId)).desiredStatus).toBe("RUNNING");
    expect((await client.pods.get(cpuId)).desiredStatus).toBe("RUNNING");
  });

  it("says at preview, in words and for that pod, that a new image resets the container; up keeps the id", async () => {
    await e.stack.setConfig("e2e:image", { value: "pytorch/pytorch:2.5.0" });
    const preview = await e.stack.preview();
    printed.push(preview.stdout);
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.stdout).toContain(
      'Pod "gpu": changing imageName updates through PATCH /pods/{id} (management API v2): the container restarts and its disk is wiped; the pod volume and network volume stay',
    );
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(out(result.outputs, "gpuId")).toBe(gpuId);
    expect(await client.pods.get(gpuId)).toMatchObject({ image: "pytorch/pytorch:2.5.0", desiredStatus: "RUNNING" });
  });

  it("sees a pod stopped outside Pulumi as drift at refresh, and the next up starts it again", async () => {
    await client.pods.stop(cpuId);
    const refresh = await e.stack.refresh({ onOutput: (s) => printed.push(s) });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await stateOutputs(e, "cpu")).toMatchObject({ desiredStatus: "EXITED" });
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await client.pods.get(cpuId)).desiredStatus).toBe("RUNNING");
  });

  it("says at preview that a placement filter replaces the pod", async () => {
    await e.stack.setConfig("e2e:minRamPerGpu", { value: "100" });
    const preview = await e.stack.preview();
    printed.push(preview.stdout);
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    expect(preview.stdout).toMatch(/gpu +replace +\[diff: [^\]]*minRamPerGpu/);
    await e.stack.removeConfig("e2e:minRamPerGpu");
  });

  it("replaces the GPU pod when its GPU count changes, and the old pod is gone", async () => {
    await e.stack.setConfig("e2e:gpuCount", { value: "2" });
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
    const newId = String(out(result.outputs, "gpuId"));
    expect(newId).not.toBe(gpuId);
    const replaced = await client.pods.get(newId);
    expect(replaced).toMatchObject({ gpu: { count: 2 }, desiredStatus: "RUNNING" });
    secrets.push(replaced.env!.JUPYTER_PASSWORD!);
    await expect(client.pods.get(gpuId)).rejects.toMatchObject({ code: "not_found" });
  });

  it("keeps every secret out of the state and the engine's output, and destroy removes the pods", async () => {
    await expectNoPlaintextSecrets(e, printed, secrets);
    await e.stack.destroy();
    expect(await client.pods.list()).toEqual([]);
  });
});

describe("an interruptible pod on management API v1 through the real engine", { timeout: 300_000 }, () => {
  let e: E2EStack;
  let client: RunpodClient;
  const printed: string[] = [];

  beforeAll(async () => {
    ({ e, client } = await podStack("v1", "pods-v1"));
    await e.stack.setConfig("e2e:interruptible", { value: "true" });
  });
  afterAll(async () => {
    await client?.close();
    await e?.dispose();
  });

  it("refreshes a preempted pod as EXITED, starts it at the next up, and names v1's reset update at preview", async () => {
    const created = await e.stack.up({ onOutput: (s) => printed.push(s) });
    const gpuId = String(out(created.outputs, "gpuId"));
    expect(await client.pods.get(gpuId)).toMatchObject({ interruptible: true, costPerHr: 0.215 });
    const res = await fetch(`${e.emulator.url}/_emulator/pods/${gpuId}/preempt`, {
      method: "POST",
      headers: { authorization: `Bearer ${e.apiKey}` },
    });
    expect(res.status).toBe(200);
    await e.stack.refresh({ onOutput: (s) => printed.push(s) });
    expect(await stateOutputs(e, "gpu")).toMatchObject({ desiredStatus: "EXITED" });
    await e.stack.setConfig("e2e:image", { value: "pytorch/pytorch:2.5.0" });
    const preview = await e.stack.preview();
    expect(preview.stdout).toContain(
      'Pod "gpu": changing imageName updates through the reset update POST /pods/{id}/update (management API v1): the container restarts and its disk is wiped; the pod volume and network volume stay',
    );
    const result = await e.stack.up({ onOutput: (s) => printed.push(s) });
    expect(out(result.outputs, "gpuId")).toBe(gpuId);
    expect(await client.pods.get(gpuId)).toMatchObject({ desiredStatus: "RUNNING", image: "pytorch/pytorch:2.5.0" });
    await expectNoPlaintextSecrets(e, printed);
  });

  it("refuses a placement filter below 1 at preview on v1 too, naming the field, the value and the rule", async () => {
    await e.stack.setConfig("e2e:minRamPerGpu", { value: "0" });
    const err = await e.stack.preview().catch((x: Error) => x);
    expect(String((err as Error).message)).toMatch(/minRamPerGpu value \{0\} has a problem: must be at least 1/);
    await e.stack.removeConfig("e2e:minRamPerGpu");
  });
});

import { createHash, randomBytes } from "node:crypto";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { createE2EStack, type E2EStack } from "./harness";

/**
 * The Secret resource on the real engine, against the emulator: a Hugging Face token kept in an
 * account secret, referred to by a template's env, reaches the endpoint's workers; a rotation
 * reaches the next worker start; a rotation made outside Pulumi shows at the next preview and `up`
 * sets the value back; a rename replaces the secret and the template follows; a reserved name
 * and management API v1 are refused at preview; destroy leaves nothing. No value appears in
 * plain text in the state, the engine's output or any emulator answer.
 */

const HANDLERS = path.join(REPO_ROOT, "test", "integration", "emulator", "fixtures", "handlers");
/** Fresh token-shaped values: each must never be found in plain text anywhere but here. */
const token = () => `hf_${randomBytes(24).toString("hex").slice(0, 34)}`;
const FIRST = token();
const ROTATED = token();
const OUTSIDE = token();
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let e: E2EStack;
/** Everything the engine printed, and every emulator answer the test read. */
let printed = "";
const answers: unknown[] = [];
const onOutput = (s: string) => {
  printed += s;
};

beforeAll(async () => {
  e = await createE2EStack(
    "secrets",
    { "runpod-e2e-secrets:hfToken": { value: FIRST, secret: true } },
    { emulator: { handlersDir: HANDLERS } },
  );
}, 300_000);
afterAll(async () => e?.dispose());

async function outputs(): Promise<Record<string, string>> {
  const out = await e.stack.outputs();
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.value as string]));
}

/** The SHA-256 of what a worker of the endpoint, started now if none is up, sees as HF_TOKEN. */
async function workerSees(): Promise<string> {
  const { endpointId } = await outputs();
  const job = await e.client.jobs(endpointId!).runSync({ input: { key: "HF_TOKEN", digest: true } }, { wait: 30_000 });
  answers.push(job);
  expect(job.status, JSON.stringify(job)).toBe("COMPLETED");
  return (job.output as { sha256: string }).sha256;
}

/** Waits until the endpoint's worker has stopped (idle timeout 1 s), so the next job starts a new one. */
async function untilNoWorker(): Promise<void> {
  const { endpointId } = await outputs();
  for (let i = 0; i < 100; i++) {
    const { workers } = await e.client.v2.serverless.workers(endpointId!);
    if (workers.length === 0) return;
    await sleep(100);
  }
  throw new Error("the endpoint's worker did not stop");
}

/** A preview expected to fail: whether it failed, and what the engine printed (kept for the final check). */
async function failingPreview(): Promise<{ failed: boolean; shown: string }> {
  let shown = "";
  const failed = await e.stack.preview({ onOutput: (s) => (shown += s) }).then(
    () => false,
    (err: Error) => {
      shown += err.message;
      return true;
    },
  );
  printed += shown;
  return { failed, shown };
}

describe("a Secret referred to by a template, on the real engine", { timeout: 300_000 }, () => {
  it("creates the secret, the template and the endpoint; a worker sees the value, the API the reference", async () => {
    const up = await e.stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    const { secretId, reference, templateId } = await outputs();
    // Auto-named: the logical name plus a stack-unique suffix, which fits a secret name's pattern.
    const name = /^\{\{ RUNPOD_SECRET_(hf-token-[a-z0-9]{7}) \}\}$/.exec(reference!)?.[1];
    expect(name, reference).toBeDefined();
    const secret = await e.client.v2.account.secrets.get(secretId!);
    expect(secret).toMatchObject({ name, description: "Hugging Face read token" });
    const template = await e.client.v2.templates.get(templateId!);
    expect(template.env).toMatchObject({ HF_TOKEN: reference, MODEL: "llama" });
    answers.push(secret, template);
    expect(await workerSees()).toBe(sha256(FIRST));
  });

  it("rotates the value in place; the preview shows one update and the next worker start sees the new value", async () => {
    await e.stack.setConfig("hfToken", { value: ROTATED, secret: true });
    let shown = "";
    const preview = await e.stack.preview({ diff: true, onOutput: (s) => (shown += s) });
    printed += shown;
    // The reference is known from the name, so the template that holds it shows no change.
    expect(preview.changeSummary, shown).toEqual({ same: 3, update: 1 });
    expect(shown).toContain("value      : [secret]");
    const up = await e.stack.up({ onOutput, diff: true });
    expect(up.summary.resourceChanges).toEqual({ same: 3, update: 1 });
    await untilNoWorker();
    expect(await workerSees()).toBe(sha256(ROTATED));
  });

  it("sees a rotation made outside at refresh, shows value as a change, and up sets it back", async () => {
    const { secretId } = await outputs();
    answers.push(await e.client.v2.account.secrets.update(secretId!, { value: OUTSIDE }));
    const refresh = await e.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 3, update: 1 });
    let shown = "";
    // Without --diff: the engine's diff display leaves the resource's warnings out.
    const preview = await e.stack.preview({ onOutput: (s) => (shown += s) });
    printed += shown;
    expect(preview.changeSummary, shown).toEqual({ same: 3, update: 1 });
    expect(shown).toContain(
      "pulumi-nodejs:dynamic/runpod:Secret hf-token update [diff: +value]; warning: the value was set outside Pulumi",
    );
    await e.stack.up({ onOutput });
    await untilNoWorker();
    expect(await workerSees()).toBe(sha256(ROTATED));
  });

  it("replaces the secret on a rename; the template follows its new reference, the old one is gone", async () => {
    const before = await outputs();
    await e.stack.setConfig("secretName", { value: "hf-token-renamed" });
    const up = await e.stack.up({ onOutput });
    // The stack and the endpoint stay; the secret is replaced and the template takes its new reference.
    expect(up.summary.resourceChanges).toEqual({ same: 2, replace: 1, update: 1 });
    const after = await outputs();
    expect(after.secretId).not.toBe(before.secretId);
    expect(after.reference).toBe("{{ RUNPOD_SECRET_hf-token-renamed }}");
    const secrets = await e.client.v2.account.secrets.list();
    expect(secrets.map((s) => s.name)).toEqual(["hf-token-renamed"]);
    answers.push(secrets, await e.client.v2.templates.get(after.templateId!));
    await untilNoWorker();
    expect(await workerSees()).toBe(sha256(ROTATED));
  });

  it("refuses a reserved name at preview, naming the field and the rule (the value is in no output)", async () => {
    await e.stack.setConfig("secretName", { value: "RunPod_token" });
    const { failed, shown } = await failingPreview();
    expect(failed, shown).toBe(true);
    expect(shown).toContain("must not begin with RUNPOD, in any case: the platform reserves that prefix");
    await e.stack.setConfig("secretName", { value: "hf-token-renamed" });
  });

  it("cannot move to management API v1: the preview says so, naming the version; back on v2 nothing changed", async () => {
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV1 });
    const { failed, shown } = await failingPreview();
    expect(failed, shown).toBe(true);
    expect(shown).toContain(
      "Secret exists only on management API v2, and the API URL names v1: point runpod:apiUrl (or RUNPOD_API_URL) at a .../v2 URL, or remove the Secret",
    );
    await e.stack.setConfig("runpod:apiUrl", { value: e.emulator.apiUrlV2 });
    const before = await e.requestCount();
    const back = await e.stack.preview({ onOutput });
    expect(back.changeSummary).toEqual({ same: 4 });
    expect(await e.requestCount(), "requests of an unchanged preview").toBe(before);
  });

  it("destroys to nothing, and no value was ever in plain text in state, output or an answer", async () => {
    const state = await e.cli(["stack", "export"]);
    printed += state.stdout + state.stderr;
    const destroy = await e.stack.destroy({ onOutput });
    expect(destroy.summary.resourceChanges).toEqual({ delete: 4 });
    expect(await e.client.v2.account.secrets.list()).toEqual([]);
    expect(await e.client.v2.templates.list()).toEqual([]);
    expect(await e.client.v2.serverless.list()).toEqual([]);
    const emulatorState = await fetch(`${e.emulator.url}/_emulator/state`, {
      headers: { authorization: `Bearer ${e.apiKey}` },
    });
    answers.push(await emulatorState.json());
    const everything = [printed, await e.backend.storedText(), JSON.stringify(answers)].join("\n");
    expect(everything).toContain("hf-token-renamed");
    for (const value of [FIRST, ROTATED, OUTSIDE]) expect(everything).not.toContain(value);
  });
});

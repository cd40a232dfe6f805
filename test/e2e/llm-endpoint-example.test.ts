import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { POLICY_DIR, useExampleStacks } from "./example-stacks";
import type { E2EStack } from "./harness";

/**
 * examples/llm-endpoint as its README runs it, through the real engine against the emulator: a
 * Secret holding the Hugging Face token, the vLLM worker's template referring to it, a
 * queue-based endpoint, and `chat.ts` talking to it through the `openai` package.
 */
const { exampleStack } = useExampleStacks();

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

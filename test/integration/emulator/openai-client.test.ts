import OpenAI, { AuthenticationError, NotFoundError } from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { RunpodClient } from "../../../sdk";
import { KEY, useTestEmulator } from "./helpers";

// The npm `openai` client, unchanged, against an emulated vLLM endpoint over real HTTP.
const ctx = useTestEmulator({}, "file");
const { api } = ctx;
const MODEL = "Qwen/Qwen3-0.6B";
let endpointId = "";
let openai: OpenAI;

/** An `openai` client on an endpoint of the emulator, as a team configures it; no retries, so each call is one job. */
function openAiOn(id: string, apiKey = KEY): OpenAI {
  const runpod = new RunpodClient({ apiKey, apiUrl: ctx.emu.apiUrl, queueUrl: ctx.emu.queueUrl });
  return new OpenAI({ apiKey, baseURL: runpod.jobs(id).openAiBaseUrl, maxRetries: 0 });
}

beforeAll(async () => {
  // The official worker's image and its MODEL_NAME, through the management API (v2: template, then endpoint).
  const template = await api.post("/v2/templates", {
    name: "vllm",
    image: "runpod/worker-v1-vllm:v2.25.2",
    serverless: true,
    env: { MODEL_NAME: MODEL },
  });
  expect(template.status, JSON.stringify(template.body)).toBe(201);
  const endpoint = await api.post("/v2/serverless", {
    name: "llm",
    type: "QUEUE",
    templateId: template.body.id,
    gpu: { pools: ["ADA_24"], count: 1 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    workers: { min: 0, max: 2, idleTimeout: 5 },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  endpointId = endpoint.body.id;
  openai = openAiOn(endpointId);
});

describe("the npm openai client on an emulated vLLM endpoint", () => {
  it("lists the model named by MODEL_NAME", async () => {
    const models = await openai.models.list();
    expect(models.data.map((m) => m.id)).toEqual([MODEL]);
    expect(models.data[0]).toMatchObject({ object: "model", owned_by: "vllm" });
  });

  it("answers a chat completion with text derived from the prompt, usage, and max_tokens honoured", async () => {
    const messages = [{ role: "user" as const, content: "please say hello to the world" }];
    const full = await openai.chat.completions.create({ model: MODEL, messages });
    expect(full.object).toBe("chat.completion");
    expect(full.choices[0]!.message).toMatchObject({ role: "assistant", content: "world the to hello say please" });
    expect(full.choices[0]!.finish_reason).toBe("stop");
    expect(full.usage).toEqual({ prompt_tokens: 6, completion_tokens: 6, total_tokens: 12 });

    const cut = await openai.chat.completions.create({ model: MODEL, messages, max_tokens: 2 });
    expect(cut.choices[0]!.message.content).toBe("world the");
    expect(cut.choices[0]!.finish_reason).toBe("length");
    expect(cut.usage?.completion_tokens).toBe(2);
  });

  it("streams a chat completion as chunks, ending with the usage chunk when asked", async () => {
    const stream = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "one two three" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === MODEL)).toBe(true);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("three two one");
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 3 } });
  });

  it("answers completions (16 tokens by default) and streams them", async () => {
    const prompt = Array.from({ length: 20 }, (_, i) => `w${i}`).join(" ");
    const done = await openai.completions.create({ model: MODEL, prompt });
    expect(done.object).toBe("text_completion");
    expect(done.choices[0]!.text.split(" ")).toHaveLength(16);
    expect(done.choices[0]!.text.startsWith("w19 w18")).toBe(true);
    expect(done.choices[0]!.finish_reason).toBe("length");
    expect(done.usage).toEqual({ prompt_tokens: 20, completion_tokens: 16, total_tokens: 36 });

    const stream = await openai.completions.create({ model: MODEL, prompt: "a b c", max_tokens: 5, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? "";
    expect(text).toBe("c b a");
  });

  it("answers an unknown model with the OpenAI-style 404, streamed or not", async () => {
    const messages = [{ role: "user" as const, content: "hi" }];
    for (const stream of [false, true]) {
      const error = await openai.chat.completions.create({ model: "gpt-4o", messages, stream }).catch((e) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.status).toBe(404);
      expect(error.error).toMatchObject({ message: "The model `gpt-4o` does not exist.", type: "NotFoundError" });
    }
  });

  it("fails a wrong key with AuthenticationError and an unknown endpoint with NotFoundError", async () => {
    await expect(openAiOn(endpointId, "not-a-key").models.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(openAiOn("no-such-endpoint").models.list()).rejects.toBeInstanceOf(NotFoundError);
    // The other job routes answer the same.
    expect((await api.get("/v2/no-such-endpoint/health")).status).toBe(404);
  });

  it("makes each call a job: counted in /health, listed by /requests, billed as worker time", async () => {
    const before = (await api.get(`/v2/${endpointId}/health`)).body.jobs.completed;
    await openai.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "count me" }] });
    await openai.models.list();
    const health = (await api.get(`/v2/${endpointId}/health`)).body;
    expect(health.jobs.completed).toBe(before + 2);
    expect(health.workers.idle + health.workers.running).toBeGreaterThan(0);

    const recent = (await api.get(`/v2/${endpointId}/requests`)).body.requests;
    expect(recent.slice(0, 2)).toEqual([
      expect.objectContaining({ status: "COMPLETED", source: "openai", route: "/v1/models" }),
      expect.objectContaining({ status: "COMPLETED", source: "openai", route: "/v1/chat/completions" }),
    ]);

    // The worker that ran them is billed while it is up (idle time included), as any job's.
    await ctx.clock.advance(3_000);
    const billed = (await api.get(`/v1/billing/endpoints?endpointId=${endpointId}`)).body;
    const ms = billed.reduce((sum: number, r: { timeBilledMs: number }) => sum + r.timeBilledMs, 0);
    expect(ms).toBeGreaterThanOrEqual(3_000);
  });
});

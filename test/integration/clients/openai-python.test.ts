import { beforeAll, describe, expect, it } from "vitest";
import { KEY, useTestEmulator } from "../emulator/helpers";
import { runPythonJson } from "./python-runner";

/**
 * The PyPI `openai` client (pinned in requirements.txt), unchanged, against an emulated vLLM
 * endpoint over real HTTP: the official worker's image and its MODEL_NAME in a template made
 * through management v1, an endpoint on it, and the client's base URL
 * `<origin>/v2/<endpoint_id>/openai/v1`. The npm client's test is emulator/openai-client.test.ts.
 */
const ctx = useTestEmulator({}, "file");
const MODEL = "Qwen/Qwen3-0.6B";

type Result = Record<string, unknown> & { error?: string };
let results: Record<string, Result>;
let endpointId = "";

beforeAll(async () => {
  const template = await ctx.api.post("/v1/templates", {
    name: "vllm",
    imageName: "runpod/worker-v1-vllm:v2.25.2",
    isServerless: true,
    env: { MODEL_NAME: MODEL },
  });
  expect(template.status, JSON.stringify(template.body)).toBe(200);
  const endpoint = await ctx.api.post("/v1/endpoints", {
    name: "llm",
    templateId: template.body.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMax: 2,
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
  endpointId = endpoint.body.id;
  const plan = {
    baseUrl: `${ctx.emu.url}/v2/${endpointId}/openai/v1`,
    unknownBaseUrl: `${ctx.emu.url}/v2/nosuchendpoint1/openai/v1`,
    key: KEY,
    wrongKey: "not-a-key-of-this-emulator",
    model: MODEL,
  };
  results = await runPythonJson<Record<string, Result>>("openai_client.py", [JSON.stringify(plan)], {
    timeoutMs: 150_000,
  });
}, 180_000);

function scenario(name: string): Result {
  const result = results[name];
  expect(result, `scenario ${name} printed nothing`).toBeDefined();
  expect(result!.error, `openai raised in ${name}`).toBeUndefined();
  return result!;
}

describe("the PyPI openai client on an emulated vLLM endpoint", () => {
  it("lists the model named by MODEL_NAME", () => {
    const r = scenario("models") as { ids: string[]; first: Result };
    expect(r.ids).toEqual([MODEL]);
    expect(r.first).toMatchObject({ id: MODEL, object: "model", owned_by: "vllm" });
  });

  it("answers a chat completion derived from the prompt, with usage, and honours max_tokens", () => {
    expect(scenario("chat")).toEqual({
      object: "chat.completion",
      message: { role: "assistant", content: "world the to hello say please" },
      finish: "stop",
      usage: { prompt_tokens: 6, completion_tokens: 6, total_tokens: 12 },
      cut: { content: "world the", finish: "length" },
    });
  });

  it("streams a chat completion as chunks, the usage chunk last when asked", () => {
    const r = scenario("chatStream") as Result & { last: Result };
    expect(r.objects).toEqual(["chat.completion.chunk"]);
    expect(r.text).toBe("three two one");
    expect(r.firstRole).toBe("assistant");
    expect(r.finish).toBe("stop");
    expect(r.last).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 3 } });
  });

  it("answers completions (16 tokens by default) and streams them", () => {
    const r = scenario("completions") as Result & { text: string };
    expect(r.object).toBe("text_completion");
    expect(r.text.split(" ")).toHaveLength(16);
    expect(r.text.startsWith("w19 w18")).toBe(true);
    expect(r.finish).toBe("length");
    expect(r.usage).toEqual({ prompt_tokens: 20, completion_tokens: 16, total_tokens: 36 });
    expect(r.streamed).toBe("c b a");
  });

  it("raises NotFoundError with the OpenAI error body for an unknown model, streamed or not", () => {
    const r = scenario("unknownModel");
    for (const how of ["plain", "streamed"]) {
      expect(r[how], how).toMatchObject({
        raised: "NotFoundError",
        status: 404,
        body: { message: "The model `gpt-4o` does not exist.", type: "NotFoundError" },
      });
    }
  });

  it("raises AuthenticationError for a wrong key and NotFoundError for an unknown endpoint", () => {
    const r = scenario("failures");
    expect(r.wrongKey).toMatchObject({ raised: "AuthenticationError", status: 401 });
    expect(r.unknownEndpoint).toMatchObject({ raised: "NotFoundError", status: 404 });
  });

  it("streams with AsyncOpenAI too", () => {
    expect(scenario("asyncStream")).toEqual({ text: "beta alpha", ids: [MODEL] });
  });

  it("made each call a job of the endpoint, listed by /requests with its route", async () => {
    const { requests } = (await ctx.api.get(`/v2/${endpointId}/requests`)).body as { requests: { route: string }[] };
    const routes: Record<string, number> = {};
    for (const r of requests) routes[r.route] = (routes[r.route] ?? 0) + 1;
    // models: 1 + 1 (async); chat: 2 + 1 streamed + 2 unknown model + 1 async; completions: 2.
    expect(routes).toEqual({ "/v1/models": 2, "/v1/chat/completions": 6, "/v1/completions": 2 });
    const health = (await ctx.api.get(`/v2/${endpointId}/health`)).body;
    expect(health.jobs.completed + health.jobs.failed).toBe(10);
  });
});

import { describe, expect, it } from "vitest";
import type { JobContext } from "../../../emulator/handlers/handler-types";
import { VLLM_WORKER_TEMPLATE } from "../../../emulator/handlers/vllm/vllm-worker";
import { DEFAULT_MODEL_NAME } from "../../../emulator/handlers/vllm/vllm-text";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

/** Everything the handler yields for one job's input, on a worker with `env`. */
async function run(input: Record<string, unknown>, env: Record<string, string> = { MODEL_NAME: MODEL }) {
  const ctx: JobContext = {
    id: "job-1",
    input,
    env,
    signal: new AbortController().signal,
    sleep: () => Promise.resolve(),
  };
  const out: unknown[] = [];
  for await (const value of VLLM_WORKER_TEMPLATE.handler(ctx) as AsyncIterable<unknown>) out.push(value);
  return out;
}

/** One OpenAI call: the yielded values. */
const call = (route: string, body: Record<string, unknown>, env?: Record<string, string>) =>
  run({ openai_route: route, openai_input: body }, env);

/** The JSON events of SSE text pieces, `[DONE]` as the string. */
const events = (pieces: unknown[]) =>
  (pieces as string[])
    .join("")
    .split("\n\n")
    .filter(Boolean)
    .map((e) => e.replace(/^data: /, ""))
    .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));

describe("the emulated vLLM worker's OpenAI routes", () => {
  it("lists the model of MODEL_NAME, the override's name when set, the worker's default without either", async () => {
    expect(await call("/v1/models", {})).toEqual([
      {
        object: "list",
        data: [expect.objectContaining({ id: MODEL, object: "model", owned_by: "vllm", root: MODEL })],
      },
    ]);
    const [list] = (await call("/v1/models", {}, { MODEL_NAME: MODEL, OPENAI_SERVED_MODEL_NAME_OVERRIDE: "chat" })) as [
      { data: Array<{ id: string; root: string }> },
    ];
    expect(list.data[0]).toMatchObject({ id: "chat", root: MODEL });
    const [fallback] = (await call("/v1/models", {}, {})) as [{ data: Array<{ id: string }> }];
    expect(fallback.data[0]!.id).toBe(DEFAULT_MODEL_NAME);
  });

  it("answers a chat with the last user message's words reversed, usage counting every message", async () => {
    const messages = [
      { role: "system", content: "be brief" },
      { role: "user", content: [{ type: "text", text: "the quick brown fox" }] },
    ];
    const [answer] = await call("/v1/chat/completions", { model: MODEL, messages, n: 2 });
    expect(answer).toMatchObject({
      id: "chatcmpl-job-1",
      object: "chat.completion",
      model: MODEL,
      choices: [
        { index: 0, message: { role: "assistant", content: "fox brown quick the" }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: "fox brown quick the" }, finish_reason: "stop" },
      ],
      usage: { prompt_tokens: 6, completion_tokens: 8, total_tokens: 14 },
    });
  });

  it("honours max_tokens and max_completion_tokens, and defaults completions to 16 tokens", async () => {
    const messages = [{ role: "user", content: "a b c d" }];
    const [cut] = (await call("/v1/chat/completions", { messages, max_completion_tokens: 3, max_tokens: 1 })) as [
      { choices: Array<{ message: { content: string }; finish_reason: string }> },
    ];
    expect(cut.choices[0]).toMatchObject({ message: { content: "d c b" }, finish_reason: "length" });
    const words = Array.from({ length: 30 }, (_, i) => `t${i}`).join(" ");
    const [done] = (await call("/v1/completions", { model: MODEL, prompt: [words] })) as [
      { object: string; choices: Array<{ text: string }>; usage: unknown },
    ];
    expect(done.object).toBe("text_completion");
    expect(done.choices[0]!.text.split(" ")).toHaveLength(16);
    expect(done.usage).toEqual({ prompt_tokens: 30, completion_tokens: 16, total_tokens: 46 });
  });

  it("streams a chat as SSE text: role, one chunk per token, the finish, usage when asked, then [DONE]", async () => {
    const body = {
      model: MODEL,
      messages: [{ role: "user", content: "x y" }],
      stream: true,
      stream_options: { include_usage: true },
    };
    const pieces = await call("/v1/chat/completions", body);
    expect(pieces.every((p) => typeof p === "string")).toBe(true);
    const [role, first, second, finish, usage, done] = events(pieces);
    expect(role).toMatchObject({
      object: "chat.completion.chunk",
      choices: [{ delta: { role: "assistant", content: "" } }],
    });
    expect(first.choices[0].delta).toEqual({ content: "y" });
    expect(second.choices[0].delta).toEqual({ content: " x" });
    expect(finish.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    expect(usage).toMatchObject({ choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } });
    expect(done).toBe("[DONE]");
  });

  it("streams completions token by token", async () => {
    const texts = events(await call("/v1/completions", { prompt: "p q r", max_tokens: 2, stream: true }));
    expect(texts.slice(0, -1).map((e) => e.choices[0].text)).toEqual(["r", " q", ""]);
    expect(texts.at(-2).choices[0].finish_reason).toBe("length");
    expect(texts.at(-1)).toBe("[DONE]");
  });

  it("answers an unknown model with the OpenAI-style 404 object, bad fields and routes with a 400 one", async () => {
    expect(
      await call("/v1/chat/completions", { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
    ).toEqual([
      { error: { message: "The model `gpt-4o` does not exist.", type: "NotFoundError", param: "model", code: 404 } },
    ]);
    const [bad] = (await call("/v1/chat/completions", { messages: [{ role: "user" }], max_tokens: 0 })) as [
      { error: { code: number; param: string; message: string } },
    ];
    expect(bad.error).toMatchObject({ code: 400, param: "max_tokens" });
    const [noMessages] = (await call("/v1/chat/completions", { model: MODEL })) as [{ error: { param: string } }];
    expect(noMessages.error.param).toBe("messages");
    const [route] = (await call("/v1/embeddings", { model: MODEL, input: "x" })) as [{ error: { code: number } }];
    expect(route.error.code).toBe(400);
  });
});

describe("the emulated vLLM worker's ordinary jobs", () => {
  it("answers a prompt in the worker's batch shape, max_tokens 16 by default", async () => {
    expect(await run({ prompt: "one two three" })).toEqual([
      { choices: [{ tokens: ["three two one"] }], usage: { input: 3, output: 3 } },
    ]);
    const long = Array.from({ length: 20 }, (_, i) => `w${i}`).join(" ");
    const [batch] = (await run({ prompt: long })) as [{ usage: { output: number } }];
    expect(batch.usage.output).toBe(16);
  });

  it("answers messages with sampling_params, one batch per token when streaming", async () => {
    const input = {
      messages: [{ role: "user", content: "a b c" }],
      sampling_params: { max_tokens: 2, n: 2 },
      stream: true,
    };
    expect(await run(input)).toEqual([
      { choices: [{ tokens: ["c"] }, { tokens: ["c"] }], usage: { input: 3, output: 2 } },
      { choices: [{ tokens: [" b"] }, { tokens: [" b"] }], usage: { input: 3, output: 4 } },
    ]);
  });

  it("fails a job without prompt or messages, or with a bad field, naming it", async () => {
    await expect(run({ text: "hi" })).rejects.toThrow(/input.prompt or input.messages/);
    await expect(run({ prompt: "hi", sampling_params: { max_tokens: -1 } })).rejects.toThrow(
      /input.sampling_params.max_tokens must be a whole number of at least 1, got -1/,
    );
    await expect(run({ prompt: 42 })).rejects.toThrow(/input.prompt must be a string/);
  });
});

import OpenAI, { RateLimitError } from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { AbortError, RunpodClient } from "../../../sdk";
import { callPacer } from "../../../sdk/jobs/endpoint-pacers";
import { createEndpoint, eventually, KEY, useTestEmulator } from "../emulator/helpers";

// The typed client's side of the two routes: the OpenAI base URL and paced fetch, and /requests.
const ctx = useTestEmulator({}, "manual");
let client: RunpodClient | undefined;
afterEach(async () => client?.close());

function clientOf(): RunpodClient {
  client = new RunpodClient({ apiKey: KEY, apiUrl: ctx.emu.apiUrl, queueUrl: ctx.emu.queueUrl });
  return client;
}

describe("client.jobs(id) and the OpenAI-compatible routes", () => {
  it("gives the endpoint's OpenAI base URL", async () => {
    await ctx.start();
    expect(clientOf().jobs("abc 1").openAiBaseUrl).toBe(`${ctx.emu.queueUrl}/abc%201/openai/v1`);
  });

  it("hands the openai package a fetch paced to /openai/*, which hears of each 429", async () => {
    // At this scale the emulator allows 10 calls per 10 s; the client's pacer starts at the table's 2000.
    await ctx.start({ rateLimits: { multiplier: 0.005, requestsPerWorker: 1 } });
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    const jobs = clientOf().jobs(ep);
    const openai = new OpenAI({ apiKey: KEY, baseURL: jobs.openAiBaseUrl, fetch: jobs.openAiFetch(), maxRetries: 0 });
    const pacer = callPacer(client!.transport, ep, "openai");
    for (let i = 0; i < 10; i++) await openai.models.list().withResponse();
    const streamed = await ctx.api.post(`/v2/${ep}/openai/v1/chat/completions`, { stream: true }); // the 11th, not through the client
    expect(streamed.status).toBe(429);
    await expect(openai.models.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(pacer.counts).toEqual({ sent: 11, refused: 1 });
  });
});

describe("client.jobs(id).openAiFetch({ limit })", () => {
  it("paces to the limit given (a raised one, as the dynamic rule gives), apart from the table's pacer", async () => {
    await ctx.start();
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    const jobs = clientOf().jobs(ep);
    const raised = { perWindow: 5000, concurrent: 1000 };
    const openai = new OpenAI({
      apiKey: KEY,
      baseURL: jobs.openAiBaseUrl,
      fetch: jobs.openAiFetch({ limit: raised }),
      maxRetries: 0,
    });
    await openai.models.list();
    const pacer = callPacer(client!.transport, ep, "openai", raised);
    expect(pacer.counts).toEqual({ sent: 1, refused: 0 });
    expect(pacer.currentLimit).toBe(5000);
    // The table's pacer of the same endpoint saw nothing: the two are paced apart.
    expect(callPacer(client!.transport, ep, "openai").counts).toEqual({ sent: 0, refused: 0 });
  });

  it("refuses a limit that is not whole numbers of requests, naming the field and the value", async () => {
    await ctx.start();
    const jobs = clientOf().jobs("ep1");
    expect(() => jobs.openAiFetch({ limit: { perWindow: 0 } })).toThrow(/limit\.perWindow.*0|perWindow.*at least 1/);
    expect(() => jobs.openAiFetch({ limit: { concurrent: 2.5 } })).toThrow(/concurrent/);
  });
});

describe("client.jobs(id).openAiFetch() on an emulated vLLM worker", () => {
  it("carries whole answers, streams, errors and aborts as the platform fetch does", async () => {
    await ctx.start();
    const t = await ctx.api.post("/v1/templates", {
      name: "vllm",
      imageName: "runpod/worker-v1-vllm:v2.25.2",
      isServerless: true,
      env: { MODEL_NAME: "m" },
    });
    const ep = await createEndpoint(ctx.api, { templateId: t.body.id });
    const jobs = clientOf().jobs(ep);
    const openai = new OpenAI({ apiKey: KEY, baseURL: jobs.openAiBaseUrl, fetch: jobs.openAiFetch(), maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "a b c" }];
    const whole = await openai.chat.completions.create({ model: "m", messages });
    expect(whole.choices[0]!.message.content).toBe("c b a");
    const stream = await openai.chat.completions.create({ model: "m", messages, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("c b a");
    await expect(openai.chat.completions.create({ model: "other", messages })).rejects.toMatchObject({ status: 404 });
    const gone = new AbortController();
    gone.abort();
    await expect(openai.models.list({ signal: gone.signal })).rejects.toThrow(/abort/i);
    // Three calls went through the pacer; the aborted one never took a permit.
    expect(callPacer(client!.transport, ep, "openai").counts).toEqual({ sent: 3, refused: 0 });
  });
});

describe("client.jobs(id).requests()", () => {
  it("reads the endpoint's recent requests", async () => {
    await ctx.start();
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    await ctx.api.post(`/v2/${ep}/runsync`, { input: { n: 1 } });
    const { requests } = await clientOf().jobs(ep).requests();
    expect(requests).toEqual([
      expect.objectContaining({ status: "COMPLETED", source: "runsync", createdAt: expect.any(String) }),
    ]);
  });

  it("is paced to 10 per 10 s and 2 at once: a burst of 12 is spread out, and the emulator refuses none", async () => {
    await ctx.start(); // the table's own limits; the manual clock keeps the emulator's window from moving
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    const jobs = clientOf().jobs(ep);
    const stop = new AbortController();
    let answered = 0;
    const calls = Array.from({ length: 12 }, () =>
      jobs.requests({ signal: stop.signal }).then(
        () => answered++,
        (e: unknown) => e,
      ),
    );
    // Unpaced, all 12 would be sent now: 10 answered and 2 refused (the window cannot move). Paced,
    // an idle account spends its whole window at once (up to 10, 2 at a time) and the other 2 wait
    // for the window to move, which the manual clock never does.
    await eventually(() => expect(answered).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 1000));
    expect(answered).toBeLessThanOrEqual(10);
    expect((await ctx.api.get("/_emulator/stats")).body.rateLimited).toBe(0);
    stop.abort();
    const results = await Promise.all(calls);
    expect(results.filter((r) => r instanceof AbortError)).toHaveLength(12 - answered);
    expect(callPacer(client!.transport, ep, "requests").counts).toEqual({ sent: answered, refused: 0 });
  });
});

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import OpenAI, { APIError, InternalServerError, NotFoundError } from "openai";
import { afterAll, describe, expect, it } from "vitest";
import { createEndpoint, eventually, KEY, untilJobs, useTestEmulator } from "./helpers";

// The handler file docs/emulator.md shows, loaded with --handlers beside a few that fail.
const FIXTURE = path.join(__dirname, "fixtures", "handlers", "tiny-llm.mjs");
const dir = mkdtempSync(path.join(tmpdir(), "emulator-openai-"));
copyFileSync(FIXTURE, path.join(dir, "tiny-llm.mjs"));
writeFileSync(path.join(dir, "broken.mjs"), `export default () => { throw new Error("out of memory, as asked"); };\n`);
writeFileSync(
  path.join(dir, "half.mjs"),
  `export async function* handler() { yield { choices: [{ index: 0, delta: { content: "so far" } }] }; throw new Error("lost the GPU"); }\n`,
);
writeFileSync(
  path.join(dir, "slow.mjs"),
  `export default async ({ sleep }) => { await sleep(60_000); return { choices: [] }; };\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = useTestEmulator({ handlersDir: dir }, "file");
const { api } = ctx;

const openAiOn = (id: string) =>
  new OpenAI({ apiKey: KEY, baseURL: `${ctx.emu.url}/v2/${id}/openai/v1`, maxRetries: 0 });

/** A v1 template running `image`, with `env`, and an endpoint linked to it. */
async function endpointOf(image: string, env: Record<string, string> = {}, fields: Record<string, unknown> = {}) {
  const t = await api.post("/v1/templates", {
    name: `t-${image}-${Math.random()}`,
    imageName: image,
    isServerless: true,
    env,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  return {
    templateId: t.body.id as string,
    endpointId: await createEndpoint(api, { templateId: t.body.id, ...fields }),
  };
}

const chat = (content: string) => ({ model: "tiny-1", messages: [{ role: "user" as const, content }] });

describe("a handler of your own answering openai_route jobs", () => {
  it("is the file docs/emulator.md shows", () => {
    expect(readFileSync(path.join(__dirname, "../../../docs/emulator.md"), "utf8")).toContain(
      readFileSync(FIXTURE, "utf8"),
    );
  });

  it("sees its worker's env, the template's as it is when each job starts", async () => {
    const { templateId, endpointId } = await endpointOf("ghcr.io/acme/tiny-llm:1", { MODEL_NAME: "tiny-1" });
    const openai = openAiOn(endpointId);
    expect((await openai.models.list()).data.map((m) => m.id)).toEqual(["tiny-1"]);
    expect((await openai.chat.completions.create(chat("hi there"))).choices[0]!.message.content).toBe("HI THERE");
    await api.patch(`/v1/templates/${templateId}`, { env: { MODEL_NAME: "tiny-2" } });
    expect((await openai.models.list()).data.map((m) => m.id)).toEqual(["tiny-2"]);
    // Ordinary jobs still run on the same worker.
    const job = await api.post(`/v2/${endpointId}/runsync`, { input: { prompt: "plain" } });
    expect(job.body).toMatchObject({ status: "COMPLETED", output: [{ text: "PLAIN" }] });
    // An error object sets the status.
    await expect(openai.embeddings.create({ model: "tiny-2", input: "x" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("streams each chunk as the handler yields it", async () => {
    const { endpointId } = await endpointOf("ghcr.io/acme/tiny-llm:1", { MODEL_NAME: "tiny-1", DELAY_MS: "1000" });
    const stream = await openAiOn(endpointId).chat.completions.create({ ...chat("one two three"), stream: true });
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).value.choices[0].delta.content).toBe("ONE");
    // The next word waits for 1 s on the emulator clock, which stands still until the test moves it.
    const pending = chunks.next();
    const early = await Promise.race([pending, new Promise((r) => setTimeout(() => r("nothing yet"), 100))]);
    expect(early).toBe("nothing yet");
    await ctx.clock.advance(1000);
    expect((await pending).value.choices[0].delta.content).toBe(" TWO");
    await ctx.clock.advance(1000);
    expect((await chunks.next()).value.choices[0].delta.content).toBe(" THREE");
    expect((await chunks.next()).done).toBe(true);
  });

  it("gives a GET the body {} and a POST its body as openai_input (the echo handler answers its input)", async () => {
    const ep = await createEndpoint(api, { templateId: "echo" });
    expect((await api.get(`/v2/${ep}/openai/v1/models?limit=3`)).body).toEqual({
      openai_route: "/v1/models",
      openai_input: {},
    });
    const posted = await api.post(`/v2/${ep}/openai/v1/responses`, { model: "m", input: "hi" });
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ openai_route: "/v1/responses", openai_input: { model: "m", input: "hi" } });
  });
});

describe("when the job does not complete", () => {
  it("answers a failed handler with a 500 OpenAI-style error, streamed or not, and counts it failed", async () => {
    const { endpointId } = await endpointOf("ghcr.io/acme/broken:1");
    for (const stream of [false, true]) {
      const error = await openAiOn(endpointId)
        .chat.completions.create({ ...chat("x"), stream })
        .catch((e) => e);
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error.status).toBe(500);
      expect(error.error).toMatchObject({ type: "InternalServerError", code: 500 });
      expect(error.error.message).toContain("out of memory, as asked");
    }
    await untilJobs(api, endpointId, { failed: 2 });
  });

  it("ends a stream whose handler fails midway with an error event the client throws", async () => {
    const { endpointId } = await endpointOf("ghcr.io/acme/half:1");
    const stream = await openAiOn(endpointId).chat.completions.create({ ...chat("x"), stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]!.delta.content ?? "");
    })().catch((e) => e);
    expect(seen).toEqual(["so far"]);
    expect(error).toBeInstanceOf(APIError);
    expect(error.message).toContain("lost the GPU");
  });

  it("answers a job past its execution timeout with a 504", async () => {
    const { endpointId } = await endpointOf("ghcr.io/acme/slow:1", {}, { executionTimeoutMs: 5_000 });
    const call = openAiOn(endpointId)
      .chat.completions.create(chat("x"))
      .catch((e) => e);
    await untilJobs(api, endpointId, { inProgress: 1 });
    await ctx.clock.advance(5_000);
    const error = await call;
    expect(error.status).toBe(504);
    expect(error.error).toMatchObject({ type: "TimeoutError", code: 504 });
    expect(error.error.message).toContain("execution timeout of 5000 ms");
  });

  it("cancels the job of a client that goes away before the answer", async () => {
    const { endpointId } = await endpointOf("ghcr.io/acme/slow:1");
    const gone = new AbortController();
    const call = openAiOn(endpointId)
      .chat.completions.create(chat("x"), { signal: gone.signal })
      .catch((e) => e);
    await untilJobs(api, endpointId, { inProgress: 1 });
    gone.abort();
    await call;
    await eventually(async () => {
      const recent = (await api.get(`/v2/${endpointId}/requests`)).body.requests;
      expect(recent[0]).toMatchObject({ status: "CANCELLED", source: "openai" });
    });
  });

  it("cancels the job of a client that leaves a stream midway, and goes on serving", async () => {
    const { endpointId } = await endpointOf("ghcr.io/acme/tiny-llm:1", { MODEL_NAME: "tiny-1", DELAY_MS: "1000" });
    const gone = new AbortController();
    const stream = await openAiOn(endpointId).chat.completions.create(
      { ...chat("one two three"), stream: true },
      { signal: gone.signal },
    );
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).value.choices[0].delta.content).toBe("ONE");
    gone.abort();
    await chunks.next().catch(() => undefined);
    await eventually(async () => {
      const recent = (await api.get(`/v2/${endpointId}/requests`)).body.requests;
      expect(recent[0]).toMatchObject({ status: "CANCELLED", source: "openai" });
    });
    await ctx.clock.advance(2000);
    expect((await openAiOn(endpointId).chat.completions.create(chat("still here"))).choices[0]!.message.content).toBe(
      "STILL HERE",
    );
  });

  it("answers on a load-balancing endpoint with a 404 saying where its workers answer", async () => {
    const lb = await api.post("/v2/serverless", {
      name: "balanced",
      type: "LOAD_BALANCER",
      image: "ghcr.io/acme/tiny-llm:1",
      gpu: { pools: ["ADA_24"] },
      scaling: { type: "REQUEST_COUNT", requestCount: 1 },
      workers: { min: 0, max: 1 },
    });
    expect(lb.status, JSON.stringify(lb.body)).toBe(201);
    const error = await openAiOn(lb.body.id)
      .models.list()
      .catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const res = await api.get(`/v2/${lb.body.id}/openai/v1/models`);
    expect(res.body.message).toContain(`${ctx.emu.url}/lb/${lb.body.id}/`);
  });
});

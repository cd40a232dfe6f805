import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestValidationError, RunpodClient } from "../../../sdk";
import { KEY, useTestEmulator } from "../emulator/helpers";

/**
 * `client.pinnedFetch()` against the emulator's load-balancing endpoints: a session pinned to the
 * worker that answered first, for plain HTTP and for the `openai` package.
 */
const dir = mkdtempSync(path.join(tmpdir(), "pinned-fetch-"));
// Answers what pin it was sent, as plain JSON or as an OpenAI chat completion.
writeFileSync(
  path.join(dir, "pin-echo.mjs"),
  `export default async ({ input }) => {
    const pin = input.headers["x-runpod-worker-id"] ?? null;
    if (input.path !== "/v1/chat/completions") return { path: input.path, pin };
    return {
      id: "chatcmpl-pin", object: "chat.completion", created: 0, model: input.body.model,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: String(pin) } }],
    };
  };\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = useTestEmulator({ handlersDir: dir }, "file");
let client: RunpodClient;
let lb: { id: string; base: string };
beforeAll(async () => {
  client = new RunpodClient({ apiKey: KEY, apiUrl: ctx.emu.apiUrl, queueUrl: ctx.emu.queueUrl });
  const res = await ctx.api.post("/v2/serverless", {
    name: "sessions",
    type: "LOAD_BALANCER",
    image: "ghcr.io/acme/pin-echo:1",
    gpu: { pools: ["ADA_24"] },
    scaling: { type: "REQUEST_COUNT", requestCount: 1 },
    workers: { min: 2, max: 3, idleTimeout: 5 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  lb = { id: res.body.id, base: res.body.requestUrls.base };
});
afterAll(() => client.close());

describe("client.pinnedFetch()", () => {
  it("pins plain HTTP to the worker of the first answer, adding the API key on the platform's addresses", async () => {
    const session = client.pinnedFetch();
    expect(session.workerId).toBeUndefined();
    const first = await session(`${lb.base}/a`);
    expect(first.status).toBe(200);
    const worker = first.headers.get("x-runpod-worker-id")!;
    expect(await first.json()).toEqual({ path: "/a", pin: null });
    expect(session.workerId).toBe(worker);
    for (let i = 0; i < 5; i++) {
      const res = await session(`${lb.base}/b`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      });
      expect(res.headers.get("x-runpod-worker-id")).toBe(worker);
      expect(await res.json()).toEqual({ path: "/b", pin: worker });
    }
    session.unpin();
    expect((await (await session(`${lb.base}/c`)).json()).pin).toBeNull();
  });

  it("works as the openai package's fetch: every call of the session on one worker", async () => {
    const session = client.pinnedFetch({ mode: "strict" });
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${lb.base}/v1`, fetch: session, maxRetries: 0 });
    const ask = async () =>
      (await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] })).choices[0]!
        .message.content;
    expect(await ask()).toBe("null");
    const worker = session.workerId!;
    for (let i = 0; i < 3; i++) expect(await ask()).toBe(`strict ${worker}`);
  });

  it("drops a strict pin whose worker is gone (404 affinity_worker_gone), and pins anew", async () => {
    const session = client.pinnedFetch({ mode: "strict-resume", worker: "neverseen0001" });
    const gone = await session(`${lb.base}/x`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: "affinity_worker_gone" });
    expect(session.refusal).toBe("worker_gone");
    expect(session.workerId).toBeUndefined();
    const again = await session(`${lb.base}/y`);
    expect(again.status).toBe(200);
    expect(session.refusal).toBeUndefined();
    expect(session.workerId).toBe(again.headers.get("x-runpod-worker-id"));
  });

  it("sends the API key only to the platform's own hosts", async () => {
    const seen: Headers[] = [];
    const capture: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers));
      return new Response("{}", { headers: { "x-runpod-worker-id": "w1" } });
    };
    const session = client.pinnedFetch({ fetch: capture });
    await session("https://elsewhere.example.com/v1/models");
    await session(`${lb.base}/z`);
    expect(seen[0]!.get("authorization")).toBeNull();
    expect(seen[1]!.get("authorization")).toBe(`Bearer ${KEY}`);
    expect(seen[1]!.get("x-runpod-worker-id")).toBe("w1");
    // Headers in any form keep their own key; a pin the caller set is replaced by the session's.
    await session(`${lb.base}/h`, {
      headers: new Headers({ Authorization: "Bearer mine", "X-Runpod-Worker-Id": "x" }),
    });
    await session(`${lb.base}/a`, { headers: [["X-Trace", "t1"]] });
    expect(seen[2]!.get("authorization")).toBe("Bearer mine");
    expect(seen[2]!.get("x-runpod-worker-id")).toBe("w1");
    expect(seen[3]!.get("x-trace")).toBe("t1");
    expect(seen[3]!.get("authorization")).toBe(`Bearer ${KEY}`);
  });

  it("refuses a worker id that is not one, and an unknown mode, before any request", () => {
    for (const worker of ["strict abc", "", "a/b", "x".repeat(129)]) {
      const error = (() => {
        try {
          client.pinnedFetch({ worker });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message).toContain(`worker = ${JSON.stringify(worker).slice(0, 40)}`);
    }
    expect(() => client.pinnedFetch({ mode: "sticky" as never })).toThrow('mode = "sticky": must be "soft", "strict"');
  });
});

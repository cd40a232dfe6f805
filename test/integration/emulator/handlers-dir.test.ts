import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { createEndpoint, runJob, useTestEmulator } from "./helpers";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "emulator-handlers-"));
  await writeFile(
    path.join(dir, "upper.mjs"),
    "export default async function ({ id, input }) { return { id, text: String(input.text).toUpperCase() }; }\n",
  );
  await writeFile(
    path.join(dir, "countdown.mjs"),
    `export async function* handler({ input, sleep }) {
      for (let i = input.from; i > 0; i--) { await sleep(1000); yield i; }
    }\n`,
  );
  await writeFile(
    path.join(dir, "summary.mjs"),
    `export async function* handler() { yield "a"; yield "b"; return { done: true }; }\n`,
  );
  await writeFile(
    path.join(dir, "big.mjs"),
    `export async function* handler({ input }) { yield "x".repeat(input.bytes); }\n`,
  );
  await writeFile(
    path.join(dir, "broken.cjs"),
    "module.exports = { handler: async () => { throw new Error('handler exploded'); } };\n",
  );
  await writeFile(
    path.join(dir, "cyclic.mjs"),
    "export default async () => { const o = {}; o.self = o; return o; };\n",
  );
  await writeFile(path.join(dir, "README.txt"), "not a handler\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));
// Registered after the hook that writes the handler files: hooks run in order.
const ctx = useTestEmulator(() => ({ handlersDir: dir }), "file");
const { api } = ctx;

describe("handler files (--handlers DIR)", () => {
  it("adds a template per file next to the built-ins", () => {
    expect(ctx.emu.templates).toEqual([
      "big",
      "broken",
      "countdown",
      "cyclic",
      "echo",
      "fail",
      "sleep",
      "stream",
      "summary",
      "upper",
      "worker-v1-vllm",
    ]);
  });

  it("runs a default-exported async function with the job's id and input", async () => {
    const ep = await createEndpoint(api, { templateId: "upper" });
    const res = await api.post(`/v2/${ep}/runsync`, { input: { text: "shout" } });
    expect(res.body).toMatchObject({ status: "COMPLETED", output: { id: res.body.id, text: "SHOUT" } });
  });

  it("streams the values an async generator yields, and outputs them all at the end", async () => {
    const ep = await createEndpoint(api, { templateId: "countdown" });
    const id = await runJob(api, ep, { input: { from: 3 } });
    await ctx.clock.advance(2000);
    expect((await api.get(`/v2/${ep}/stream/${id}`)).body).toEqual({
      status: "IN_PROGRESS",
      stream: [{ output: 3 }, { output: 2 }],
    });
    await ctx.clock.advance(1000);
    expect((await api.get(`/v2/${ep}/stream/${id}`)).body).toEqual({ status: "COMPLETED", stream: [{ output: 1 }] });
    expect((await api.get(`/v2/${ep}/status/${id}`)).body.output).toEqual([3, 2, 1]);
  });

  it("uses a generator's return value as the final output when it has one", async () => {
    const ep = await createEndpoint(api, { templateId: "summary" });
    const res = await api.post(`/v2/${ep}/runsync`, { input: {} });
    expect(res.body.output).toEqual({ done: true });
  });

  it("splits a streamed output over 1 MB into chunks of at most 1 MB", async () => {
    const ep = await createEndpoint(api, { templateId: "big" });
    const bytes = 2.5 * 1024 * 1024;
    const id = await runJob(api, ep, { input: { bytes } });
    const { stream } = (await api.get(`/v2/${ep}/stream/${id}`)).body as { stream: { output: string }[] };
    expect(stream).toHaveLength(3);
    for (const chunk of stream)
      expect(Buffer.byteLength(JSON.stringify(chunk.output))).toBeLessThanOrEqual(1024 * 1024);
    expect(stream.map((c) => c.output).join("")).toBe("x".repeat(bytes));
  });

  it("fails the job with the error's message when a handler throws (CommonJS module.exports.handler)", async () => {
    const ep = await createEndpoint(api, { templateId: "broken" });
    expect((await api.post(`/v2/${ep}/runsync`, { input: {} })).body).toMatchObject({
      status: "FAILED",
      error: "handler exploded",
    });
  });

  it("fails the job when a handler's output cannot be encoded as JSON", async () => {
    const ep = await createEndpoint(api, { templateId: "cyclic" });
    const res = await api.post(`/v2/${ep}/runsync`, { input: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "FAILED", error: expect.stringContaining("cannot be encoded as JSON") });
  });

  it("refuses to start when a handler file exports no function", async () => {
    const bad = await mkdtemp(path.join(tmpdir(), "emulator-bad-handlers-"));
    try {
      await writeFile(path.join(bad, "nothing.mjs"), "export const answer = 42;\n");
      await expect(startEmulator({ port: 0, handlersDir: bad })).rejects.toThrow(/must export a function/);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});

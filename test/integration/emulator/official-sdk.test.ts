import runpodSdk from "runpod-sdk";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createEndpoint, KEY, useTestEmulator } from "./helpers";

// The SDK binds console.log when it loads and prints every poll; silence it before the import runs.
const restoreLog = vi.hoisted(() => {
  const original = console.log;
  console.log = () => undefined;
  return () => {
    console.log = original;
  };
});

// The SDK polls in real time, so the emulator runs on a fast scaled clock here.
const ctx = useTestEmulator({ timeScale: 100 }, "file");
afterAll(restoreLog);

const sdkEndpoint = (id: string) => {
  const endpoint = runpodSdk(KEY, { baseUrl: ctx.emu.queueUrl }).endpoint(id);
  if (!endpoint) throw new Error("the SDK gave no endpoint");
  return endpoint;
};

describe("the official JavaScript SDK (npm runpod-sdk) works unchanged against the emulator", () => {
  it("runs a job with run() and reads it with status()", async () => {
    const endpoint = sdkEndpoint(await createEndpoint(ctx.api));
    const run = await endpoint.run({ input: { prompt: "hi" } });
    expect(run).toEqual({ id: expect.any(String), status: "IN_QUEUE" });
    const status = await endpoint.status(run.id);
    expect(status).toMatchObject({
      id: run.id,
      status: "COMPLETED",
      output: { prompt: "hi" },
      completed: true,
      succeeded: true,
    });
  });

  it("waits for a slow job with runSync() (runsync, then status-sync polling)", async () => {
    const endpoint = sdkEndpoint(await createEndpoint(ctx.api, { templateId: "sleep" }));
    const result = await endpoint.runSync({ input: { seconds: 150 } }, 5000);
    expect(result).toMatchObject({ status: "COMPLETED", output: { slept: 150 }, completed: true, succeeded: true });
  });

  it("streams chunks with stream() until the job ends", async () => {
    const endpoint = sdkEndpoint(await createEndpoint(ctx.api, { templateId: "stream" }));
    const { id } = await endpoint.run({ input: { chunks: 5, delayMs: 200 } });
    const texts: string[] = [];
    for await (const chunk of endpoint.stream(id)) texts.push(chunk.output.text[0]);
    expect(texts).toEqual(["chunk 1 of 5", "chunk 2 of 5", "chunk 3 of 5", "chunk 4 of 5", "chunk 5 of 5"]);
  });

  it("cancels, reads health and purges the queue", async () => {
    const endpoint = sdkEndpoint(await createEndpoint(ctx.api, { workersMax: 0 }));
    const a = await endpoint.run({ input: {} });
    await endpoint.run({ input: {} });
    expect(await endpoint.cancel(a.id)).toEqual({ id: a.id, status: "CANCELLED" });
    const health = await endpoint.health();
    expect(health.jobs).toEqual({ completed: 0, failed: 0, inProgress: 0, inQueue: 1, retried: 0 });
    expect(health.workers).toMatchObject({ idle: 0, running: 0 });
    expect(await endpoint.purgeQueue()).toEqual({ removed: 1, status: "completed" });
  });
});

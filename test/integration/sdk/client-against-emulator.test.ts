import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { BadRequestError, NotFoundError, RequestValidationError, RunpodClient } from "../../../sdk";

/** Every client operation against the real emulator over HTTP (time sped up 1000x). */
let emulator: RunningEmulator;
let client: RunpodClient;
let endpointId: string;
let streamId: string;
let sleepId: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: ["sdk-it"], rateLimits: false, timeScale: 1000, workerBootMs: 0 });
  client = new RunpodClient({ apiKey: "sdk-it", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
  endpointId = (await client.endpoints.create({ templateId: "echo", workersMax: 2 })).id;
  streamId = (await client.endpoints.create({ templateId: "stream", workersMax: 1 })).id;
  sleepId = (await client.endpoints.create({ templateId: "sleep", workersMax: 0 })).id;
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe("the client against the emulator", () => {
  it("manages a network volume through its whole life", async () => {
    const vol = await client.networkVolumes.create({ name: "models", size: 10, dataCenterId: "EU-RO-1" });
    expect(await client.networkVolumes.get(vol.id)).toEqual(vol);
    expect((await client.networkVolumes.list()).map((v) => v.id)).toContain(vol.id);
    expect(await client.networkVolumes.update(vol.id, { size: 20 })).toMatchObject({ size: 20 });
    expect(await client.v1.networkVolumes.update(vol.id, { name: "weights" }, { method: "POST" })).toMatchObject({
      name: "weights",
      size: 20,
    });
    await expect(client.networkVolumes.update(vol.id, { size: 20 })).rejects.toMatchObject({ code: "invalid_request" });
    await client.networkVolumes.delete(vol.id);
    await expect(client.networkVolumes.get(vol.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("sends a GPU type this release does not know, and the platform's refusal names it", async () => {
    const err = await client.endpoints.create({ templateId: "echo", gpuTypeIds: ["NVIDIA B300"] }).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.platformMessage).toBe('gpuTypeIds.0 = "NVIDIA B300": is not a GPU type the platform knows');
  });

  it("refuses before sending only what can never be right, naming field, value and rule", async () => {
    const err = await client.endpoints
      .create({ templateId: "echo", gpuTypeIds: ["NVIDIA L4", ""], allowedCudaVersions: ["12"] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(err.problems).toEqual([
      { field: "gpuTypeIds.1", value: '""', rule: "must not be empty" },
      {
        field: "allowedCudaVersions.0",
        value: '"12"',
        rule: 'must be a CUDA version written major.minor, such as "12.4"',
      },
    ]);
  });

  it("manages an endpoint with every create field", async () => {
    const ep = await client.endpoints.create({
      templateId: "echo",
      name: "all-fields",
      computeType: "GPU",
      gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
      gpuCount: 2,
      workersMin: 0,
      workersMax: 3,
      idleTimeout: 30,
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      executionTimeoutMs: 60_000,
      flashboot: true,
      dataCenterIds: ["EU-RO-1", "US-TX-3"],
      allowedCudaVersions: ["12.4"],
      minCudaVersion: "12.1",
      vcpuCount: 4,
    });
    expect(ep).toMatchObject({ name: "all-fields", gpuCount: 2, scalerType: "REQUEST_COUNT", idleTimeout: 30 });
    expect(await client.endpoints.get(ep.id, { includeTemplate: true })).toMatchObject({ id: ep.id });
    expect(await client.endpoints.update(ep.id, { workersMax: 5 })).toMatchObject({ workersMax: 5 });
    expect(await client.endpoints.update(ep.id, { name: "renamed" }, { method: "POST" })).toMatchObject({
      name: "renamed",
    });
    expect((await client.endpoints.list()).map((e) => e.id)).toContain(ep.id);
    await client.endpoints.delete(ep.id);
    await expect(client.endpoints.get(ep.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("runs a job asynchronously, reads its status and waits for completion", async () => {
    const jobs = client.jobs(endpointId);
    const ack = await jobs.run({ input: { hello: "world" } });
    expect(ack.status).toBe("IN_QUEUE");
    const done = await jobs.waitForCompletion(ack.id, { timeoutMs: 10_000, initialIntervalMs: 10 });
    expect(done).toMatchObject({ id: ack.id, status: "COMPLETED", output: { hello: "world" } });
    expect(typeof done.delayTime).toBe("number");
    expect(typeof done.executionTime).toBe("number");
    expect(await jobs.status(ack.id, { ttl: 60_000 })).toMatchObject({ status: "COMPLETED" });
  });

  it("runs a job synchronously", async () => {
    const record = await client.jobs(endpointId).runSync({ input: { n: 1 } }, { wait: 5_000 });
    expect(record).toMatchObject({ status: "COMPLETED", output: { n: 1 } });
  });

  it("streams every chunk once and ends when the job is done", async () => {
    const jobs = client.jobs(streamId);
    const { id } = await jobs.run({ input: { chunks: 4 } });
    const chunks = [];
    for await (const chunk of jobs.stream<{ text: string[] }>(id, { initialIntervalMs: 10, timeoutMs: 10_000 })) {
      chunks.push(chunk);
    }
    expect(chunks).toHaveLength(4);
    expect(chunks.every((c) => Array.isArray(c.output.text))).toBe(true);
  });

  it("cancels a queued job, purges the queue and reports health", async () => {
    const jobs = client.jobs(sleepId); // no workers: jobs stay queued
    const a = await jobs.run({ input: { seconds: 1 } });
    await jobs.run({ input: { seconds: 1 } });
    await jobs.run({ input: { seconds: 1 } });
    expect(await jobs.cancel(a.id)).toEqual({ id: a.id, status: "CANCELLED" });
    expect((await jobs.health()).jobs.inQueue).toBe(2);
    expect(await jobs.purgeQueue()).toEqual({ removed: 2, status: "completed" });
    expect(await jobs.health()).toMatchObject({ jobs: { inQueue: 0 }, workers: { running: 0 } });
  });

  it("retries a failed job under the same id", async () => {
    const fail = await client.endpoints.create({ templateId: "fail", workersMax: 1 });
    const jobs = client.jobs(fail.id);
    const { id } = await jobs.run({ input: { message: "nope" } });
    const failed = await jobs.waitForCompletion(id, { initialIntervalMs: 10, timeoutMs: 10_000 });
    expect(failed).toMatchObject({ status: "FAILED", error: "nope" });
    expect(await jobs.retry(id)).toEqual({ id, status: "IN_QUEUE" });
    await expect(client.jobs(endpointId).retry(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("generates an image with the pre-deployed model", async () => {
    const record = await client
      .jobs("sdxl-turbo")
      .runSync<{ prompt: string; width: number; height: number }, { image_url: string }>({
        input: { prompt: "a red fox", width: 64, height: 64 },
      });
    expect(record.status).toBe("COMPLETED");
    const png = await fetch(record.output?.image_url ?? "");
    expect(png.headers.get("content-type")).toBe("image/png");
  });

  it("reports an unknown job as not found", async () => {
    await expect(client.jobs(endpointId).status("no-such-job")).rejects.toBeInstanceOf(NotFoundError);
  });
});

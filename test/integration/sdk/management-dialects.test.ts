import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import {
  NotFoundError,
  RequestValidationError,
  RunpodClient,
  UnsupportedOperationError,
  type ApiVersion,
} from "../../../sdk";

/**
 * One client, two dialects: the version-neutral operations do the same thing
 * on v1 and on v2 against the emulator over HTTP, on one account, and what only one version has
 * fails on the other before anything is sent.
 */
let emulator: RunningEmulator;
const clients = {} as Record<ApiVersion, RunpodClient>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: ["dialects"], rateLimits: false });
  clients.v1 = new RunpodClient({ apiKey: "dialects", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
  clients.v2 = new RunpodClient({ apiKey: "dialects", apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
});
afterAll(async () => {
  await Promise.all([clients.v1.close(), clients.v2.close()]);
  await emulator.close();
});

const requests = async () => {
  const stats = (await (
    await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: "Bearer dialects" } })
  ).json()) as { requests: { total: number } };
  return stats.requests.total;
};

describe.each(["v1", "v2"] as const)("version-neutral network volumes on %s", (version) => {
  it("creates, reads, lists, renames, grows and deletes with v1's field names", async () => {
    const client = clients[version];
    expect(client.apiVersion).toBe(version);
    const vol = await client.networkVolumes.create({ name: "models", size: 10, dataCenterId: "EU-RO-1" });
    expect(vol).toMatchObject({ name: "models", size: 10, dataCenterId: "EU-RO-1" });
    expect(await client.networkVolumes.get(vol.id)).toEqual(vol);
    expect((await client.networkVolumes.list()).map((v) => v.id)).toContain(vol.id);
    expect(await client.networkVolumes.update(vol.id, { name: "weights", size: 20 })).toMatchObject({
      name: "weights",
      size: 20,
    });
    const shrink = await client.networkVolumes.update(vol.id, { size: 15 }).catch((e: unknown) => e);
    expect(shrink).toBeInstanceOf(RequestValidationError);
    expect((shrink as Error).message).toMatch(/size = 15: size can only grow/);
    await client.networkVolumes.delete(vol.id);
    await expect(client.networkVolumes.get(vol.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("what only one version has", () => {
  it("reads a volume made through v1 from a v2 client and the other way round, under one id", async () => {
    const made = await clients.v1.networkVolumes.create({ name: "shared", size: 10, dataCenterId: "US-TX-3" });
    expect(await clients.v2.networkVolumes.get(made.id)).toEqual({ ...made, type: "STANDARD" });
    const tiered = await clients.v2.networkVolumes.create({
      name: "fast",
      size: 20,
      dataCenterId: "EU-RO-1",
      type: "HIGH_PERFORMANCE",
    });
    expect(await clients.v1.networkVolumes.get(tiered.id)).toEqual({
      id: tiered.id,
      name: "fast",
      size: 20,
      dataCenterId: "EU-RO-1",
    });
  });

  it("refuses a storage tier on v1 before sending, naming the field and both versions", async () => {
    const before = await requests();
    const err = await clients.v1.networkVolumes
      .create({ name: "t", size: 10, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as Error).message).toMatch(/type = "HIGH_PERFORMANCE": storage tiers .* only on management API v2/);
    expect(await requests()).toBe(before);
  });

  it("refuses v2's own operations on a v1 client (and v1's on a v2 client) naming the operation and the version", async () => {
    const before = await requests();
    const onV1 = await clients.v1.v2.networkVolumes.list().catch((e: unknown) => e);
    expect(onV1).toBeInstanceOf(UnsupportedOperationError);
    expect((onV1 as Error).message).toMatch(/^v2\.networkVolumes\.list is not available on management API v1/);
    const onV2 = await clients.v2.v1.networkVolumes.list().catch((e: unknown) => e);
    expect(onV2).toMatchObject({ code: "unsupported_operation", operation: "v1.networkVolumes.list", version: "v2" });
    expect(await requests()).toBe(before);
  });

  it("maps a v2 problem answer onto the same error classes, keeping title, detail and the errors list", async () => {
    const err = await clients.v2.v2.networkVolumes.get("missing").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, title: "Not Found", platformMessage: "network volume missing not found" });
    const vol = await clients.v2.v2.networkVolumes.create({ name: "p", size: 30, dataCenter: "EU-RO-1" });
    // Sent past the client's own check to see the platform's answer: a raw PATCH that shrinks.
    const shrink = await clients.v2.transport
      .send({
        method: "PATCH",
        base: emulator.apiUrlV2,
        path: `/network-volumes/${vol.id}`,
        body: JSON.stringify({ size: 10 }),
        idempotent: true,
      })
      .catch((e: unknown) => e);
    expect(shrink).toMatchObject({ code: "bad_request", status: 400, title: "Bad Request" });
    expect((shrink as { errors: string[] }).errors).toEqual([
      "$.size: must be at least the current size of 30 GB; storage cannot be reduced (got 10)",
    ]);
  });
});

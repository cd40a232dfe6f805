import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  RunpodClient,
  TimeoutError,
} from "../../../sdk";
import { scriptedClients } from "./scripted-server";

const KEY = "sk-transport-test-secret";
const volume = { id: "vol1", name: "models", size: 10, dataCenterId: "EU-RO-1" };
const setup = scriptedClients(KEY, { retryBaseDelayMs: 5, retryMaxDelayMs: 50 });

describe("the transport", () => {
  it("sends bearer auth and JSON on every request", async () => {
    const { server, client } = await setup([{ status: 200, body: volume }]);
    await client.networkVolumes.create({ name: "models", size: 10, dataCenterId: "EU-RO-1" });
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.seen[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.seen[0]?.body ?? "")).toEqual({ name: "models", size: 10, dataCenterId: "EU-RO-1" });
  });

  it("draws the backoff jitter from the `random` option, so a seeded generator replays the same delays", async () => {
    const draws: number[] = [];
    const random = () => {
      draws.push(draws.length);
      return 0;
    };
    const { server, client } = await setup([{ status: 503 }, { status: 503 }, { status: 200, body: volume }], {
      random,
    });
    await expect(client.networkVolumes.get("vol1")).resolves.toEqual(volume);
    expect(server.seen).toHaveLength(3);
    expect(draws).toEqual([0, 1]);
  });

  it("reuses one keep-alive connection for sequential requests", async () => {
    const { server, client } = await setup([
      { status: 200, body: volume },
      { status: 200, body: volume },
      { status: 200, body: volume },
    ]);
    for (let i = 0; i < 3; i++) await client.networkVolumes.get("vol1");
    expect(server.seen.map((s) => s.headers.connection)).toEqual(["keep-alive", "keep-alive", "keep-alive"]);
  });

  it("retries a 429 after the Retry-After delay, even for a create", async () => {
    const { server, client } = await setup([
      { status: 429, body: { error: "slow down" }, headers: { "retry-after": "0.05" } },
      { status: 200, body: volume },
    ]);
    const started = Date.now();
    await expect(client.networkVolumes.create({ name: "models", size: 10, dataCenterId: "EU-RO-1" })).resolves.toEqual(
      volume,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(server.seen).toHaveLength(2);
  });

  it("retries a 429 without Retry-After with its own backoff", async () => {
    const { server, client } = await setup([{ status: 429 }, { status: 429 }, { status: 200, body: volume }]);
    await expect(client.networkVolumes.get("vol1")).resolves.toEqual(volume);
    expect(server.seen).toHaveLength(3);
  });

  it("gives up on repeated 429s at the attempt cap with a RateLimitError", async () => {
    const { server, client } = await setup([{ status: 429 }, { status: 429 }, { status: 429 }], { maxAttempts: 3 });
    const err = await client.networkVolumes.get("vol1").catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.code).toBe("rate_limited");
    expect(server.seen).toHaveLength(3);
  });

  it("retries a 500 then succeeds for a read", async () => {
    const { server, client } = await setup([
      { status: 500, body: { message: "boom" } },
      { status: 200, body: volume },
    ]);
    await expect(client.networkVolumes.get("vol1")).resolves.toEqual(volume);
    expect(server.seen).toHaveLength(2);
  });

  it("does not repeat a create that got a 500, since it may have taken effect", async () => {
    const { server, client } = await setup([
      { status: 500, body: { message: "boom" } },
      { status: 200, body: volume },
    ]);
    const err = await client.networkVolumes.create({ name: "m", size: 1, dataCenterId: "EU-RO-1" }).catch((e) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.platformMessage).toBe("boom");
    expect(server.seen).toHaveLength(1);
  });

  it("retries a read whose connection was dropped", async () => {
    const { server, client } = await setup([{ drop: true }, { status: 200, body: volume }]);
    await expect(client.networkVolumes.get("vol1")).resolves.toEqual(volume);
    expect(server.seen).toHaveLength(2);
  });

  it("does not repeat a job submission whose connection was dropped after sending", async () => {
    const { server, client } = await setup([{ drop: true }, { status: 200, body: { id: "j", status: "IN_QUEUE" } }]);
    const err = await client
      .jobs("ep")
      .run({ input: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.maybeDelivered).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it("times out a slow response and retries an idempotent read", async () => {
    const { server, client } = await setup(
      [
        { delayMs: 3_000, status: 200, body: volume },
        { status: 200, body: volume },
      ],
      { timeoutMs: 1_000 },
    );
    await expect(client.networkVolumes.get("vol1")).resolves.toEqual(volume);
    expect(server.seen).toHaveLength(2);
  });

  it("reports a timeout with the method, path and limit when retries run out", async () => {
    const { client } = await setup([{ delayMs: 3_000, status: 200, body: volume }], {
      timeoutMs: 1_000,
      maxAttempts: 1,
    });
    const err = await client.networkVolumes.get("vol1").catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toBe("GET /v1/networkvolumes/vol1: no answer within 1000 ms");
  });

  it("stops at once when the caller aborts", async () => {
    const { client } = await setup([{ delayMs: 1_000, status: 200, body: volume }]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const err = await client.networkVolumes.get("vol1", { signal: ac.signal }).catch((e) => e);
    expect(err.code).toBe("aborted");
  });

  it("rejects an invalid response body with a ResponseValidationError naming the field", async () => {
    const { client } = await setup([
      { status: 200, body: { id: "vol1", name: "m", size: "big", dataCenterId: "EU-RO-1" } },
    ]);
    const err = await client.networkVolumes.get("vol1").catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.message).toContain('size = "big"');
  });

  it("rejects a body that is not JSON", async () => {
    const { client } = await setup([{ status: 200, raw: "<html>" }]);
    await expect(client.networkVolumes.get("vol1")).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it("tolerates unknown extra fields in responses", async () => {
    const { client } = await setup([{ status: 200, body: { ...volume, newField: 1 } }]);
    await expect(client.networkVolumes.get("vol1")).resolves.toEqual(volume);
  });

  it("keeps the platform's message and request id and never the key in errors", async () => {
    const { client } = await setup([{ status: 401, body: { message: "bad key" }, headers: { "x-request-id": "r-9" } }]);
    const err = await client.networkVolumes.get("vol1").catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.requestId).toBe("r-9");
    expect(err.platformMessage).toBe("bad key");
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(KEY);
  });

  it("accepts 200 or 201 on create and 200 or 204 on delete", async () => {
    const { client } = await setup([{ status: 201, body: volume }, { status: 204 }, { status: 200, body: {} }]);
    await expect(client.networkVolumes.create({ name: "m", size: 1, dataCenterId: "EU-RO-1" })).resolves.toEqual(
      volume,
    );
    await expect(client.networkVolumes.delete("vol1")).resolves.toBeUndefined();
    await expect(client.endpoints.delete("ep1")).resolves.toBeUndefined();
  });

  it("refuses a shrinking volume before sending the update", async () => {
    const { server, client } = await setup([{ status: 200, body: volume }]);
    const err = await client.networkVolumes.update("vol1", { size: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(err.message).toBe(
      "update network volume vol1: size = 5: size can only grow: the volume has 10 GB and 5 GB was requested; network volumes cannot shrink",
    );
    expect(server.seen.map((s) => s.method)).toEqual(["GET"]);
  });

  it("sends updates with PATCH or with the POST .../update synonym", async () => {
    const { server, client } = await setup([
      { status: 200, body: { ...volume, size: 20 } },
      { status: 200, body: { ...volume, size: 30 } },
    ]);
    await client.networkVolumes.update("vol1", { size: 20 }, { currentSize: 10 });
    await client.networkVolumes.update("vol1", { size: 30 }, { currentSize: 20, method: "POST" });
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      "PATCH /v1/networkvolumes/vol1",
      "POST /v1/networkvolumes/vol1/update",
    ]);
  });

  it("refuses out-of-range job options and oversized payloads before sending anything", async () => {
    const { server, client } = await setup([]);
    const jobs = client.jobs("ep");
    await expect(jobs.runSync({ input: {} }, { wait: 999 })).rejects.toThrow(
      "wait = 999: wait must be at least 1000 ms",
    );
    await expect(jobs.run({ input: {}, policy: { ttl: 9_999 } })).rejects.toThrow(
      "policy.ttl = 9999: ttl must be at least 10000 ms",
    );
    await expect(jobs.run({ input: {}, policy: { executionTimeout: 604_800_001 } })).rejects.toThrow(
      "policy.executionTimeout = 604800001: executionTimeout must be at most 604800000 ms",
    );
    await expect(jobs.run({ input: { blob: "x".repeat(10 * 1024 * 1024) } })).rejects.toThrow(
      /input = 104857\d\d bytes: the request body must be at most 10485760 bytes \(10 MB\)/,
    );
    expect(server.seen).toHaveLength(0);
  });

  it("fails at first use, not construction, without an API key", async () => {
    const c = new RunpodClient({ apiKey: "", apiUrl: "http://127.0.0.1:9/v1" });
    const saved = process.env.RUNPOD_API_KEY;
    delete process.env.RUNPOD_API_KEY;
    try {
      await expect(c.networkVolumes.list()).rejects.toThrow(/No RunPod API key/);
    } finally {
      if (saved !== undefined) process.env.RUNPOD_API_KEY = saved;
      await c.close();
    }
  });
});

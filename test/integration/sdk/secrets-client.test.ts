import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { APIError, NotFoundError, RequestValidationError, RunpodClient, UnsupportedOperationError } from "../../../sdk";
import { secretReference } from "../../../sdk/schemas/v2";

/**
 * `client.v2.account.secrets` against the emulator over HTTP: the five operations in v2's shapes,
 * the rules checked before sending (nothing reaches the emulator), the value never in an answer or
 * an error, and v1's refusal before any request.
 */
let emulator: RunningEmulator;
let client: RunpodClient;
const VALUE = "sk-proj-clientTestValue0123456789ABCDEF";

const requestsSent = async () => {
  const res = await fetch(`${emulator.url}/_emulator/stats`, { headers: { authorization: "Bearer secrets-key" } });
  return ((await res.json()) as { requests: { total: number } }).requests.total;
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKeys: ["secrets-key"], rateLimits: false, managementQuota: false });
  client = new RunpodClient({ apiKey: "secrets-key", apiUrl: emulator.apiUrlV2, queueUrl: emulator.queueUrl });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe("client.v2.account.secrets", () => {
  it("creates, gets, lists, rotates, describes and deletes a secret; no answer holds the value", async () => {
    const created = await client.v2.account.secrets.create({ name: "openai-key", value: VALUE, description: "CI" });
    expect(created).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{12}$/),
      name: "openai-key",
      createdAt: expect.any(String),
      description: "CI",
      valueLastUpdatedAt: created.createdAt,
    });
    expect(await client.v2.account.secrets.get(created.id)).toEqual(created);
    expect(await client.v2.account.secrets.list()).toEqual([created]);
    const rotated = await client.v2.account.secrets.update(created.id, { value: `${VALUE}-2` });
    expect(rotated).toEqual({ ...created, valueLastUpdatedAt: expect.any(String) });
    const described = await client.v2.account.secrets.update(created.id, { description: "" });
    expect(described.description).toBeNull();
    expect(JSON.stringify([created, rotated, described])).not.toContain(VALUE);
    expect(secretReference(created.name)).toBe("{{ RUNPOD_SECRET_openai-key }}");
    await client.v2.account.secrets.delete(created.id);
    await expect(client.v2.account.secrets.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("checks the rules before sending, naming the field and never repeating the value", async () => {
    const before = await requestsSent();
    const refused = client.v2.account.secrets.create({ name: "RunPod_token", value: VALUE });
    await expect(refused).rejects.toBeInstanceOf(RequestValidationError);
    await expect(refused).rejects.toThrow(
      'create secret: name = "RunPod_token": must not begin with RUNPOD, in any case: the platform reserves that prefix',
    );
    const empty = client.v2.account.secrets.create({ name: "ok", value: "" });
    await expect(empty).rejects.toThrow("create secret: value = [secret]: must not be empty");
    const rename = client.v2.account.secrets.update("abc", { name: "x" } as never);
    await expect(rename).rejects.toThrow('update secret: name = "x": cannot change: a secret\'s name is immutable');
    expect(await requestsSent()).toBe(before);
  });

  it("turns the emulator's 409 for a taken name into an APIError naming it", async () => {
    await client.v2.account.secrets.create({ name: "dup", value: VALUE });
    const again = client.v2.account.secrets.create({ name: "dup", value: VALUE });
    await expect(again).rejects.toBeInstanceOf(APIError);
    await expect(again).rejects.toMatchObject({ status: 409 });
    await expect(again).rejects.toThrow(/is already the name of secret [a-z0-9]{12} in this account/);
    await again.catch((err: Error) => expect(err.message).not.toContain(VALUE));
  });
});

describe("secrets on management API v1", () => {
  it("refuses each of the five operations before any request, naming the operation and v1", async () => {
    const v1 = new RunpodClient({ apiKey: "secrets-key", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
    const before = await requestsSent();
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ["list", () => v1.v2.account.secrets.list()],
        // Invalid on purpose: the version is refused before the input is judged.
        ["create", () => v1.v2.account.secrets.create({ name: "RUNPOD", value: "" })],
        ["get", () => v1.v2.account.secrets.get("x")],
        ["update", () => v1.v2.account.secrets.update("x", { value: VALUE })],
        ["delete", () => v1.v2.account.secrets.delete("x")],
      ];
      for (const [operation, call] of calls) {
        const err = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, operation).toBeInstanceOf(UnsupportedOperationError);
        expect((err as Error).message).toBe(
          `v2.account.secrets.${operation} is not available on management API v1 (only on v2); this client talks v1 because its apiUrl ends in /v1: management API v1 has no account secrets; point apiUrl at a /v2 URL to manage them`,
        );
      }
      expect(await requestsSent()).toBe(before);
    } finally {
      await v1.close();
    }
  });
});

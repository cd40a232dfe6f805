import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { SecretSchema } from "../../../sdk/schemas/v2";
import { clientFor, KEY, startTestEmulator, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

const SECRETS = "/v2/account/secrets";
/** A value no answer, error, state or log may hold. */
const VALUE = "hf_emulatorSecretValue0123456789abcdef";

/** Creates a secret and checks the answer is a secret record (the zod wire schema) without the value. */
async function create(body: Record<string, unknown>) {
  const res = await api.post(SECRETS, { value: VALUE, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(SecretSchema.strict().parse(res.body)).toEqual(res.body);
  return res.body as { id: string; name: string; createdAt: string; valueLastUpdatedAt: string };
}

describe("management v2 account secrets (/v2/account/secrets)", () => {
  it("creates, reads, lists, updates the description, rotates and deletes; no answer holds the value", async () => {
    const s = await create({ name: "hf-token", description: "Hugging Face read token" });
    expect(s).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{12}$/),
      name: "hf-token",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      description: "Hugging Face read token",
      valueLastUpdatedAt: s.createdAt,
    });
    expect((await api.get(`${SECRETS}/${s.id}`)).body).toEqual(s);
    expect((await api.get(SECRETS)).body).toEqual({ secrets: [s], pagination: { hasNextPage: false } });

    await ctx.clock.advance(60_000);
    const described = await api.patch(`${SECRETS}/${s.id}`, { description: "read-only token" });
    expect(described.body).toEqual({ ...s, description: "read-only token" });
    const rotated = await api.patch(`${SECRETS}/${s.id}`, { value: `${VALUE}-2` });
    expect(rotated.status).toBe(200);
    expect(rotated.body.valueLastUpdatedAt > s.valueLastUpdatedAt).toBe(true);
    expect(rotated.body.createdAt).toBe(s.createdAt);
    const cleared = await api.patch(`${SECRETS}/${s.id}`, { description: "" });
    expect(cleared.body.description).toBeNull();

    // The other account sees none of it.
    expect((await other.get(SECRETS)).body).toEqual({ secrets: [], pagination: { hasNextPage: false } });
    expect((await other.get(`${SECRETS}/${s.id}`)).status).toBe(404);

    const state = await api.get("/_emulator/state");
    expect(state.body.secrets).toEqual([cleared.body]);
    expect(JSON.stringify(state.body)).not.toContain(VALUE);

    expect((await api.del(`${SECRETS}/${s.id}`)).status).toBe(204);
    const gone = await api.get(`${SECRETS}/${s.id}`);
    expect(gone.status).toBe(404);
    expect(gone.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(gone.body).toMatchObject({ status: 404, title: "Not Found", detail: `secret ${s.id} not found` });
  });

  it("refuses names off the pattern, too long, or with the reserved RUNPOD prefix in any case (400), and a taken name (409)", async () => {
    const refusal = async (name: unknown) => {
      const res = await api.post(SECRETS, { name, value: VALUE });
      expect(res.status, String(name)).toBe(400);
      expect(JSON.stringify(res.body)).not.toContain(VALUE);
      return res.body.errors as string[];
    };
    const pattern = "must start with a letter or _ and hold only letters, digits and _ . - /";
    expect((await refusal("1password"))[0]).toContain(`$.name: ${pattern}`);
    expect((await refusal("has space"))[0]).toContain(pattern);
    expect(await refusal("x".repeat(192))).toEqual([
      `$.name: must be at most 191 characters (got "${"x".repeat(76)}...)`,
    ]);
    for (const reserved of ["RUNPOD_TOKEN", "runpod-token", "RunPodKey"]) {
      expect(await refusal(reserved)).toEqual([
        `$.name: must not begin with RUNPOD, in any case: the platform reserves that prefix (got ${JSON.stringify(reserved)})`,
      ]);
    }
    await create({ name: "_under.score/slash-ok" });
    await create({ name: "y".repeat(191) });
    await create({ name: "taken" });
    const again = await api.post(SECRETS, { name: "taken", value: "other" });
    expect(again.status).toBe(409);
    expect(again.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(again.body).toMatchObject({ title: "Conflict", detail: "a secret with this name already exists" });
    expect(again.body.errors[0]).toMatch(/^\$\.name: is already the name of secret [a-z0-9]{12} in this account/);
  });

  // The byte just under the bound is the schema's unit test; over HTTP, one body at the bound.
  it("refuses a value of 16 MiB of UTF-8 and a description over 65,535 bytes, never repeating the value", async () => {
    const below = 16 * 1024 * 1024;
    const tooBig = await api.post(SECRETS, { name: "too-big", value: "a".repeat(below) });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors).toEqual([
      "$.value: must be smaller than 16 MiB of UTF-8 (strictly under 16777216 bytes); it has 16.00 MiB (got [secret])",
    ]);
    const empty = await api.post(SECRETS, { name: "empty", value: "" });
    expect(empty.body.errors).toEqual(["$.value: must not be empty (got [secret])"]);
    // 21,846 euro signs are 65,538 bytes (3 each) in fewer than 65,535 characters: bytes count.
    const description = await api.post(SECRETS, { name: "d", value: VALUE, description: "€".repeat(21_846) });
    expect(description.status).toBe(400);
    expect(description.body.errors[0]).toMatch(/^\$\.description: must be at most 65535 bytes of UTF-8; it has 65538/);
    await create({ name: "d", description: "€".repeat(21_845) });
  });

  it("refuses an update of the name, an empty update and an unknown id", async () => {
    const s = await create({ name: "immutable" });
    const renamed = await api.patch(`${SECRETS}/${s.id}`, { name: "other" });
    expect(renamed.status).toBe(400);
    expect(renamed.body.errors[0]).toContain("$.name: cannot change: a secret's name is immutable");
    const nothing = await api.patch(`${SECRETS}/${s.id}`, {});
    expect(nothing.body.errors).toEqual(["$: must hold value (a rotation), description, or both (got {})"]);
    expect((await api.patch(`${SECRETS}/nope`, { value: "x" })).status).toBe(404);
    expect((await api.del(`${SECRETS}/nope`)).status).toBe(404);
  });
});

describe("secrets at rest and under the management quota", () => {
  it("keeps values sealed in the state file, with the key beside it, and opens them after a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secrets-state-"));
    const stateFile = path.join(dir, "state.json");
    try {
      const first = await startTestEmulator({ stateFile });
      const made = await first.api.post(SECRETS, { name: "db-password", value: VALUE });
      await first.emu.close();
      const text = fs.readFileSync(stateFile, "utf8");
      expect(text).not.toContain(VALUE);
      expect(text).toContain('"sealedValue": "v1.');
      expect(fs.statSync(`${stateFile}.key`).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(`${stateFile}.key`, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);

      const second = await startTestEmulator({ stateFile });
      expect((await second.api.get(`${SECRETS}/${made.body.id}`)).body).toEqual(made.body);
      await second.emu.close();

      // The state file alone opens nothing: with another key the emulator refuses to start.
      fs.writeFileSync(`${stateFile}.key`, `${"0".repeat(64)}\n`);
      await expect(startTestEmulator({ stateFile })).rejects.toThrow(
        `its value does not open with the key in ${stateFile}.key (it was sealed under another key)`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("charges the secrets routes to the management quota, like every v2 management path", async () => {
    const limited = await startTestEmulator({ managementQuota: [{ name: "minute", seconds: 60, quota: 2 }] });
    try {
      const client = clientFor(limited.emu, KEY);
      expect((await client.get(SECRETS)).headers.ratelimit).toBe('"minute";r=1;t=60');
      await client.post(SECRETS, { name: "q", value: VALUE });
      const refused = await client.get(SECRETS);
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toBe("rate limit exceeded for the minute window (2 requests)");
    } finally {
      await limited.emu.close();
    }
  });
});

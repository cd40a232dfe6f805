import { scryptSync, timingSafeEqual } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { clientFor, KEY, OTHER_KEY } from "./helpers";

let dir: string;

/** Whether `password` is the one a stored `scrypt$<salt>$<hash>` was made from (node's scrypt, as the emulator hashes). */
async function passwordMatches(password: string, passwordHash: string): Promise<boolean> {
  const [, salt, hash] = passwordHash.split("$");
  const expected = Buffer.from(hash ?? "", "base64");
  const actual = scryptSync(password, Buffer.from(salt ?? "", "base64"), expected.length || 32);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "emulator-state-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("--state-file persistence", () => {
  it("keeps volumes and endpoints of every account across a restart", async () => {
    const stateFile = path.join(dir, "nested", "state.json");
    const first = await startEmulator({ port: 0, apiKeys: [KEY, OTHER_KEY], stateFile });
    const api = clientFor(first, KEY);
    const volume = (await api.post("/v1/networkvolumes", { name: "kept", size: 10, dataCenterId: "EU-RO-1" })).body;
    const endpoint = (
      await api.post("/v1/endpoints", { templateId: "echo", workersMin: 1, networkVolumeId: volume.id })
    ).body;
    await api.patch(`/v1/networkvolumes/${volume.id}`, { size: 20 });
    const theirs = (await clientFor(first, OTHER_KEY).post("/v1/endpoints", { templateId: "sleep" })).body;
    const gone = (await api.post("/v1/endpoints", { templateId: "echo" })).body;
    await api.del(`/v1/endpoints/${gone.id}`);
    await first.close();

    const text = await readFile(stateFile, "utf8");
    expect(text).not.toContain(KEY);
    expect((await readdir(path.dirname(stateFile))).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    const second = await startEmulator({ port: 0, apiKeys: [KEY, OTHER_KEY], stateFile, workerBootMs: 0 });
    try {
      const again = clientFor(second, KEY);
      expect((await again.get(`/v1/networkvolumes/${volume.id}`)).body).toEqual({ ...volume, size: 20 });
      expect((await again.get(`/v1/endpoints/${endpoint.id}`)).body).toEqual(endpoint);
      expect((await again.get(`/v1/endpoints/${gone.id}`)).status).toBe(404);
      expect((await again.get(`/v1/endpoints/${theirs.id}`)).status).toBe(404);
      expect((await clientFor(second, OTHER_KEY).get(`/v1/endpoints/${theirs.id}`)).body).toEqual(theirs);
      expect((await again.get(`/v2/${endpoint.id}/health`)).body.workers).toEqual({
        idle: 1,
        running: 0,
        initializing: 0,
        ready: 1,
        throttled: 0,
        unhealthy: 0,
      });
      expect((await again.post(`/v2/${endpoint.id}/runsync`, { input: { after: "restart" } })).body.output).toEqual({
        after: "restart",
      });
    } finally {
      await second.close();
    }
  });

  it("keeps templates and registry auths across a restart, the password only as a hash", async () => {
    const stateFile = path.join(dir, "templates.json");
    const password = "ghp_PERSISTED0PASSWORD0not0in0file";
    const first = await startEmulator({ port: 0, apiKeys: [KEY, OTHER_KEY], stateFile });
    const api = clientFor(first, KEY);
    const auth = (await api.post("/v1/containerregistryauth", { name: "ghcr", username: "robot", password })).body;
    const template = (
      await api.post("/v1/templates", {
        name: "worker",
        imageName: "ghcr.io/acme/echo:1.0",
        isServerless: true,
        containerRegistryAuthId: auth.id,
        env: { MODE: "fast" },
      })
    ).body;
    const endpoint = (await api.post("/v1/endpoints", { templateId: template.id })).body;
    const theirs = (await clientFor(first, OTHER_KEY).post("/v1/templates", { name: "t", imageName: "x" })).body;
    await first.close();

    const text = await readFile(stateFile, "utf8");
    expect(text).not.toContain(password);
    const saved = JSON.parse(text).accounts;
    const [stored] = Object.values(saved).flatMap(
      (a) => (a as { containerRegistryAuths: unknown[] }).containerRegistryAuths,
    );
    expect(stored).toEqual({
      id: auth.id,
      name: "ghcr",
      username: "robot",
      passwordHash: expect.stringMatching(/^scrypt\$/),
    });
    expect(await passwordMatches(password, (stored as { passwordHash: string }).passwordHash)).toBe(true);
    expect(await passwordMatches("another password", (stored as { passwordHash: string }).passwordHash)).toBe(false);

    const second = await startEmulator({ port: 0, apiKeys: [KEY, OTHER_KEY], stateFile, workerBootMs: 0 });
    try {
      const again = clientFor(second, KEY);
      expect((await again.get(`/v1/containerregistryauth/${auth.id}`)).body).toEqual(auth);
      expect((await again.get(`/v1/templates/${template.id}`)).body).toEqual(template);
      expect((await again.get(`/v1/templates/${theirs.id}`)).status).toBe(404);
      expect((await clientFor(second, OTHER_KEY).get(`/v1/templates/${theirs.id}`)).body).toEqual(theirs);
      expect((await again.post(`/v2/${endpoint.id}/runsync`, { input: { after: "restart" } })).body.output).toEqual({
        after: "restart",
      });
      // The rules hold over reloaded state: the template is in use, the auth is in use, the names are taken.
      expect((await again.del(`/v1/templates/${template.id}`)).status).toBe(400);
      expect((await again.del(`/v1/containerregistryauth/${auth.id}`)).status).toBe(400);
      expect((await again.post("/v1/templates", { name: "worker", imageName: "x" })).status).toBe(400);
    } finally {
      await second.close();
    }
  });

  it("loads a state file written before templates and registry auths existed", async () => {
    const stateFile = path.join(dir, "before-templates.json");
    const first = await startEmulator({ port: 0, apiKeys: [KEY], stateFile });
    const volume = (
      await clientFor(first, KEY).post("/v1/networkvolumes", { name: "old", size: 1, dataCenterId: "EU-RO-1" })
    ).body;
    await first.close();
    const data = JSON.parse(await readFile(stateFile, "utf8"));
    for (const account of Object.values(data.accounts) as Record<string, unknown>[]) {
      delete account.templates;
      delete account.containerRegistryAuths;
    }
    await writeFile(stateFile, JSON.stringify(data));
    const second = await startEmulator({ port: 0, apiKeys: [KEY], stateFile });
    try {
      const again = clientFor(second, KEY);
      expect((await again.get("/v1/networkvolumes")).body).toEqual([volume]);
      expect((await again.get("/v1/templates")).body).toEqual([]);
      expect((await again.get("/v1/containerregistryauth")).body).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it("keeps the state of a key that is not configured on this run, for a later run", async () => {
    const stateFile = path.join(dir, "dormant.json");
    const first = await startEmulator({ port: 0, apiKeys: [KEY, OTHER_KEY], stateFile });
    const theirs = (
      await clientFor(first, OTHER_KEY).post("/v1/networkvolumes", { name: "x", size: 1, dataCenterId: "EU-RO-1" })
    ).body;
    await first.close();
    const onlyMine = await startEmulator({ port: 0, apiKeys: [KEY], stateFile });
    await clientFor(onlyMine, KEY).post("/v1/networkvolumes", { name: "y", size: 1, dataCenterId: "EU-RO-1" });
    await onlyMine.close();
    const third = await startEmulator({ port: 0, apiKeys: [OTHER_KEY], stateFile });
    try {
      expect((await clientFor(third, OTHER_KEY).get("/v1/networkvolumes")).body).toEqual([theirs]);
    } finally {
      await third.close();
    }
  });

  it("refuses to start on a corrupt state file rather than losing it", async () => {
    const stateFile = path.join(dir, "corrupt.json");
    await writeFile(stateFile, "{ not json");
    await expect(startEmulator({ port: 0, stateFile })).rejects.toThrow(/not valid JSON/);
    await writeFile(stateFile, JSON.stringify({ version: 99 }));
    await expect(startEmulator({ port: 0, stateFile })).rejects.toThrow(/unexpected shape/);
    expect(await readFile(stateFile, "utf8")).toBe(JSON.stringify({ version: 99 }));
  });
});

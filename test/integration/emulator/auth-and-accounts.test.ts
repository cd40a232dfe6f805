import { request } from "undici";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator";
import { clientFor, createEndpoint, runJob, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

describe("authentication (docs/platform.md 'Addresses and authentication')", () => {
  const routes: [string, string][] = [
    ["GET", "/v1/networkvolumes"],
    ["POST", "/v1/endpoints"],
    ["GET", "/v2/someendpoint/health"],
    ["POST", "/v2/someendpoint/run"],
    ["GET", "/v2/someendpoint/status/job"],
    ["GET", "/_emulator/state"],
    ["GET", "/_emulator/stats"],
    ["PUT", "/_emulator/faults"],
    ["GET", "/no/such/route"],
  ];

  it.each(routes)("answers 401 to %s %s without a key", async (method, path) => {
    const res = await clientFor(ctx.emu, null).send(method, path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "unauthorized", message: expect.stringContaining("Authorization: Bearer") });
  });

  it.each(routes)("answers 401 to %s %s with a wrong key", async (method, path) => {
    const res = await clientFor(ctx.emu, "not-a-configured-key").send(method, path);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
    expect(JSON.stringify(res.body)).not.toContain("not-a-configured-key");
  });

  it.each([["Basic abc"], ["Bearer"], ["Bearer    "], ["test-key-alpha-0001"]])(
    "answers 401 to the malformed header %j",
    async (header) => {
      const res = await request(`${ctx.emu.url}/v1/networkvolumes`, { headers: { authorization: header } });
      expect(res.statusCode).toBe(401);
      await res.body.dump();
    },
  );

  it("accepts the bearer scheme in any letter case", async () => {
    const res = await request(`${ctx.emu.url}/v1/networkvolumes`, {
      headers: { authorization: "bearer test-key-alpha-0001" },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });

  it("accepts the documented default key emulator-key when no key is configured", async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      expect((await clientFor(emu, "emulator-key").get("/v1/endpoints")).status).toBe(200);
      expect((await clientFor(emu, "other").get("/v1/endpoints")).status).toBe(401);
    } finally {
      await emu.close();
    }
  });
});

describe("accounts: each key is its own account", () => {
  it("hides one account's volumes from another: list, get, update and delete answer as if absent", async () => {
    const v = (await api.post("/v1/networkvolumes", { name: "mine", size: 5, dataCenterId: "EU-RO-1" })).body;
    expect((await other.get("/v1/networkvolumes")).body).toEqual([]);
    expect((await other.get(`/v1/networkvolumes/${v.id}`)).status).toBe(404);
    expect((await other.patch(`/v1/networkvolumes/${v.id}`, { size: 50 })).status).toBe(404);
    expect((await other.post(`/v1/networkvolumes/${v.id}/update`, { size: 50 })).status).toBe(404);
    expect((await other.del(`/v1/networkvolumes/${v.id}`)).status).toBe(404);
    expect((await api.get(`/v1/networkvolumes/${v.id}`)).body).toEqual(v);
  });

  it("hides one account's endpoints and jobs from another", async () => {
    const ep = await createEndpoint(api, { workersMax: 0 });
    const job = await runJob(api, ep, { input: {} });
    expect((await other.get("/v1/endpoints")).body).toEqual([]);
    expect((await other.get(`/v1/endpoints/${ep}`)).status).toBe(404);
    expect((await other.patch(`/v1/endpoints/${ep}`, { name: "stolen" })).status).toBe(404);
    expect((await other.del(`/v1/endpoints/${ep}`)).status).toBe(404);
    expect((await other.post(`/v2/${ep}/run`, { input: {} })).status).toBe(404);
    expect((await other.get(`/v2/${ep}/status/${job}`)).status).toBe(404);
    expect((await other.post(`/v2/${ep}/cancel/${job}`)).status).toBe(404);
    expect((await other.post(`/v2/${ep}/purge-queue`)).status).toBe(404);
    expect((await other.get(`/v2/${ep}/health`)).status).toBe(404);
    expect((await api.get(`/v2/${ep}/status/${job}`)).body.status).toBe("IN_QUEUE");
  });

  it("does not let an account attach another account's volume", async () => {
    const v = (await api.post("/v1/networkvolumes", { name: "mine", size: 5, dataCenterId: "EU-RO-1" })).body;
    const res = await other.post("/v1/endpoints", { templateId: "echo", networkVolumeId: v.id });
    expect(res.status).toBe(400);
    expect(res.body.problems[0].field).toBe("networkVolumeId");
  });

  it("keeps the pre-deployed model's jobs per account", async () => {
    const { id } = (await api.post("/v2/sdxl-turbo/run", { input: { prompt: "a cat", width: 64, height: 64 } })).body;
    expect((await other.get(`/v2/sdxl-turbo/status/${id}`)).status).toBe(404);
    expect((await api.get(`/v2/sdxl-turbo/status/${id}`)).status).toBe(200);
  });

  it("gives each account its own userId, and never the key", async () => {
    const a = (await api.get("/_emulator/state")).body.userId;
    const b = (await other.get("/_emulator/state")).body.userId;
    expect(a).not.toBe(b);
    expect(a).not.toContain("test-key");
  });
});

describe("request ids", () => {
  it("puts an x-request-id header on every answer, including errors", async () => {
    const answers = [
      await api.get("/v1/networkvolumes"),
      await clientFor(ctx.emu, null).get("/v1/networkvolumes"),
      await api.get("/v1/networkvolumes/nope"),
      await api.post("/v1/networkvolumes", { size: "big" }),
      await api.get("/nothing/here"),
    ];
    const ids = answers.map((a) => a.headers["x-request-id"]);
    for (const id of ids) expect(id).toEqual(expect.any(String));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

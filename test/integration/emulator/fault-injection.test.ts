import { request } from "undici";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../../emulator/cli-args";
import { createEndpoint, KEY, runJob, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "manual");
const { api } = ctx;
const start = ctx.start;

const faultStats = async () => (await api.get("/_emulator/stats")).body.faults;

describe("fault injection (/_emulator/faults)", () => {
  it("answers 500 on the matching route only, and counts it", async () => {
    await start();
    const ep = await createEndpoint(api);
    const id = await runJob(api, ep, { input: {} });
    const put = await api.put("/_emulator/faults", { rules: [{ route: "GET /v2/*/status", errorRate: 1 }] });
    expect(put.status).toBe(200);
    expect(put.body.rules[0]).toMatchObject({ route: "GET /v2/*/status", errorRate: 1, dropRate: 0 });
    const res = await api.get(`/v2/${ep}/status/${id}`);
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("injected_fault");
    expect((await api.get(`/v2/${ep}/health`)).status).toBe(200);
    expect((await api.post(`/v2/${ep}/run`, { input: {} })).status).toBe(200);
    expect(await faultStats()).toMatchObject({ error: 1, drop: 0, rateLimit: 0 });
  });

  it("answers 429 with Retry-After for the 429 rate", async () => {
    await start();
    await api.put("/_emulator/faults", { rules: [{ route: "/v1", rateLimitRate: 1 }] });
    const res = await api.get("/v1/endpoints");
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("1");
    expect((await faultStats()).rateLimit).toBe(1);
  });

  it("drops the connection without an answer", async () => {
    await start();
    await api.put("/_emulator/faults", { rules: [{ route: "POST /v1/networkvolumes", dropRate: 1 }] });
    const outcome = await request(`${ctx.emu.url}/v1/networkvolumes`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "v", size: 1, dataCenterId: "EU-RO-1" }),
    }).then(
      () => "answered",
      (e: Error) => e.message,
    );
    expect(outcome).not.toBe("answered");
    expect((await faultStats()).drop).toBe(1);
    expect((await api.get("/v1/networkvolumes")).body).toEqual([]);
  });

  it("handles a request and keeps its effect, then drops the connection instead of answering (lost response)", async () => {
    await start();
    const put = await api.put("/_emulator/faults", {
      rules: [{ route: "POST /v1/networkvolumes", lostResponseRate: 1 }],
    });
    expect(put.body.rules[0]).toMatchObject({ lostResponseRate: 1, dropRate: 0 });
    const outcome = await request(`${ctx.emu.url}/v1/networkvolumes`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "lost-answer", size: 1, dataCenterId: "EU-RO-1" }),
    }).then(
      () => "answered",
      (e: Error) => e.message,
    );
    expect(outcome).not.toBe("answered");
    expect(await faultStats()).toMatchObject({ lostResponse: 1, drop: 0, error: 0 });
    // The volume was created although the client never heard of it, and other routes still answer.
    const volumes = (await api.get("/v1/networkvolumes")).body;
    expect(volumes).toEqual([{ id: expect.any(String), name: "lost-answer", size: 1, dataCenterId: "EU-RO-1" }]);
    // A refused request loses its answer too, and still changes nothing.
    const refused = await api.post("/v1/networkvolumes", { size: -1 }).then(
      () => "answered",
      () => "lost",
    );
    expect(refused).toBe("lost");
    expect((await api.get("/v1/networkvolumes")).body).toEqual(volumes);
    expect((await faultStats()).lostResponse).toBe(2);
  });

  it("takes the lost-response rate from the CLI flag --fault-lost-response-rate", async () => {
    const { options } = parseCliArgs(["--fault-route", "DELETE /v1", "--fault-lost-response-rate", "1"]);
    expect(options.faults).toEqual([expect.objectContaining({ route: "DELETE /v1", lostResponseRate: 1 })]);
    expect(() => parseCliArgs(["--fault-lost-response-rate", "1.5"])).toThrow(
      "--fault-lost-response-rate 1.5: must be between 0 and 1",
    );
    await start(options);
    const ep = await createEndpoint(api);
    await expect(api.del(`/v1/endpoints/${ep}`)).rejects.toThrow();
    expect((await api.get("/v1/endpoints")).body).toEqual([]);
    expect((await faultStats()).lostResponse).toBe(1);
  });

  it("adds latency in real time", async () => {
    await start();
    await api.put("/_emulator/faults", { rules: [{ latencyMs: 120, jitterMs: 30 }] });
    const t0 = performance.now();
    expect((await api.get("/v1/endpoints")).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(115);
    expect((await faultStats()).latency).toBe(1);
  });

  it("shows, replaces and clears the rules; admin routes are never faulted", async () => {
    await start();
    await api.put("/_emulator/faults", { rules: [{ route: "*", errorRate: 1 }] });
    expect((await api.get("/v1/endpoints")).status).toBe(500);
    expect((await api.get("/_emulator/faults")).body.rules).toHaveLength(1);
    expect((await api.del("/_emulator/faults")).status).toBe(204);
    expect((await api.get("/_emulator/faults")).body).toEqual({ rules: [] });
    expect((await api.get("/v1/endpoints")).status).toBe(200);
  });

  // A backtracking matcher would take ages on this pattern (150 wildcards against 150 characters):
  // the test's own timeout is the bound, not a wall-clock assertion.
  it("matches route patterns without backtracking, even with many wildcards", async () => {
    await start();
    const pattern = `/${"*".repeat(150)}x`;
    await api.put("/_emulator/faults", { rules: [{ route: pattern, errorRate: 1 }] });
    expect((await api.get(`/v1/${"a".repeat(150)}`)).status).toBe(404);
    expect((await api.get("/v1x")).status).toBe(500);
  });

  it("keeps fault rules per account", async () => {
    await start();
    await api.put("/_emulator/faults", { rules: [{ errorRate: 1 }] });
    expect((await api.get("/v1/endpoints")).status).toBe(500);
    expect((await ctx.other.get("/v1/endpoints")).status).toBe(200);
  });

  it.each([
    [{ rules: [{ errorRate: 2 }] }, "rules.0.errorRate"],
    [{ rules: [{ latencyMs: -1 }] }, "rules.0.latencyMs"],
    [{ rules: "all" }, "rules"],
  ])("refuses the fault configuration %j with 400 naming %s", async (body, field) => {
    await start();
    const res = await api.put("/_emulator/faults", body);
    expect(res.status).toBe(400);
    expect(res.body.problems[0].field).toBe(field);
  });

  it("starts with the rules given as options (the CLI's --fault-* flags)", async () => {
    await start({ faults: [{ route: "GET /v1/networkvolumes", errorRate: 1 }] });
    expect((await api.get("/v1/networkvolumes")).status).toBe(500);
    expect((await api.get("/v1/endpoints")).status).toBe(200);
  });
});

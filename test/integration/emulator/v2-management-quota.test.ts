import { parseList } from "structured-headers";
import { describe, expect, it } from "vitest";
import { parseQuotaSpec } from "../../../emulator";
import { type Answer, KEY, useTestEmulator } from "./helpers";
import { v2HeaderProblems, v2ResponseProblems } from "./openapi-v2";

// Management API v2's per-user quota (docs/platform.md "Rate limits per user"). Manual clock: windows move only when a test
// advances time, so every `t` below is exact.
const ctx = useTestEmulator({ managementQuota: true }, "manual");
const { api } = ctx;

const RATE_HEADERS = ["RateLimit", "RateLimit-Policy"];

/** A structured-field list header as `{ name: { param: value } }`, read with a real RFC 9651 parser. */
function members(answer: Answer, header: string): Record<string, Record<string, unknown>> {
  const raw = answer.headers[header];
  if (typeof raw !== "string") throw new Error(`no ${header} header (status ${answer.status})`);
  return Object.fromEntries(
    parseList(raw).map(([value, params]) => {
      if (typeof value !== "string") throw new Error(`${header}: member ${String(value)} is not a string`);
      return [value, Object.fromEntries(params)];
    }),
  );
}

async function createVolume() {
  const res = await api.post("/v2/network-volumes", { name: "data", size: 20, dataCenter: "EU-RO-1" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

describe("management API v2's quota: headers", () => {
  it("sends the OpenAPI's example policy and what is left in each window on every authenticated v2 answer", async () => {
    await ctx.start();
    const first = await api.get("/v2/network-volumes");
    expect(first.status).toBe(200);
    expect(members(first, "ratelimit-policy")).toEqual({
      minute: { q: 60, w: 60 },
      hour: { q: 3000, w: 3600 },
      day: { q: 50000, w: 86400 },
    });
    // Platform time 0: every window has just begun, so each ends in its whole length.
    expect(members(first, "ratelimit")).toEqual({
      minute: { r: 59, t: 60 },
      hour: { r: 2999, t: 3600 },
      day: { r: 49999, t: 86400 },
    });
    expect(v2HeaderProblems("GET", "/v2/network-volumes", 200, first.headers, RATE_HEADERS)).toEqual([]);

    await ctx.clock.advance(12_500);
    const second = await api.get("/v2/catalog/gpus");
    // 47.5 s left in the minute: t is rounded up, so waiting t seconds always reaches the next window.
    expect(members(second, "ratelimit")).toEqual({
      minute: { r: 58, t: 48 },
      hour: { r: 2998, t: 3588 },
      day: { r: 49998, t: 86388 },
    });
    expect(v2HeaderProblems("GET", "/v2/catalog/gpus", 200, second.headers, RATE_HEADERS)).toEqual([]);
  });

  it("sends them on error answers too (400, 404, an unknown v2 route, an injected fault), each counted", async () => {
    await ctx.start();
    const id = await createVolume();
    const answers: [Answer, string, string, number][] = [
      [await api.get("/v2/network-volumes/nope"), "GET", "/v2/network-volumes/{id}", 404],
      [await api.patch(`/v2/network-volumes/${id}`, { size: 1 }), "PATCH", "/v2/network-volumes/{id}", 400],
      [await api.get("/v2/catalog/gpus?include=nothing"), "GET", "/v2/catalog/gpus", 400],
    ];
    for (const [answer, method, template, status] of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(v2ResponseProblems(method, template, status, answer.body)).toEqual([]);
      expect(v2HeaderProblems(method, template, status, answer.headers, RATE_HEADERS)).toEqual([]);
    }
    // A v2 collection no route serves yet is still a v2 management path: charged, with headers.
    const unknown = await api.get("/v2/account/no-such-thing");
    expect(unknown.status).toBe(404);
    expect(members(unknown, "ratelimit").minute).toEqual({ r: 55, t: 60 });

    await api.put("/_emulator/faults", { rules: [{ route: "GET /v2/network-volumes", errorRate: 1 }] });
    const faulted = await api.get("/v2/network-volumes");
    expect(faulted.status).toBe(500);
    expect(members(faulted, "ratelimit").minute).toEqual({ r: 54, t: 60 });
  });

  it("sends no quota headers on v1, the job routes, the admin routes, or an unauthenticated answer", async () => {
    await ctx.start();
    const v1 = await api.get("/v1/networkvolumes");
    const health = await api.get("/v2/sdxl-turbo/health");
    const stats = await api.get("/_emulator/stats");
    const unauthenticated = await fetch(`${ctx.emu.url}/v2/network-volumes`);
    for (const answer of [v1, health, stats]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.ratelimit).toBeUndefined();
      expect(answer.headers["ratelimit-policy"]).toBeUndefined();
    }
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("ratelimit")).toBeNull();
    // None of them was charged: the first v2 call still finds the whole minute.
    expect(members(await api.get("/v2/network-volumes"), "ratelimit").minute).toEqual({ r: 59, t: 60 });
    expect(ctx.emu.store.accountForKey(KEY)!.stats.managementQuotaRefused).toBe(0);
  });
});

describe("management API v2's quota: refusals", () => {
  it("refuses the call above the quota with a 429 problem and Retry-After, counts it, and does not charge it", async () => {
    const { api: small } = await ctx.start({ managementQuota: parseQuotaSpec("minute=3") });
    for (let i = 0; i < 3; i++) expect((await small.get("/v2/network-volumes")).status).toBe(200);
    await ctx.clock.advance(20_400);
    const refused = await small.get("/v2/network-volumes");
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.body).toEqual({
      title: "Too Many Requests",
      status: 429,
      detail: "rate limit exceeded for the minute window (3 requests)",
    });
    expect(refused.headers["retry-after"]).toBe("40");
    expect(members(refused, "ratelimit")).toEqual({ minute: { r: 0, t: 40 } });
    expect(v2ResponseProblems("GET", "/v2/network-volumes", 429, refused.body)).toEqual([]);
    expect(
      v2HeaderProblems("GET", "/v2/network-volumes", 429, refused.headers, ["Retry-After", ...RATE_HEADERS]),
    ).toEqual([]);
    // The header check does fail on a header that breaks its schema, or a missing one.
    expect(
      v2HeaderProblems("GET", "/v2/network-volumes", 429, { ...refused.headers, "retry-after": "soon" }, ["RateLimit"]),
    ).toEqual([expect.stringContaining("header retry-after")]);
    expect(v2HeaderProblems("GET", "/v2/network-volumes", 429, {}, ["Retry-After"])).toEqual([
      "header Retry-After is missing",
    ]);
    expect((await small.get("/_emulator/stats")).body.managementQuotaRefused).toBe(1);

    // The next window starts with the whole quota: the refusal was not charged to it either.
    await ctx.clock.advance(40_000);
    expect(members(await small.get("/v2/network-volumes"), "ratelimit")).toEqual({ minute: { r: 2, t: 60 } });
  });

  it("keeps each user's count apart", async () => {
    const { api: mine, other: theirs } = await ctx.start({ managementQuota: parseQuotaSpec("minute=1") });
    expect((await mine.get("/v2/network-volumes")).status).toBe(200);
    expect((await mine.get("/v2/network-volumes")).status).toBe(429);
    expect((await theirs.get("/v2/network-volumes")).status).toBe(200);
  });

  it("counts windows of any length from the clock's origin and waits for the longest spent one", async () => {
    const { api: burst } = await ctx.start({ managementQuota: parseQuotaSpec("burst=1/10,minute=2") });
    await ctx.clock.advance(9_200);
    expect(members(await burst.get("/v2/catalog/cpus"), "ratelimit")).toEqual({
      burst: { r: 0, t: 1 },
      minute: { r: 1, t: 51 },
    });
    const early = await burst.get("/v2/catalog/cpus");
    expect([early.status, early.headers["retry-after"]]).toEqual([429, "1"]);
    await ctx.clock.advance(800); // 10.0 s: a new burst window
    expect((await burst.get("/v2/catalog/cpus")).status).toBe(200);
    // Both windows are spent now; the minute's end (50 s away, the burst's is 10 s away) is the one to wait for.
    const late = await burst.get("/v2/catalog/cpus");
    expect([late.status, late.headers["retry-after"]]).toEqual([429, "50"]);
    expect(members(late, "ratelimit")).toEqual({ burst: { r: 0, t: 10 }, minute: { r: 0, t: 50 } });
  });

  it("forgets the account's counts on /_emulator/reset", async () => {
    const { api: small } = await ctx.start({ managementQuota: parseQuotaSpec("minute=1") });
    await small.get("/v2/network-volumes");
    expect((await small.get("/v2/network-volumes")).status).toBe(429);
    await small.post("/_emulator/reset");
    expect((await small.get("/v2/network-volumes")).status).toBe(200);
    expect((await small.get("/_emulator/stats")).body.managementQuotaRefused).toBe(0);
  });

  it("charges nothing and sends no headers when turned off", async () => {
    const { api: free } = await ctx.start({ managementQuota: false });
    for (let i = 0; i < 70; i++) {
      const answer = await free.get("/v2/network-volumes");
      expect([answer.status, answer.headers.ratelimit]).toEqual([200, undefined]);
    }
  });

  it("refuses a bad policy naming the window, the value and the rule", async () => {
    await expect(ctx.start({ managementQuota: [{ name: "minute", quota: 0, seconds: 60 }] })).rejects.toThrow(
      "managementQuota[0].quota = 0: must be a whole number of requests >= 1",
    );
    expect(() => parseQuotaSpec("fortnight=5")).toThrow(/"fortnight=5": must be NAME=QUOTA with NAME one of second/);
    expect(() => parseQuotaSpec("minute=5,minute=6")).toThrow(
      'managementQuota[1].name = "minute": names a window twice',
    );
  });
});

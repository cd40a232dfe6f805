import { request } from "undici";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../../emulator/cli-args";
import { KEY, useTestEmulator } from "./helpers";

/** The emulator's faults replay from a seed; `holdResponseMs` holds an answer after the effect. */
const ctx = useTestEmulator({}, "manual");
const { api } = ctx;

const RULES = { rules: [{ route: "GET /v1", errorRate: 0.5, rateLimitRate: 0.2 }] };

/** Statuses of 40 list calls under RULES (set just before, which restarts the account's stream). */
async function statuses(): Promise<number[]> {
  await api.put("/_emulator/faults", RULES);
  const seen: number[] = [];
  for (let i = 0; i < 40; i++) seen.push((await api.get("/v1/endpoints")).status);
  return seen;
}

describe("seeded fault injection", () => {
  it("makes the same choices for the same requests with the same seed, and other choices with another", async () => {
    await ctx.start({ seed: 42 });
    expect(ctx.emu.seed).toBe(42);
    const first = await statuses();
    expect(first).toContain(500);
    expect(first).toContain(200);
    // Setting the rules again restarts the stream; a new emulator with the seed replays it too.
    expect(await statuses()).toEqual(first);
    await ctx.emu.close();
    await ctx.start({ seed: 42 });
    expect(await statuses()).toEqual(first);
    await ctx.emu.close();
    await ctx.start({ seed: 43 });
    expect(await statuses()).not.toEqual(first);
  });

  it("picks a fresh seed when none is given and shows it for replay", async () => {
    await ctx.start();
    expect(Number.isInteger(ctx.emu.seed)).toBe(true);
    const first = await statuses();
    const seed = ctx.emu.seed;
    await ctx.emu.close();
    await ctx.start({ seed });
    expect(await statuses()).toEqual(first);
  });

  it("refuses a seed that is not a whole number in range, naming the value and the rule", async () => {
    await expect(ctx.start({ seed: -1 })).rejects.toThrow("seed -1: must be a whole number between 0 and 2147483647");
    expect(parseCliArgs(["--seed", "7"]).options.seed).toBe(7);
    expect(() => parseCliArgs(["--seed", "1.5"])).toThrow("--seed 1.5: must be a whole number (0..2147483647)");
    expect(() => parseCliArgs(["--seed", "2147483648"])).toThrow("--seed 2147483648: must be a whole number");
  });
});

describe("held answers (holdResponseMs)", () => {
  it("keeps the effect of a handled request and holds its answer until the client goes away", async () => {
    await ctx.start();
    await api.put("/_emulator/faults", { rules: [{ route: "POST /v1/networkvolumes", holdResponseMs: 60_000 }] });
    const abort = new AbortController();
    const pending = request(`${ctx.emu.url}/v1/networkvolumes`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "held", size: 1, dataCenterId: "EU-RO-1" }),
      signal: abort.signal,
    }).then(
      () => "answered",
      () => "aborted",
    );
    while ((await api.get("/_emulator/stats")).body.faults.heldResponse < 1) await new Promise((r) => setTimeout(r, 5));
    // The platform acted; the client has not heard.
    expect((await api.get("/v1/networkvolumes")).body).toEqual([expect.objectContaining({ name: "held" })]);
    abort.abort();
    expect(await pending).toBe("aborted");
    // The emulator let the held answer go with the client: it closes at once.
    await ctx.emu.close();
  });

  it("answers after the hold, and takes the hold from --fault-hold-response-ms", async () => {
    const { options } = parseCliArgs(["--fault-route", "GET /v1", "--fault-hold-response-ms", "50"]);
    expect(options.faults).toEqual([expect.objectContaining({ route: "GET /v1", holdResponseMs: 50 })]);
    await ctx.start(options);
    expect((await api.get("/v1/endpoints")).status).toBe(200);
    expect((await api.get("/_emulator/stats")).body.faults.heldResponse).toBe(1);
  });
});

describe("requests in flight (stats)", () => {
  it("counts the most requests in flight at once, and none once all are answered", async () => {
    await ctx.start();
    await api.put("/_emulator/faults", { rules: [{ route: "GET /v1", latencyMs: 300 }] });
    await Promise.all(Array.from({ length: 8 }, () => api.get("/v1/endpoints")));
    const stats = (await api.get("/_emulator/stats")).body;
    expect(stats).toMatchObject({ inFlight: 0, peakInFlight: 8 });
    await api.post("/_emulator/stats/reset");
    expect((await api.get("/_emulator/stats")).body).toMatchObject({ inFlight: 0, peakInFlight: 0 });
  });
});

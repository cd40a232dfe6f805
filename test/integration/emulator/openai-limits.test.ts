import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../../sdk/schemas";
import { type Answer, createEndpoint, untilJobs, useTestEmulator } from "./helpers";

// A handler that holds its job for `openai_input.ms` on the emulator clock: calls that stay in flight.
const dir = mkdtempSync(path.join(tmpdir(), "emulator-openai-limits-"));
writeFileSync(
  path.join(dir, "hold.mjs"),
  `export default async ({ input, sleep }) => { await sleep(input.openai_input?.ms ?? 0); return { held: true }; };\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = useTestEmulator({ handlersDir: dir }, "manual");
const { api } = ctx;

/** The 429 every job route answers: `{ error, message }` and a Retry-After in whole seconds. */
function expectRefusal(res: Answer, message: RegExp): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: "rate_limited", message: expect.stringMatching(message) });
  expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
}

/** Sends `count` requests at once; the answers in order. */
const burst = (count: number, send: () => Promise<Answer>) => Promise.all(Array.from({ length: count }, send));

describe("the /openai/* and /requests rows of the rate-limit table, under a burst", () => {
  it("reads both rows from the table the client paces to", () => {
    expect(RATE_LIMITS.openai).toEqual({ perWindow: 2000, concurrent: 400 });
    expect(RATE_LIMITS.requests).toEqual({ perWindow: 10, concurrent: 2 });
  });

  it("refuses /openai/* calls past the window's limit with 429s shaped like /runsync's, then allows them again", async () => {
    // 2000 x 0.005 = 10 per 10 s (400 x 0.005 = 2 at once); one worker adds nothing (1 x 1).
    await ctx.start({ rateLimits: { multiplier: 0.005, requestsPerWorker: 1 } });
    const ep = await createEndpoint(api, { templateId: "echo", workersMax: 1 });
    const call = () => api.post(`/v2/${ep}/openai/v1/chat/completions`, { model: "m", messages: [] });
    const answers: Answer[] = [];
    // Sequential, so only the window's count refuses: 10 pass, 5 do not.
    for (let i = 0; i < 15; i++) answers.push(await call());
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    for (const refused of answers.slice(10)) expectRefusal(refused, /\/openai allows 10 requests per 10 s/);
    expectRefusal(
      await (async () => {
        for (let i = 0; i < 10; i++) await api.post(`/v2/${ep}/runsync`, { input: {} });
        return api.post(`/v2/${ep}/runsync`, { input: {} });
      })(),
      /\/runsync allows 10 requests per 10 s/,
    );
    // A burst in parallel: nothing more gets through this window.
    const parallel = await burst(20, call);
    expect(parallel.filter((a) => a.status === 429)).toHaveLength(20);
    expect((await api.get("/_emulator/stats")).body.rateLimited).toBe(5 + 1 + 20);
    // The refused calls made no job.
    expect((await api.get(`/v2/${ep}/health`)).body.jobs.completed).toBe(20);
    await ctx.clock.advance(10_000);
    expect((await call()).status).toBe(200);
  });

  it("refuses a third /openai/* call in flight at once (2 at this scale) and allows it when one ends", async () => {
    await ctx.start({ rateLimits: { multiplier: 0.005, requestsPerWorker: 1 } });
    const ep = await createEndpoint(api, { templateId: "hold", workersMax: 2 });
    const hold = () => api.post(`/v2/${ep}/openai/v1/chat/completions`, { ms: 1000 });
    const first = [hold(), hold()];
    await untilJobs(api, ep, { inProgress: 2 });
    expectRefusal(await hold(), /concurrency limit exceeded: \/openai allows 2 requests in flight/);
    await ctx.clock.advance(1000);
    expect((await Promise.all(first)).map((a) => a.status)).toEqual([200, 200]);
    expect((await api.post(`/v2/${ep}/openai/v1/chat/completions`, {})).body).toEqual({ held: true });
  });

  it("refuses /requests past 10 per 10 s (the table's own row, at scale 1), per endpoint", async () => {
    await ctx.start();
    const a = await createEndpoint(api, { templateId: "echo" });
    const b = await createEndpoint(api, { templateId: "echo" });
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await api.get(`/v2/${a}/requests`));
    expect(answers.map((r) => r.status)).toEqual([...Array(10).fill(200), 429, 429]);
    expectRefusal(answers[10]!, /\/requests allows 10 requests per 10 s on endpoint/);
    // Another endpoint has its own count; a burst on it lets at most 10 through.
    const parallel = await burst(15, () => api.get(`/v2/${b}/requests`));
    const ok = parallel.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(10);
    for (const refused of parallel.filter((r) => r.status !== 200)) expectRefusal(refused, /\/requests allows/);
    await ctx.clock.advance(10_000);
    expect((await api.get(`/v2/${a}/requests`)).status).toBe(200);
  });
});

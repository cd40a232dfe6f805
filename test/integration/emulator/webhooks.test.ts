import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEndpoint, eventually, runJob, useTestEmulator } from "./helpers";

interface Received {
  at: number;
  body: unknown;
  contentType: string | undefined;
}

const ctx = useTestEmulator();
const { api } = ctx;
let receiver: Server;
let received: Received[];
let failFirst: number;
let hookUrl: string;

beforeEach(async () => {
  received = [];
  failFirst = 0;
  receiver = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      received.push({ at: ctx.clock.now(), body: JSON.parse(text), contentType: req.headers["content-type"] });
      res.statusCode = received.length <= failFirst ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterEach(() => new Promise((r) => receiver.close(r)));

const stats = async () => (await api.get("/_emulator/stats")).body.webhooks;

describe("webhooks (docs/platform.md 'Events')", () => {
  it("POSTs the job record as JSON when the job completes", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep" });
    const id = await runJob(api, ep, { input: { seconds: 2 }, webhook: hookUrl });
    await ctx.clock.advance(2000);
    await eventually(() => expect(received).toHaveLength(1));
    expect(received[0]).toEqual({
      at: 2000,
      contentType: "application/json",
      body: { id, status: "COMPLETED", output: { slept: 2 }, delayTime: 0, executionTime: 2000 },
    });
    await eventually(async () =>
      expect(await stats()).toEqual({ attempts: 1, delivered: 1, failures: 0, abandoned: 0 }),
    );
  });

  it("retries a failed call up to 2 more times, 10 s apart on the emulator clock", async () => {
    failFirst = 2;
    const ep = await createEndpoint(api, { templateId: "fail" });
    const id = await runJob(api, ep, { input: { message: "nope" }, webhook: hookUrl });
    await eventually(async () => expect((await stats()).failures).toBe(1));
    await ctx.clock.advance(9_999);
    expect(received).toHaveLength(1);
    await ctx.clock.advance(1);
    await eventually(async () => expect((await stats()).failures).toBe(2));
    await ctx.clock.advance(10_000);
    await eventually(async () =>
      expect(await stats()).toEqual({ attempts: 3, delivered: 1, failures: 2, abandoned: 0 }),
    );
    expect(received.map((r) => r.at)).toEqual([0, 10_000, 20_000]);
    for (const r of received) expect(r.body).toMatchObject({ id, status: "FAILED", error: "nope" });
  });

  it("gives up after three failed calls", async () => {
    failFirst = 100;
    const ep = await createEndpoint(api);
    await runJob(api, ep, { input: {}, webhook: hookUrl });
    for (let i = 1; i <= 3; i++) {
      await eventually(async () => expect((await stats()).failures).toBe(i));
      await ctx.clock.advance(10_000);
    }
    await ctx.clock.advance(60_000);
    expect(await stats()).toEqual({ attempts: 3, delivered: 0, failures: 3, abandoned: 1 });
    expect(received).toHaveLength(3);
  });

  it("counts a connection error as a failure and retries it", async () => {
    const ep = await createEndpoint(api);
    await new Promise((r) => receiver.close(r));
    await runJob(api, ep, { input: {}, webhook: hookUrl });
    await eventually(async () => expect((await stats()).failures).toBe(1));
    receiver.listen(Number(new URL(hookUrl).port), "127.0.0.1");
    await ctx.clock.advance(10_000);
    await eventually(async () => expect((await stats()).delivered).toBe(1));
  });

  it("calls the webhook when a running job times out or is cancelled, not when a queued job is cancelled", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const running = await runJob(api, ep, {
      input: { seconds: 50 },
      webhook: hookUrl,
      policy: { executionTimeout: 5000 },
    });
    const next = await runJob(api, ep, { input: { seconds: 50 } });
    const queued = await runJob(api, ep, { input: { seconds: 50 }, webhook: hookUrl });
    await ctx.clock.advance(5000);
    await eventually(() => expect(received).toHaveLength(1));
    expect(received[0]!.body).toMatchObject({ id: running, status: "TIMED_OUT" });
    expect((await api.post(`/v2/${ep}/cancel/${queued}`)).body.status).toBe("CANCELLED");
    await api.post(`/v2/${ep}/cancel/${next}`);
    const third = await runJob(api, ep, { input: { seconds: 50 }, webhook: hookUrl });
    expect((await api.get(`/v2/${ep}/status/${third}`)).body.status).toBe("IN_PROGRESS");
    await api.post(`/v2/${ep}/cancel/${third}`);
    await eventually(() => expect(received).toHaveLength(2));
    expect(received[1]!.body).toMatchObject({ id: third, status: "CANCELLED" });
    expect(received.some((r) => (r.body as { id: string }).id === queued)).toBe(false);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Answer, clientFor, eventually, KEY, useTestEmulator } from "./helpers";
import { v2ResponseProblems } from "./openapi-v2";

// A handler file that answers HTTP: waits `?ms=` on the emulator clock, then says its own status.
const dir = mkdtempSync(path.join(tmpdir(), "emulator-lb-"));
writeFileSync(
  path.join(dir, "slow-http.mjs"),
  `export default async ({ input, sleep }) => {
    await sleep(Number(input.query.ms ?? 0));
    if (input.path === "/text") return { statusCode: 202, headers: { "content-type": "text/plain" }, body: "plain " + input.body };
    return { statusCode: 201, headers: { "x-served-by": "slow-http" }, body: { path: input.path, method: input.method } };
  };\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = useTestEmulator({ handlersDir: dir }, "file");
const { api } = ctx;

function conforms(method: string, template: string, res: Answer): Answer {
  expect(v2ResponseProblems(method, template, res.status, res.body), JSON.stringify(res.body)).toEqual([]);
  return res;
}

async function createBalancer(body: Record<string, unknown>) {
  const res = conforms(
    "POST",
    "/v2/serverless",
    await api.post("/v2/serverless", {
      name: "balanced",
      type: "LOAD_BALANCER",
      gpu: { pools: ["ADA_24"] },
      scaling: { type: "REQUEST_COUNT", requestCount: 1 },
      workers: { min: 0, max: 2, idleTimeout: 5 },
      ...body,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The path of a load-balancing address on the test client (which prefixes the emulator's origin). */
const pathOf = (url: string) => url.slice(ctx.emu.url.length);

describe("load-balancing endpoints", () => {
  it("answer HTTP at requestUrls.base through the echo handler, with /ping 204 until a worker is up, then 200", async () => {
    const e = await createBalancer({ image: "ghcr.io/acme/echo:1" });
    expect(e.requestUrls).toEqual({ base: `${ctx.emu.url}/lb/${e.id}`, health: `${ctx.emu.url}/lb/${e.id}/ping` });
    const base = pathOf(e.requestUrls.base);
    expect((await api.get(pathOf(e.requestUrls.health))).status).toBe(204);

    const res = await api.send("POST", `${base}/generate?steps=4`, { prompt: "a cat" }, { "x-trace": "t-1" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      method: "POST",
      path: "/generate",
      query: { steps: "4" },
      headers: { "x-trace": "t-1", "content-type": "application/json" },
      body: { prompt: "a cat" },
    });
    // The API key authenticates the request to the platform and never reaches the worker.
    expect(res.body.headers.authorization).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain(KEY);

    const health = await api.get(pathOf(e.requestUrls.health));
    expect(health.status).toBe(200);
    const workers = conforms("GET", "/v2/serverless/{id}/workers", await api.get(`/v2/serverless/${e.id}/workers`));
    expect(workers.body.summary).toMatchObject({ idle: 1, running: 0, total: 1 });

    // Past the idle timeout (5 s) the worker stops, and the health check says so.
    ctx.clock.advance(6000);
    await eventually(async () => expect((await api.get(pathOf(e.requestUrls.health))).status).toBe(204));
  });

  it("scale by request count within workers.max, and let a handler file set status, headers and text", async () => {
    const e = await createBalancer({ image: "registry.example.com/team/slow-http:2" });
    const base = pathOf(e.requestUrls.base);
    const inFlight = [api.get(`${base}/a?ms=1000`), api.get(`${base}/b?ms=1000`), api.get(`${base}/c?ms=1000`)];
    const busy = await eventually(async () => {
      const w = (await api.get(`/v2/serverless/${e.id}/workers`)).body;
      expect(w.summary.running).toBe(2);
      return w;
    });
    // requestCount 1 and workers.max 2: the third request shares a worker rather than start a third.
    expect(busy.summary.total).toBe(2);
    ctx.clock.advance(1000);
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers[1]!.body).toEqual({ path: "/b", method: "GET" });
    expect(answers[1]!.headers["x-served-by"]).toBe("slow-http");

    const text = await api.send("PUT", `${base}/text`, "hello", { "content-type": "text/plain" });
    expect(text.status).toBe(202);
    expect(text.body).toBe("plain hello");
  });

  it("answer 504 past the endpoint's timeout and 503 when no worker may run", async () => {
    const slow = await createBalancer({ image: "ghcr.io/acme/slow-http:1", timeout: 500 });
    const pending = api.get(`${pathOf(slow.requestUrls.base)}/slow?ms=2000`);
    await eventually(async () =>
      expect((await api.get(`/v2/serverless/${slow.id}/workers`)).body.summary.running).toBe(1),
    );
    ctx.clock.advance(500);
    const late = await pending;
    expect(late.status).toBe(504);
    expect(late.body).toMatchObject({ error: "timeout", message: expect.stringContaining("500 ms") });
    const none = await createBalancer({ image: "ghcr.io/acme/echo:1", workers: { min: 0, max: 0 } });
    const refused = await api.get(`${pathOf(none.requestUrls.base)}/x`);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toMatch(/workers\.max is 0/);
  });

  it("answer health at HEALTH_CHECK_PATH when the endpoint's env sets one", async () => {
    const e = await createBalancer({
      image: "ghcr.io/acme/echo:1",
      env: { HEALTH_CHECK_PATH: "/healthz" },
      workers: { min: 1, max: 1 },
    });
    expect(e.requestUrls.health).toBe(`${ctx.emu.url}/lb/${e.id}/healthz`);
    expect((await api.get(pathOf(e.requestUrls.health))).status).toBe(200);
    // `/ping` is then an ordinary path, served by the handler.
    expect((await api.get(`${pathOf(e.requestUrls.base)}/ping`)).body).toMatchObject({ path: "/ping" });
  });

  it("refuse queue-delay scaling (400), take no jobs, and need the API key", async () => {
    const refused = conforms(
      "POST",
      "/v2/serverless",
      await api.post("/v2/serverless", {
        name: "bad",
        type: "LOAD_BALANCER",
        image: "ghcr.io/acme/echo:1",
        gpu: { pools: ["ADA_24"] },
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatch(/^\$\.scaling\.type: a LOAD_BALANCER endpoint scales on REQUEST_COUNT/);

    const e = await createBalancer({ image: "ghcr.io/acme/echo:1" });
    const patch = conforms(
      "PATCH",
      "/v2/serverless/{id}",
      await api.patch(`/v2/serverless/${e.id}`, { scaling: { type: "QUEUE_DELAY", queueDelay: 2 } }),
    );
    expect(patch.status).toBe(400);
    const v1Patch = await api.patch(`/v1/endpoints/${e.id}`, { scalerType: "QUEUE_DELAY" });
    expect(v1Patch.status).toBe(400);

    expect((await api.post(`/v2/${e.id}/run`, { input: {} })).status).toBe(404);
    const anonymous = await clientFor(ctx.emu, null).get(`${pathOf(e.requestUrls.base)}/x`);
    expect(anonymous.status).toBe(401);
    expect((await api.get("/lb/no-such-endpoint/x")).status).toBe(404);
  });
});

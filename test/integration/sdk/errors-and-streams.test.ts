import { afterAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { APIError, RunpodClient } from "../../../sdk";
import { v2SchemaProblems } from "../emulator/openapi-v2";
import { createEndpoint, KEY, useTestEmulator } from "../emulator/helpers";

/**
 * The answers of December's platform that are not batches or affinity: 405 with `Allow` on a
 * known path, the client's reading of a 403 (on both management versions and the job API), and
 * `/stream` in both of its shapes.
 */
const ctx = useTestEmulator({ timeScale: 1 }, "file");
const clients: RunpodClient[] = [];
const clientOn = (emulator: RunningEmulator, apiUrl = emulator.apiUrl) => {
  const client = new RunpodClient({ apiKey: KEY, apiUrl, queueUrl: emulator.queueUrl, maxAttempts: 1 });
  clients.push(client);
  return client;
};
afterAll(async () => {
  for (const c of clients) await c.close();
});

describe("405 Method Not Allowed", () => {
  it("answers a known management v2 path asked with another method as a problem, with Allow", async () => {
    const res = await ctx.api.send("DELETE", "/v2/pods");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, POST");
    expect(res.headers["content-type"]).toContain("application/problem+json");
    expect(v2SchemaProblems("ErrorResponse", res.body)).toEqual([]);
    expect(res.body).toMatchObject({ title: "Method Not Allowed", status: 405 });
    expect(res.body.detail).toContain("DELETE is not allowed on /v2/pods");
    // A path with a parameter; its quota headers come as on any v2 answer.
    const one = await ctx.api.send("POST", "/v2/network-volumes/abc123");
    expect(one.status).toBe(405);
    expect(one.headers.allow).toBe("GET, HEAD, PATCH, DELETE");
  });

  it("keeps 404 where no 405 is documented (v1, the job API) and for a path no route has", async () => {
    for (const [method, path] of [
      ["GET", "/v2/some-endpoint/run"],
      ["PATCH", "/v2/some-endpoint/batch/b1"],
      ["PUT", "/v1/pods"],
      ["GET", "/v2/pods/abc/no/such/route"],
    ]) {
      const res = await ctx.api.send(method!, path!);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.allow).toBeUndefined();
    }
  });
});

describe("a 403: the API key may lack the scope", () => {
  const forbid = (route: string) => ctx.api.put("/_emulator/faults", { rules: [{ route, forbiddenRate: 1 }] });

  it("is a ForbiddenError (code forbidden) naming the operation, on management v2, v1 and the job API", async () => {
    const v2 = clientOn(ctx.emu);
    const v1 = clientOn(ctx.emu, ctx.emu.apiUrl.replace(/\/v2$/, "/v1"));
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    await forbid("*");
    try {
      for (const [client, path] of [
        [v2, "GET /v2/network-volumes"],
        [v1, "GET /v1/networkvolumes"],
      ] as const) {
        const error = await client.networkVolumes.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(APIError);
        expect(error).toMatchObject({ name: "ForbiddenError", code: "forbidden", status: 403 });
        expect((error as Error).message).toContain(`${path} failed with 403: access denied`);
        expect((error as Error).message).toContain(`the API key may lack the scope ${path} needs`);
      }
      const job = await v2
        .jobs(ep)
        .run({ input: {} })
        .catch((e: unknown) => e);
      expect(job).toMatchObject({ code: "forbidden", message: expect.stringContaining(`POST /v2/${ep}/run`) });
    } finally {
      await ctx.api.put("/_emulator/faults", { rules: [] });
    }
  });
});

describe("/stream in both shapes", () => {
  const emulators: RunningEmulator[] = [];
  afterAll(async () => {
    for (const e of emulators) await e.close();
  });

  for (const shape of ["object", "array"] as const) {
    it(`reads the ${shape} shape to the job's end, every chunk once`, async () => {
      const emulator = await startEmulator({
        port: 0,
        apiKeys: [KEY],
        timeScale: 1,
        streamShape: shape,
        managementQuota: false,
      });
      emulators.push(emulator);
      const client = clientOn(emulator);
      const ep = (await client.endpoints.create({ name: "s", templateId: "stream", workersMax: 1 })).id;
      const raw = await fetch(
        `${emulator.queueUrl}/${ep}/stream/${(await client.jobs(ep).run({ input: { chunks: 1 } })).id}`,
        {
          headers: { authorization: `Bearer ${KEY}` },
        },
      );
      const body = (await raw.json()) as unknown;
      expect(Array.isArray(body)).toBe(shape === "array");

      const { id } = await client.jobs(ep).run({ input: { chunks: 5, delayMs: 20 } });
      const texts: unknown[] = [];
      for await (const chunk of client
        .jobs(ep)
        .stream<{ text: string[] }>(id, { initialIntervalMs: 10, timeoutMs: 20_000 }))
        texts.push(chunk.output.text[0]);
      expect(texts).toEqual([1, 2, 3, 4, 5].map((n) => `chunk ${n} of 5`));

      const outcomes = [];
      for await (const o of client
        .jobs(ep)
        .submitMany([{ input: { chunks: 3 } }], { collectWith: "stream", pollIntervalMs: 20 }))
        outcomes.push(o);
      expect(outcomes[0]).toMatchObject({ kind: "ended", job: { status: "COMPLETED" } });
      expect(outcomes[0]!.kind === "ended" && outcomes[0].stream?.length).toBe(3);
    });
  }
});

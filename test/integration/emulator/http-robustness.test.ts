import fc from "fast-check";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { eventually, KEY, useTestEmulator } from "./helpers";

const ctx = useTestEmulator({}, "file");

async function raw(method: string, path: string, body: string | Buffer | undefined, contentType?: string) {
  const res = await request(`${ctx.emu.url}${path}`, {
    method: method as "POST",
    headers: { authorization: `Bearer ${KEY}`, ...(contentType ? { "content-type": contentType } : {}) },
    body,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

describe("nothing a client sends makes the emulator fail", () => {
  it("answers malformed JSON with 400 bad_request and a problem list", async () => {
    const res = await raw("POST", "/v1/networkvolumes", '{"name": "x", size', "application/json");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "bad_request", problems: [{ field: "", rule: expect.any(String) }] });
  });

  it.each([["[]"], ['"text"'], ["42"], ["null"]])(
    "answers the JSON body %s, which is not an object, with 400",
    async (body) => {
      const res = await raw("POST", "/v1/networkvolumes", body, "application/json");
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("bad_request");
    },
  );

  it("answers a body that is not JSON with 415", async () => {
    const res = await raw("POST", "/v1/networkvolumes", "name=x", "application/x-www-form-urlencoded");
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("unsupported_media_type");
    expect((await raw("POST", "/v1/networkvolumes", "hello", "text/plain")).status).toBe(415);
  });

  it("refuses a prototype-poisoning body with 400", async () => {
    const res = await raw(
      "POST",
      "/v1/endpoints",
      '{"templateId":"echo","__proto__":{"workersMax":99}}',
      "application/json",
    );
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).workersMax).toBeUndefined();
  });

  it("answers a management body over 1 MB with 413", async () => {
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024 + 10), size: 1, dataCenterId: "EU-RO-1" });
    const res = await raw("POST", "/v1/networkvolumes", big, "application/json");
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("accepts an empty body with a JSON content type on operations without a body (as the Python SDK sends /cancel)", async () => {
    const ep = (
      await raw("POST", "/v1/endpoints", JSON.stringify({ templateId: "echo", workersMax: 0 }), "application/json")
    ).body.id;
    const job = (await raw("POST", `/v2/${ep}/run`, JSON.stringify({ input: {} }), "application/json")).body.id;
    const res = await raw("POST", `/v2/${ep}/cancel/${job}`, "", "application/json");
    expect(res).toEqual({ status: 200, body: { id: job, status: "CANCELLED" } });
    expect((await raw("POST", `/v2/${ep}/purge-queue`, undefined)).status).toBe(200);
  });

  it("answers a /run without body or input with 400 naming input", async () => {
    const ep = (await raw("POST", "/v1/endpoints", JSON.stringify({ templateId: "echo" }), "application/json")).body.id;
    const none = await raw("POST", `/v2/${ep}/run`, undefined);
    expect(none.status).toBe(400);
    const noInput = await raw("POST", `/v2/${ep}/run`, JSON.stringify({ webhook: "nope" }), "application/json");
    expect(noInput.status).toBe(400);
    expect(noInput.body.problems.map((p: { field: string }) => p.field).sort()).toEqual(["input", "webhook"]);
    const arrayInput = await raw("POST", `/v2/${ep}/run`, JSON.stringify({ input: [1, 2] }), "application/json");
    expect(arrayInput.body.problems[0]).toMatchObject({
      field: "input",
      rule: "input is required and must be a JSON object",
    });
  });

  it("answers input nested too deeply to encode: 400 when invalid, a FAILED job when echoed", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const ep = (await raw("POST", "/v1/endpoints", JSON.stringify({ templateId: "echo" }), "application/json")).body.id;
    const invalid = await raw("POST", `/v2/${ep}/run`, `{"input":${deep}}`, "application/json");
    expect(invalid.status).toBe(400);
    expect(invalid.body.problems[0]).toMatchObject({ field: "input", value: "[array]" });
    const echoed = await raw("POST", `/v2/${ep}/runsync`, `{"input":{"a":${deep}}}`, "application/json");
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({
      status: "FAILED",
      error: expect.stringContaining("cannot be encoded as JSON"),
    });
    expect((await raw("GET", `/v2/${ep}/status/${echoed.body.id}`, undefined)).status).toBe(200);
  });

  it("never answers 5xx to arbitrary JSON bodies on any route (property test)", async () => {
    const ep = (await raw("POST", "/v1/endpoints", JSON.stringify({ templateId: "echo" }), "application/json")).body.id;
    const vol = (
      await raw(
        "POST",
        "/v1/networkvolumes",
        JSON.stringify({ name: "v", size: 1, dataCenterId: "EU-RO-1" }),
        "application/json",
      )
    ).body.id;
    const routes: [string, string][] = [
      ["POST", "/v1/networkvolumes"],
      ["PATCH", `/v1/networkvolumes/${vol}`],
      ["POST", `/v1/networkvolumes/${vol}/update`],
      ["POST", "/v1/endpoints"],
      ["PATCH", `/v1/endpoints/${ep}`],
      ["POST", `/v2/${ep}/run`],
      ["POST", `/v2/${ep}/runsync?wait=1000`],
      ["POST", `/v2/sdxl-turbo/run`],
      ["PUT", "/_emulator/faults"],
      ["POST", "/_emulator/clock/advance"],
    ];
    const body = fc.oneof(
      fc.json(),
      fc
        .record({ input: fc.anything(), policy: fc.anything(), webhook: fc.anything() }, { requiredKeys: [] })
        .map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            name: fc.anything(),
            size: fc.anything(),
            templateId: fc.constantFrom("echo", "x"),
            workersMin: fc.integer(),
            workersMax: fc.integer(),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v) ?? "null"),
      fc
        .record({ rules: fc.array(fc.record({ route: fc.string(), errorRate: fc.double({ min: 0, max: 0.0 }) })) })
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, async ([method, path], text) => {
        const res = await raw(method, path, text, "application/json");
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
    await raw("DELETE", "/_emulator/faults", undefined);
    expect((await raw("GET", `/v1/networkvolumes/${vol}`, undefined)).body.size).toBeGreaterThanOrEqual(1);
    expect((await raw("GET", `/v2/${ep}/health`, undefined)).status).toBe(200);
  });

  it("answers unknown routes and methods with 404 JSON", async () => {
    const res = await raw("DELETE", "/v2/abc/run", undefined);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });

  it("answers very long path parameters with 414, not a failure", async () => {
    const res = await raw("GET", `/v1/networkvolumes/${"a".repeat(5000)}`, undefined);
    expect(res.status).toBe(414);
    expect(res.body).toMatchObject({ error: "bad_request" });
    expect((await raw("GET", "/v1/networkvolumes/%E0%A4%A", undefined)).status).toBe(400);
  });

  it("survives a client that disconnects in the middle of a request and keeps serving", async () => {
    const ep = (
      await raw("POST", "/v1/endpoints", JSON.stringify({ templateId: "echo", workersMax: 0 }), "application/json")
    ).body.id;
    const controller = new AbortController();
    const pending = request(`${ctx.emu.url}/v2/${ep}/runsync`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ input: {} }),
      signal: controller.signal,
    }).catch((e: Error) => e);
    // Disconnect once the request is being served (its job queued), not after a guessed delay.
    await eventually(async () => {
      expect((await raw("GET", `/v2/${ep}/health`, undefined)).body.jobs.inQueue).toBe(1);
    });
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await ctx.clock.advance(90_000);
    expect((await raw("GET", `/v2/${ep}/health`, undefined)).body.jobs.inQueue).toBe(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotFoundError, RequestValidationError, RunpodClient } from "../../../sdk";
import { LIMITS } from "../../../sdk/schemas";
import { createEndpoint, eventually, KEY, useTestEmulator } from "../emulator/helpers";

/**
 * `client.jobs(id).batches` against the emulator over real HTTP: every operation, and the bad
 * input refused before any request (the emulator's counters prove nothing was sent).
 */
const ctx = useTestEmulator({ timeScale: 1 }, "file");
let client: RunpodClient;
beforeAll(() => {
  client = new RunpodClient({ apiKey: KEY, apiUrl: ctx.emu.apiUrl, queueUrl: ctx.emu.queueUrl });
});
afterAll(() => client.close());

/** Requests the emulator counted on batch routes. */
async function batchRequests(): Promise<number> {
  const byRoute = (await ctx.api.get("/_emulator/stats")).body.requests.byRoute as Record<string, number>;
  return Object.entries(byRoute)
    .filter(([route]) => route.includes("/batch"))
    .reduce((sum, [, n]) => sum + n, 0);
}

async function refusal(promise: Promise<unknown>): Promise<RequestValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

describe("client.jobs(id).batches", () => {
  it("creates with and without requests, appends, finalizes, waits and reads the requests page by page", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "echo", workersMax: 3 });
    const batches = client.jobs(ep).batches;
    const empty = await batches.create();
    expect(empty).toEqual({ id: expect.stringMatching(/^batch_/), status: "DRAFT" });
    const created = await batches.create([{ input: { n: 0 } }]);
    await batches.append(created.id, [{ input: { n: 1 } }, { input: { n: 2 } }, { input: { n: 3 } }]);
    expect((await batches.get(created.id)).requestTotal).toBe(4);
    expect(await batches.finalize(created.id)).toEqual({ id: created.id, status: "FINALIZED" });
    const seen: number[] = [];
    const done = await batches.wait(created.id, {
      initialIntervalMs: 20,
      onProgress: (s) => seen.push(s.requestCompleted),
    });
    expect(done).toMatchObject({ status: "FINALIZED", requestTotal: 4, requestCompleted: 4, requestFailed: 0 });
    expect(seen.at(-1)).toBe(4);
    expect(typeof done.createdAt).toBe("number");

    const page = await batches.requestsPage(created.id, { offset: 1, limit: 2 });
    expect(page).toMatchObject({ total: 4, offset: 1, limit: 2, hasMore: true });
    expect(page.requests.map((r) => r.output)).toEqual([{ n: 1 }, { n: 2 }]);
    const all = [];
    for await (const request of batches.requests(created.id, { limit: 3 })) all.push(request);
    expect(all.map((r) => r.output)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    expect(all.every((r) => r.status === "COMPLETED")).toBe(true);

    const list = await batches.list();
    expect(list.map((b) => b.id)).toEqual([created.id, empty.id]);
    expect(list[0]).toMatchObject({ status: "FINALIZED", requestTotal: 4 });
  });

  it("updates a batch's attributes, removes a request from a draft, and cancels", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    const batches = client.jobs(ep).batches;
    const { id } = await batches.create([{ input: { keep: true } }, { input: { keep: false } }]);
    expect(await batches.update(id, { name: "nightly run" })).toMatchObject({ id, name: "nightly run" });
    const [, drop] = (await batches.requestsPage(id)).requests;
    await batches.removeRequest(id, drop!.id);
    expect((await batches.get(id)).requestTotal).toBe(1);
    await expect(batches.removeRequest(id, drop!.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await batches.cancel(id)).toEqual({ id, status: "CANCELLED" });
    expect((await batches.cancel(id)).status).toBe("CANCELLED");
    await expect(batches.get("batch_unknown")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses bad input before any request, naming the field, the value and the rule", async () => {
    const batches = client.jobs("ep-refused").batches;
    const before = await batchRequests();

    const tooMany = Array.from({ length: LIMITS.batchRequests + 1 }, () => ({ input: {} }));
    const many = await refusal(batches.create(tooMany));
    expect(many.message).toContain("requests = 5001 requests: a batch holds at most 5000 requests");

    const blob = "x".repeat(LIMITS.batchAppendBytes / 2);
    const big = await refusal(batches.append("batch_1", [{ input: { blob } }, { input: { blob } }]));
    expect(big.problems[0]).toMatchObject({ field: "requests", rule: expect.stringContaining("split the requests") });
    expect(big.message).toMatch(/requests = \d+ bytes: the body must be at most 10485760 bytes \(10 MiB\)/);

    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const notJson = await refusal(batches.append("batch_1", [{ input: { ok: 1 } }, { input: cyclic }]));
    expect(notJson.problems[0]).toMatchObject({ field: "requests.1.input", value: "(not JSON)" });
    const bigint = await refusal(batches.create([{ input: { n: 10n as unknown as number } }]));
    expect(bigint.message).toContain("requests.0.input = (not JSON): must be encodable as JSON");

    const noInput = await refusal(batches.create([{ nope: 1 } as never]));
    expect(noInput.problems[0]).toMatchObject({ field: "requests.0.input", rule: "is required" });
    expect((await refusal(batches.append("batch_1", []))).message).toContain("must hold at least one request");
    expect((await refusal(batches.get(""))).message).toContain('batchId = "": must be a batch id');
    expect((await refusal(batches.requestsPage("batch_1", { limit: 0 }))).message).toContain(
      "limit must be at least 1",
    );
    expect((await refusal(batches.update("batch_1", [] as never))).problems[0]!.field).toBe("attributes");

    expect(await batchRequests()).toBe(before);
  });

  it("tells the platform's refusals apart: the active-batch limit is a 429, a full batch a 400", async () => {
    const ep = await createEndpoint(ctx.api, { templateId: "echo" });
    const batches = client.jobs(ep).batches;
    const ids: string[] = [];
    for (let i = 0; i < LIMITS.activeBatches; i++) ids.push((await batches.create()).id);
    const limited = new RunpodClient({
      apiKey: KEY,
      apiUrl: ctx.emu.apiUrl,
      queueUrl: ctx.emu.queueUrl,
      maxAttempts: 1,
    });
    try {
      const error = await limited
        .jobs(ep)
        .batches.create()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "rate_limited", status: 429 });
      expect((error as Error).message).toContain("10 active batches");
    } finally {
      await limited.close();
    }
    await batches.append(
      ids[0]!,
      Array.from({ length: 5000 }, () => ({ input: {} })),
    );
    const full = await batches.append(ids[0]!, [{ input: {} }]).catch((e: unknown) => e);
    expect(full).toMatchObject({ code: "bad_request", status: 400 });
    for (const id of ids) await batches.cancel(id);
    await eventually(async () => expect((await batches.list()).every((b) => b.status === "CANCELLED")).toBe(true));
  });
});

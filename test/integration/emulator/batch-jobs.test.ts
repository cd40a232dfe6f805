import { describe, expect, it } from "vitest";
import { BatchChildPageSchema, BatchSummarySchema, LIMITS } from "../../../sdk/schemas";
import { createEndpoint, eventually, runJob, settle, useTestEmulator } from "./helpers";

/**
 * Batch jobs on the emulator over real HTTP (docs/emulator.md "Batch jobs"): the nine operations,
 * the states, the limits with the platform's errors, cancellation, and the batch workers apart
 * from `/run` traffic. One emulator for the file, on a manual clock.
 */
const ctx = useTestEmulator({}, "file");
const { api } = ctx;

const batch = (ep: string, id = "", rest = "") => `/v2/${ep}/batch${id ? `/${id}` : ""}${rest}`;
const summary = async (ep: string, id: string) => BatchSummarySchema.parse((await api.get(batch(ep, id))).body);
const sleeps = (n: number, seconds = 1) => Array.from({ length: n }, () => ({ input: { seconds } }));

describe("batch jobs on the emulator", () => {
  it("creates, appends, finalizes and runs a batch; done when completed + failed = total, staying FINALIZED", async () => {
    const ep = await createEndpoint(api, { templateId: "echo", workersMax: 2 });
    const created = await api.post(batch(ep), [{ input: { n: 0 } }]);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^batch_/), status: "DRAFT" });
    const id = created.body.id as string;
    const appended = await api.post(batch(ep, id, "/requests"), {
      requests: [{ input: { n: 1 } }, { input: { n: 2 } }],
    });
    expect(appended.body).toMatchObject({ id, status: "DRAFT", requestTotal: 3 });

    // A DRAFT never runs.
    await ctx.clock.advance(10_000);
    expect(await summary(ep, id)).toMatchObject({ status: "DRAFT", requestTotal: 3, requestCompleted: 0 });

    expect((await api.post(batch(ep, id, "/finalize"))).body).toEqual({ id, status: "FINALIZED" });
    await eventually(async () =>
      expect(await summary(ep, id)).toMatchObject({ status: "FINALIZED", requestCompleted: 3, requestFailed: 0 }),
    );
    const done = await summary(ep, id);
    expect(done).toMatchObject({ endpointId: ep, requestTotal: 3, requestInProgress: 0 });
    // createdAt in epoch milliseconds, on the emulator's clock.
    expect(Number.isInteger(done.createdAt)).toBe(true);
    const clock = (await api.get("/_emulator/clock")).body as { epochMs: number };
    expect(done.createdAt).toBeLessThanOrEqual(clock.epochMs);
    expect(done.createdAt).toBeGreaterThan(clock.epochMs - 60_000);

    const page = BatchChildPageSchema.parse((await api.get(batch(ep, id, "/requests"))).body);
    expect(page).toMatchObject({ total: 3, offset: 0, limit: 50, hasMore: false });
    // Listed in the order they were added, each with its output and epoch-ms times.
    expect(page.requests.map((r) => r.output)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    for (const r of page.requests) {
      expect(r.status).toBe("COMPLETED");
      expect(r.completedAt as number).toBeGreaterThanOrEqual(r.startedAt as number);
    }
    // Finalizing again changes nothing; appending to a finalized batch is refused.
    expect((await api.post(batch(ep, id, "/finalize"))).body).toEqual({ id, status: "FINALIZED" });
    const late = await api.post(batch(ep, id, "/requests"), { requests: [{ input: {} }] });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: "batch_not_draft", message: expect.stringContaining("FINALIZED") });
  });

  it("pages the child requests with offset and limit, and a failed request does not fail the batch", async () => {
    const ep = await createEndpoint(api, { templateId: "fail", workersMax: 3 });
    const id = (
      await api.post(
        batch(ep),
        Array.from({ length: 7 }, (_, i) => ({ input: { message: `no ${i}` } })),
      )
    ).body.id as string;
    await api.post(batch(ep, id, "/finalize"));
    await eventually(async () => expect((await summary(ep, id)).requestFailed).toBe(7));
    expect((await summary(ep, id)).status).toBe("FINALIZED");
    const second = (await api.get(`${batch(ep, id, "/requests")}?offset=3&limit=3`)).body;
    expect(second).toMatchObject({ total: 7, offset: 3, limit: 3, hasMore: true });
    expect(second.requests.map((r: { error: string }) => r.error)).toEqual(["no 3", "no 4", "no 5"]);
    const last = (await api.get(`${batch(ep, id, "/requests")}?offset=6&limit=3`)).body;
    expect(last).toMatchObject({ offset: 6, hasMore: false, requests: [{ status: "FAILED", error: "no 6" }] });
    expect((await api.get(`${batch(ep, id, "/requests")}?limit=0`)).status).toBe(400);
  });

  it("lists batches newest first, renames one, and removes a request from a draft", async () => {
    const ep = await createEndpoint(api, { templateId: "echo" });
    const first = (await api.post(batch(ep), [])).body.id as string;
    const second = (await api.post(batch(ep))).body.id as string;
    const list = (await api.get(batch(ep))).body;
    expect(list).toMatchObject({ total: 2, hasMore: false });
    expect(list.batches.map((b: { id: string }) => b.id)).toEqual([second, first]);

    expect((await api.put(batch(ep, first), { name: "nightly" })).body).toMatchObject({ id: first, name: "nightly" });
    expect((await api.put(batch(ep, first), { color: "red" })).status).toBe(400);

    await api.post(batch(ep, first, "/requests"), { requests: [{ input: { keep: 1 } }, { input: { drop: 1 } }] });
    const [, drop] = (await api.get(batch(ep, first, "/requests"))).body.requests as { id: string }[];
    expect((await api.del(batch(ep, first, `/requests/${drop!.id}`))).status).toBe(204);
    expect((await api.del(batch(ep, first, `/requests/${drop!.id}`))).status).toBe(404);
    expect((await summary(ep, first)).requestTotal).toBe(1);
    await api.post(batch(ep, first, "/finalize"));
    expect((await api.del(batch(ep, first, `/requests/${drop!.id}`))).body.error).toBe("batch_not_draft");
    expect((await api.get(batch(ep, "batch_nope"))).status).toBe(404);
  });

  it("cancels: queued requests at once, running ones finish, then CANCELLED", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 2 });
    const id = (await api.post(batch(ep), sleeps(6, 5))).body.id as string;
    await api.post(batch(ep, id, "/finalize"));
    await eventually(async () => expect((await summary(ep, id)).requestInProgress).toBe(2));
    expect((await api.post(batch(ep, id, "/cancel"))).body).toEqual({ id, status: "FINALIZED" });
    const statuses = async () =>
      ((await api.get(batch(ep, id, "/requests"))).body.requests as { status: string }[]).map((r) => r.status);
    expect(await statuses()).toEqual(["IN_PROGRESS", "IN_PROGRESS", ...Array(4).fill("CANCELLED")]);
    await ctx.clock.advance(5000);
    await eventually(async () =>
      expect(await summary(ep, id)).toMatchObject({ status: "CANCELLED", requestCompleted: 2 }),
    );
    expect(await statuses()).toEqual(["COMPLETED", "COMPLETED", ...Array(4).fill("CANCELLED")]);
    // Cancelling what ended changes nothing; a cancelled DRAFT is CANCELLED at once.
    expect((await api.post(batch(ep, id, "/cancel"))).body.status).toBe("CANCELLED");
    const draft = (await api.post(batch(ep), sleeps(1))).body.id as string;
    expect((await api.post(batch(ep, draft, "/cancel"))).body.status).toBe("CANCELLED");
    expect((await api.post(batch(ep, draft, "/finalize"))).status).toBe(400);
  });

  it("fails a batch as a whole when told to: FAILED, its queued requests failed, the running one finishing", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const id = (await api.post(batch(ep), sleeps(3, 2))).body.id as string;
    await api.post(batch(ep, id, "/finalize"));
    await eventually(async () => expect((await summary(ep, id)).requestInProgress).toBe(1));
    const failed = await api.post(`/_emulator/endpoints/${ep}/batches/${id}/fail`, { reason: "GPU lost" });
    expect(failed.body).toMatchObject({ status: "FAILED", requestFailed: 2, requestInProgress: 1 });
    await ctx.clock.advance(2000);
    await eventually(async () =>
      expect(await summary(ep, id)).toMatchObject({ status: "FAILED", requestCompleted: 1 }),
    );
    const page = (await api.get(batch(ep, id, "/requests"))).body.requests as { status: string; error?: string }[];
    expect(page.slice(1)).toEqual([
      expect.objectContaining({ status: "FAILED", error: "GPU lost" }),
      expect.objectContaining({ status: "FAILED", error: "GPU lost" }),
    ]);
  });

  it("runs on workers of its own: a /run job does not wait behind a busy batch", async () => {
    const ep = await createEndpoint(api, { templateId: "sleep", workersMax: 1 });
    const id = (await api.post(batch(ep), sleeps(3, 60))).body.id as string;
    await api.post(batch(ep, id, "/finalize"));
    await eventually(async () => expect((await summary(ep, id)).requestInProgress).toBe(1));
    const job = await runJob(api, ep, { input: { seconds: 1 } });
    await settle();
    expect((await api.get(`/v2/${ep}/status/${job}`)).body.status).toBe("IN_PROGRESS");
    await ctx.clock.advance(1000);
    await eventually(async () => expect((await api.get(`/v2/${ep}/status/${job}`)).body.status).toBe("COMPLETED"));
    expect((await summary(ep, id)).requestCompleted).toBe(0);
    // The batch request's time runs on the emulator clock too.
    await ctx.clock.advance(59_000);
    await eventually(async () => expect((await summary(ep, id)).requestCompleted).toBe(1));
    const [first] = (await api.get(batch(ep, id, "/requests"))).body.requests as {
      startedAt: number;
      completedAt: number;
    }[];
    expect(first!.completedAt - first!.startedAt).toBe(60_000);
  });

  it("answers the platform's limits: 5,000 requests a batch, 10 active batches, 10 MiB a body", async () => {
    const ep = await createEndpoint(api, { templateId: "echo" });
    const many = (n: number) => Array.from({ length: n }, () => ({ input: {} }));
    const tooMany = await api.post(batch(ep), many(LIMITS.batchRequests + 1));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: "batch_too_large", message: expect.stringContaining("5000") });
    const id = (await api.post(batch(ep), many(4_999))).body.id as string;
    const over = await api.post(batch(ep, id, "/requests"), { requests: many(2) });
    expect(over.status).toBe(400);
    expect(over.body.message).toContain(`batch ${id} holds 4999`);
    expect((await api.post(batch(ep, id, "/requests"), { requests: many(1) })).body.requestTotal).toBe(5000);

    for (let i = 1; i < LIMITS.activeBatches; i++) expect((await api.post(batch(ep))).status).toBe(200);
    const eleventh = await api.post(batch(ep));
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toMatchObject({ error: "too_many_active_batches" });
    // A cancelled batch is no longer active.
    await api.post(batch(ep, id, "/cancel"));
    expect((await api.post(batch(ep))).status).toBe(200);

    const big = JSON.stringify({ requests: [{ input: { blob: "x".repeat(LIMITS.batchAppendBytes) } }] });
    const draft = ((await api.get(batch(ep))).body.batches as { id: string; status: string }[])[0]!.id;
    const tooBig = await api.send("POST", batch(ep, draft, "/requests"), big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toContain("10 MiB");
    expect((await api.post(batch(ep, draft, "/requests"), { requests: [{ nope: 1 }] })).status).toBe(400);
    expect((await api.get(batch("no-such-endpoint"))).status).toBe(404);
  });
});

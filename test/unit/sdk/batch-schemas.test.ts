import { describe, expect, it } from "vitest";
import { affinityRefusal } from "../../../sdk/jobs/pinned-fetch";
import { batchDone, BatchListSchema, type BatchSummary, BatchSummarySchema } from "../../../sdk/schemas";

const summary = (fields: Partial<BatchSummary>): BatchSummary => ({
  id: "batch_1",
  status: "FINALIZED",
  requestTotal: 10,
  requestInProgress: 0,
  requestCompleted: 0,
  requestFailed: 0,
  createdAt: 1_700_000_000_000,
  ...fields,
});

describe("batch states", () => {
  it("is done when completed + failed = total, a failed request not failing it; FAILED and CANCELLED end it", () => {
    expect(batchDone(summary({ requestCompleted: 9 }))).toBe(false);
    expect(batchDone(summary({ requestCompleted: 7, requestFailed: 3 }))).toBe(true);
    expect(batchDone(summary({ requestFailed: 10 }))).toBe(true);
    // A DRAFT never runs, so it is never done, even empty.
    expect(batchDone(summary({ status: "DRAFT", requestTotal: 0 }))).toBe(false);
    expect(batchDone(summary({ status: "CANCELLED" }))).toBe(true);
    expect(batchDone(summary({ status: "FAILED", requestCompleted: 2 }))).toBe(true);
    expect(batchDone(summary({ requestTotal: 0 }))).toBe(true);
  });

  it("reads createdAt as epoch milliseconds and keeps fields it does not know", () => {
    const parsed = BatchSummarySchema.parse({ ...summary({}), name: "nightly" });
    expect(parsed).toMatchObject({ createdAt: 1_700_000_000_000, name: "nightly" });
    expect(BatchSummarySchema.safeParse({ ...summary({}), createdAt: "2026-12-01T00:00:00Z" }).success).toBe(false);
  });

  it("reads the batch list leniently: a bare array, or an object holding it", () => {
    const items = [{ id: "b2", status: "DRAFT" }, { id: "b1" }];
    expect(BatchListSchema.parse(items)).toEqual(items);
    expect(BatchListSchema.parse({ batches: items, total: 2, hasMore: false })).toEqual(items);
    expect(BatchListSchema.parse({ items })).toEqual(items);
    expect(BatchListSchema.parse({ data: items, pagination: { hasNextPage: false } })).toEqual(items);
    expect(BatchListSchema.parse({ results: items, total: 2 })).toEqual(items);
    expect(BatchListSchema.safeParse({ total: 2 }).success).toBe(false);
    expect(BatchListSchema.safeParse([{ status: "DRAFT" }]).success).toBe(false);
  });
});

describe("a strict pin's refusal", () => {
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

  it("accepts both timeout reasons the platform's page gives, and affinity_worker_gone", async () => {
    expect(await affinityRefusal(answer(400, { error: "worker_timeout" }))).toBe("worker_timeout");
    expect(await affinityRefusal(answer(400, { message: "timed out waiting for worker abc" }))).toBe("worker_timeout");
    expect(await affinityRefusal(answer(400, "Timed out waiting for worker"))).toBe("worker_timeout");
    expect(await affinityRefusal(answer(404, { error: "affinity_worker_gone" }))).toBe("worker_gone");
    expect(await affinityRefusal(answer(404, { error: "not_found" }))).toBeUndefined();
    expect(await affinityRefusal(answer(400, { error: "bad_request" }))).toBeUndefined();
    const ok = answer(200, { error: "worker_timeout" });
    expect(await affinityRefusal(ok)).toBeUndefined();
    // The caller still reads the body.
    const gone = answer(404, { error: "affinity_worker_gone" });
    await affinityRefusal(gone);
    expect(await gone.json()).toEqual({ error: "affinity_worker_gone" });
  });
});

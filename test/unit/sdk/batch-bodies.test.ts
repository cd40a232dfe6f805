import { describe, expect, it } from "vitest";
import { RequestValidationError } from "../../../sdk/errors";
import { APPEND_FRAME_BYTES, AppendPart, batchBody, checkedBatchBody } from "../../../sdk/jobs/batch-bodies";
import { LIMITS } from "../../../sdk/schemas";

/** Splits serialized requests into append bodies as submitMany's batch path does. */
function split(texts: string[], maxRequests: number): number[] {
  const sizes: number[] = [];
  let part = new AppendPart(maxRequests);
  for (const text of texts) {
    if (part.add(text)) continue;
    sizes.push(part.take().count);
    part = new AppendPart(maxRequests);
    expect(part.add(text)).toBe(true);
  }
  if (part.size > 0) sizes.push(part.take().count);
  return sizes;
}

describe("batch bodies", () => {
  it("writes a create as a top-level array and an append as { requests }", () => {
    expect(batchBody("create", [])).toBe("[]");
    expect(batchBody("create", ['{"input":{}}'])).toBe('[{"input":{}}]');
    expect(batchBody("append", ['{"input":{"a":1}}', '{"input":{}}'])).toBe(
      '{"requests":[{"input":{"a":1}},{"input":{}}]}',
    );
    expect(APPEND_FRAME_BYTES).toBe(Buffer.byteLength('{"requests":[]}'));
  });

  it("splits by count: no part over its most", () => {
    const texts = Array.from({ length: 12 }, (_, i) => JSON.stringify({ input: { i } }));
    expect(split(texts, 5)).toEqual([5, 5, 2]);
    expect(split(texts, 12)).toEqual([12]);
  });

  it("splits by bytes: each body at most 10 MiB, its frame and commas counted", () => {
    // Three of these, two commas and the frame make exactly 10 MiB or a few bytes less.
    const third = "x".repeat(
      Math.floor((LIMITS.batchAppendBytes - APPEND_FRAME_BYTES - 2) / 3) - Buffer.byteLength('{"input":{"b":""}}'),
    );
    const text = JSON.stringify({ input: { b: third } });
    const parts = new AppendPart(5000);
    expect(parts.add(text) && parts.add(text) && parts.add(text)).toBe(true);
    expect(parts.add(text)).toBe(false);
    const { body, count } = parts.take();
    expect(count).toBe(3);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMITS.batchAppendBytes);
    expect(split(Array(7).fill(text), 5000)).toEqual([3, 3, 1]);
    expect(AppendPart.fits(LIMITS.batchAppendBytes - APPEND_FRAME_BYTES)).toBe(true);
    expect(AppendPart.fits(LIMITS.batchAppendBytes - APPEND_FRAME_BYTES + 1)).toBe(false);
  });

  it("refuses what no batch takes, naming the field, the value and the rule", () => {
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(RequestValidationError);
        return (error as RequestValidationError).problems[0]!;
      }
      throw new Error("not refused");
    };
    expect(refusal(() => checkedBatchBody("append", "nope", "c"))).toEqual({
      field: "requests",
      value: "string",
      rule: "must be an array of job requests",
    });
    expect(refusal(() => checkedBatchBody("append", [], "c")).rule).toBe("must hold at least one request");
    expect(checkedBatchBody("create", [], "c")).toBe("[]");
    const many = Array.from({ length: LIMITS.batchRequests + 1 }, () => ({ input: {} }));
    expect(refusal(() => checkedBatchBody("create", many, "c")).value).toBe("5001 requests");
    expect(checkedBatchBody("create", many.slice(1), "c").length).toBeGreaterThan(0);
    const half = { input: { b: "y".repeat(LIMITS.batchAppendBytes / 2) } };
    const big = refusal(() => checkedBatchBody("create", [half, half], "c"));
    expect(big.rule).toContain("create it with fewer and append the rest");
    expect(refusal(() => checkedBatchBody("append", [{ input: { n: 1n } }], "c"))).toMatchObject({
      field: "requests.0.input",
      value: "(not JSON)",
    });
    expect(refusal(() => checkedBatchBody("append", [{ input: {} }, { input: 3 }], "c")).field).toBe(
      "requests.1.input",
    );
    // A secret is never repeated in a refusal.
    const s3 = refusal(() => checkedBatchBody("append", [{ input: {}, s3Config: "key:secret" }], "c"));
    expect(s3).toMatchObject({ field: "requests.0.s3Config", value: "[secret]" });
  });
});

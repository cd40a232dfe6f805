import { describe, expect, it } from "vitest";
import { RequestValidationError, ResponseValidationError, V2 } from "../../../sdk";
import { type ListPage, readAllPages, walkItems, walkPages } from "../../../sdk/management/paged-list";

/** A list of `total` numbers served `size` at a time, recording every cursor and limit it was asked with. */
function pagedNumbers(total: number, size: number, last: Partial<ListPage<number>> = {}) {
  const asked: { cursor: string | undefined; limit: number | undefined }[] = [];
  const read = async (cursor: string | undefined, limit: number | undefined): Promise<ListPage<number>> => {
    asked.push({ cursor, limit });
    const from = cursor === undefined ? 0 : Number(cursor.slice(1));
    const items = Array.from({ length: Math.min(size, total - from) }, (_, i) => from + i);
    const more = from + size < total;
    return more ? { items, hasNextPage: true, nextCursor: `@${from + size}` } : { items, hasNextPage: false, ...last };
  };
  return { read, asked };
}

describe("reading a paged list to its end", () => {
  it("follows nextCursor while hasNextPage is true, sending each page's cursor and the same limit", async () => {
    const { read, asked } = pagedNumbers(25, 10);
    expect(await readAllPages(read, "/pods", { limit: 10 })).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(asked).toEqual([
      { cursor: undefined, limit: 10 },
      { cursor: "@10", limit: 10 },
      { cursor: "@20", limit: 10 },
    ]);
  });

  it.each([
    ["absent", {}],
    ["null", { nextCursor: null }],
    ["empty", { nextCursor: "" }],
    ["still set", { nextCursor: "@stale" }],
  ])("ends on hasNextPage false whatever nextCursor is (%s)", async (_, last) => {
    const { read, asked } = pagedNumbers(3, 2, last as Partial<ListPage<number>>);
    expect(await readAllPages(read, "/pods")).toEqual([0, 1, 2]);
    expect(asked).toHaveLength(2);
  });

  it("refuses a page that says hasNextPage without a cursor, instead of looping", async () => {
    const read = async (): Promise<ListPage<number>> => ({ items: [1], hasNextPage: true });
    const failure = readAllPages(read, "/templates");
    await expect(failure).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(failure).rejects.toThrow(
      "GET /templates: unexpected response body (pagination.nextCursor = undefined: must be given while hasNextPage is true)",
    );
  });

  it("refuses a cursor the walk already followed, which would never end", async () => {
    let calls = 0;
    const read = async (cursor: string | undefined): Promise<ListPage<number>> => {
      calls++;
      return { items: [calls], hasNextPage: true, nextCursor: cursor === "b" ? "a" : cursor === "a" ? "b" : "a" };
    };
    await expect(readAllPages(read, "/pods")).rejects.toThrow(/pagination.nextCursor = "a": repeats a cursor/);
    expect(calls).toBe(3);
    const same = async (): Promise<ListPage<number>> => ({ items: [], hasNextPage: true, nextCursor: "x" });
    await expect(readAllPages(same, "/pods")).rejects.toThrow(/repeats a cursor/);
  });

  it.each([0, 1001, 2.5, -1])("refuses limit %s before reading anything", async (limit) => {
    const { read, asked } = pagedNumbers(5, 2);
    const failure = readAllPages(read, "/pods", { limit });
    await expect(failure).rejects.toBeInstanceOf(RequestValidationError);
    await expect(failure).rejects.toThrow(/list \/pods: limit = .*: must be/);
    expect(asked).toEqual([]);
  });

  it("hands out pages and items lazily, reading the next page only when it is reached", async () => {
    const { read, asked } = pagedNumbers(30, 10);
    const items = walkItems(read, "/pods");
    const first: number[] = [];
    for await (const item of items) {
      first.push(item);
      if (first.length === 12) break;
    }
    expect(first).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(asked).toHaveLength(2);

    const pages: ListPage<number>[] = [];
    for await (const page of walkPages(pagedNumbers(30, 10).read, "/pods", { cursor: "@10" })) pages.push(page);
    expect(pages.map((p) => [p.items[0], p.hasNextPage, p.nextCursor])).toEqual([
      [10, true, "@20"],
      [20, false, undefined],
    ]);
  });
});

describe("the page schema of a v2 list", () => {
  const schema = V2.pagedList("pods", V2.NetworkVolumeSchema.pick({ id: true }));

  it("reads the items and the pagination object", () => {
    expect(schema.parse({ pods: [{ id: "a" }], pagination: { hasNextPage: true, nextCursor: "c1" } })).toEqual({
      items: [{ id: "a" }],
      hasNextPage: true,
      nextCursor: "c1",
    });
    expect(schema.parse({ pods: [], pagination: { hasNextPage: false, nextCursor: null } })).toEqual({
      items: [],
      hasNextPage: false,
      nextCursor: undefined,
    });
  });

  it("reads an answer without pagination (a list that does not page) as its one page", () => {
    expect(schema.parse({ pods: [{ id: "a" }] })).toEqual({ items: [{ id: "a" }], hasNextPage: false });
  });
});

import { describe, expect, it } from "vitest";
import { HttpError } from "../../../emulator/errors/http-errors";
import { Collection } from "../../../emulator/records/collection";
import { CursorCodec } from "../../../emulator/server/list-cursor";
import {
  cutPage,
  listParams,
  ListPager,
  type PageRequest,
  positionIn,
  readPageRequest,
} from "../../../emulator/server/list-pages";

const LIST = "GET /v2/pods";
const ME = "user_me";

function refusal(run: () => unknown): { status: number; message: string; field: string | undefined } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { status: error.statusCode, message: error.body.message, field: error.body.problems?.[0]?.field };
  }
  throw new Error("expected a refusal");
}

describe("the emulator's list cursors", () => {
  const codec = new CursorCodec();
  const claims = { list: LIST, params: "includeClusterPods=true", after: 42 };

  it("read back what they bind, for the account they were issued to", () => {
    const cursor = codec.encode(ME, claims);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.decode(ME, cursor)).toEqual({ ok: true, claims });
  });

  it("are foreign to another account, another emulator, and when altered", () => {
    const cursor = codec.encode(ME, claims);
    expect(codec.decode("user_other", cursor)).toEqual({ ok: false, why: "foreign" });
    expect(new CursorCodec().decode(ME, cursor)).toEqual({ ok: false, why: "foreign" });
    const [, mac] = cursor.split(".");
    const moved = Buffer.from(JSON.stringify([1, LIST, claims.params, 0])).toString("base64url");
    expect(codec.decode(ME, `${moved}.${mac}`)).toEqual({ ok: false, why: "foreign" });
  });

  it.each([
    "",
    "abc",
    "a.b.c",
    "!!.??",
    `${Buffer.from("[1]").toString("base64url")}.AAAA`,
    "e30.AAAAAAAAAAAAAAAAAAAAAA",
  ])("are malformed when they are no cursor at all (%j)", (token) =>
    expect(codec.decode(ME, token)).toEqual({ ok: false, why: "malformed" }),
  );
});

describe("a list request's limit and cursor", () => {
  const codec = new CursorCodec();
  const read = (query: Record<string, string | string[]>, list = LIST, account = ME) =>
    readPageRequest(query, list, account, codec, 1000);
  const issued = (params: string, after = 3) => codec.encode(ME, { list: LIST, params, after });

  it("defaults to the first page of the default size, and binds every other parameter, sorted", () => {
    expect(read({})).toEqual({ limit: 1000, after: 0, list: LIST, params: "" });
    expect(readPageRequest({}, LIST, ME, codec, 2).limit).toBe(2);
    expect(listParams({ b: "2", a: ["x", "y"], limit: "5", cursor: "c" })).toBe("a=x%2Cy&b=2");
  });

  it("resumes after the position of a cursor sent with the same parameters, any limit", () => {
    const cursor = issued("includeClusterPods=true", 7);
    expect(read({ includeClusterPods: "true", cursor, limit: "10" })).toMatchObject({ after: 7, limit: 10 });
  });

  it.each(["0", "1001", "-1", "2.5", "ten", "", "99999999"])("answers limit=%j with a 422 naming limit", (limit) => {
    expect(refusal(() => read({ limit }))).toMatchObject({
      status: 422,
      field: "limit",
      message: expect.stringContaining("must be a whole number from 1 to 1000"),
    });
  });

  it("answers 422 for a malformed cursor, an empty one, a foreign one, another list's, and other parameters", () => {
    expect(refusal(() => read({ cursor: "not-a-cursor" }))).toMatchObject({
      status: 422,
      field: "cursor",
      message: expect.stringContaining("is malformed"),
    });
    expect(refusal(() => read({ cursor: "" })).message).toContain("must not be empty");
    expect(refusal(() => read({ cursor: issued("") }, LIST, "user_other")).message).toContain(
      "was not issued to this account",
    );
    expect(refusal(() => read({ cursor: issued("") }, "GET /v2/templates")).message).toContain(
      "belongs to another list (GET /v2/pods), not GET /v2/templates",
    );
    expect(refusal(() => read({ cursor: issued("includeClusterPods=true") })).message).toContain(
      "was issued for other parameters (includeClusterPods=true; this request has no parameters)",
    );
  });
});

describe("cutting pages by position", () => {
  const request = (after: number, limit: number): PageRequest => ({ after, limit, list: LIST, params: "" });
  const issue = (after: number) => `after:${after}`;

  it("cuts pages in position order, with the next cursor only while more follow", () => {
    const items = ["a", "b", "c", "d", "e"];
    const at = (_: string, i: number) => i + 1;
    expect(cutPage(items, at, request(0, 2), issue)).toEqual({
      items: ["a", "b"],
      pagination: { hasNextPage: true, nextCursor: "after:2" },
    });
    expect(cutPage(items, at, request(4, 2), issue)).toEqual({ items: ["e"], pagination: { hasNextPage: false } });
    expect(cutPage(items, at, request(3, 2), issue)).toEqual({ items: ["d", "e"], pagination: { hasNextPage: false } });
  });

  it("never repeats or skips a record that existed at the first page while records come and go", async () => {
    const records = new Collection<{ id: string }>(async () => {});
    for (let i = 0; i < 7; i++) await records.put({ id: `r${i}` });
    const seen: string[] = [];
    let after = 0;
    for (let page = 0; page < 10; page++) {
      const cut = cutPage(records.values(), positionIn(records), request(after, 3), (a) => String(a));
      seen.push(...cut.items.map((r) => r.id));
      if (!cut.pagination.hasNextPage) break;
      after = Number(cut.pagination.nextCursor);
      // Between pages: a record is made, one already read is deleted, one not yet read is replaced.
      await records.put({ id: `new${page}` });
      await records.delete(seen[0]!);
      await records.put({ id: "r6" });
    }
    expect(seen.filter((id) => id.startsWith("r"))).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r6"]);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("the page size", () => {
  it.each([0, 1001, 2.5])("refuses a default page size of %s", (size) => {
    expect(() => new ListPager(size)).toThrow("must be a whole number from 1 to 1000");
  });
});

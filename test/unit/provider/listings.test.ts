import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  changing,
  forgetListings,
  READ_MS,
  readListed,
  type ResourceSource,
  SHARED_MS,
  sharedListing,
  withChangeTracking,
} from "../../../provider/listings";
import { configureDirect } from "../../../provider/provider-config";
import { NotFoundError } from "../../../sdk/errors";

type Volume = { id: string; size: number };

/** An account's volumes behind a list and a GET that count their calls, like the platform's. */
function account(...volumes: Volume[]) {
  const held = new Map(volumes.map((v) => [v.id, { ...v }]));
  const calls = { list: 0, get: [] as string[] };
  const source: ResourceSource<Volume> = {
    owner: {},
    kind: "networkVolumes",
    list: vi.fn(async () => {
      calls.list++;
      return [...held.values()].map((v) => ({ ...v }));
    }),
    get: vi.fn(async (id: string) => {
      calls.get.push(id);
      const v = held.get(id);
      if (!v) throw new NotFoundError(404, { method: "GET", path: `/v2/network-volumes/${id}` }, undefined, undefined);
      return { ...v };
    }),
  };
  return { held, calls, source };
}

const readAll = (source: ResourceSource<Volume>, ids: string[]) =>
  Promise.all(ids.map((id) => readListed(source, id).catch((err: Error) => err.name)));

beforeEach(() => forgetListings());
afterEach(() => vi.useRealTimers());

describe("readListed", () => {
  it("answers every read of a refresh from one listing, and confirms a missing resource with a GET", async () => {
    const { calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 }, { id: "c", size: 30 });
    const read = await readAll(source, ["a", "b", "c", "gone"]);
    expect(read).toEqual([{ id: "a", size: 10 }, { id: "b", size: 20 }, { id: "c", size: 30 }, "NotFoundError"]);
    expect(calls).toEqual({ list: 1, get: ["gone"] });
  });

  it("answers each resource from a listing once: a second read of it lists again and sees the change", async () => {
    const { held, calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 });
    await readAll(source, ["a"]);
    held.get("a")!.size = 99; // changed outside Pulumi between two operations
    expect(await readListed(source, "a")).toEqual({ id: "a", size: 99 });
    expect(calls.list).toBe(2);
    // The second listing serves b once too; then b lists again.
    await readListed(source, "b");
    await readListed(source, "b");
    expect(calls).toEqual({ list: 3, get: [] });
  });

  it("drops every listing when a change starts or ends, of any resource type", async () => {
    const volumes = account({ id: "a", size: 10 }, { id: "b", size: 20 });
    await readAll(volumes.source, ["a"]);
    await changing(async () => {
      volumes.held.delete("b"); // e.g. a pod's delete, or this volume's own
    });
    expect(await readAll(volumes.source, ["b"])).toEqual(["NotFoundError"]);
    // A new listing, which no longer holds b; the GET confirms it gone.
    expect(volumes.calls).toEqual({ list: 2, get: ["b"] });
  });

  it("reads by id while a change is in flight, and never keeps a listing asked for then", async () => {
    const { held, calls, source } = account({ id: "a", size: 10 });
    let finish!: () => void;
    const inFlight = changing(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(await readListed(source, "a")).toEqual({ id: "a", size: 10 });
    expect(calls).toEqual({ list: 0, get: ["a"] });
    // A create's lookup lists during the change: that listing must not answer later reads.
    await sharedListing(source.owner, source.kind, source.list);
    finish();
    await inFlight;
    held.get("a")!.size = 11;
    expect(await readListed(source, "a")).toEqual({ id: "a", size: 11 });
    expect(calls).toEqual({ list: 2, get: ["a"] });
  });

  it("falls back to a GET when a change started while the listing was on its way", async () => {
    const { calls, source } = account({ id: "a", size: 10 });
    const reading = readListed(source, "a");
    const change = changing(async () => undefined);
    expect(await reading).toEqual({ id: "a", size: 10 });
    await change;
    expect(calls).toEqual({ list: 1, get: ["a"] });
  });

  it("stops answering READ_MS after the listing arrived", async () => {
    vi.useFakeTimers();
    const { calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 });
    await readAll(source, ["a"]);
    vi.advanceTimersByTime(READ_MS - 1);
    await readAll(source, ["b"]);
    expect(calls.list).toBe(1);
    await readAll(source, ["a"]); // served: lists again
    vi.advanceTimersByTime(READ_MS);
    await readAll(source, ["b"]);
    expect(calls).toEqual({ list: 3, get: [] });
  });

  it("keeps listings per client: another configuration lists its own account", async () => {
    const first = account({ id: "a", size: 10 });
    const second = account({ id: "a", size: 50 });
    const [one, two] = await Promise.all([readListed(first.source, "a"), readListed(second.source, "a")]);
    expect([one, two]).toEqual([
      { id: "a", size: 10 },
      { id: "a", size: 50 },
    ]);
    expect([first.calls.list, second.calls.list]).toEqual([1, 1]);
  });

  it("forgets the listings when the configuration changes (another key, URL or account), not when it is set again", async () => {
    const { calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 }, { id: "c", size: 30 });
    configureDirect({ apiKey: "first", apiUrl: "http://127.0.0.1:1/v2" });
    await readListed(source, "a");
    configureDirect({ apiKey: "first", apiUrl: "http://127.0.0.1:1/v2" });
    await readListed(source, "b");
    expect(calls.list).toBe(1);
    configureDirect({ apiKey: "second", apiUrl: "http://127.0.0.1:1/v2" });
    await readListed(source, "c");
    expect(calls).toEqual({ list: 2, get: [] });
    configureDirect({});
  });

  it("reads by id while the listing failed, without listing again for each read", async () => {
    const { calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 });
    vi.mocked(source.list).mockRejectedValueOnce(new Error("boom"));
    expect(await readAll(source, ["a", "b"])).toEqual([
      { id: "a", size: 10 },
      { id: "b", size: 20 },
    ]);
    expect(calls).toEqual({ list: 0, get: ["a", "b"] });
    expect(source.list).toHaveBeenCalledTimes(1);
  });
});

describe("sharedListing and the refresh's listings", () => {
  it("lets the lookups before creates use a listing a refresh took, even after changes", async () => {
    const { calls, source } = account({ id: "a", size: 10 });
    await readAll(source, ["a"]);
    await changing(async () => {
      expect(await sharedListing(source.owner, source.kind, source.list)).toEqual([{ id: "a", size: 10 }]);
    });
    expect(await sharedListing(source.owner, source.kind, source.list)).toEqual([{ id: "a", size: 10 }]);
    expect(calls.list).toBe(1);
  });

  it("lists again for the lookups SHARED_MS after the listing arrived", async () => {
    vi.useFakeTimers();
    const { calls, source } = account({ id: "a", size: 10 });
    await sharedListing(source.owner, source.kind, source.list);
    vi.advanceTimersByTime(SHARED_MS);
    await sharedListing(source.owner, source.kind, source.list);
    expect(calls.list).toBe(2);
  });
});

describe("withChangeTracking", () => {
  it("runs create, update and delete as changes, and leaves the other methods alone", async () => {
    const { calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 });
    const provider = withChangeTracking({
      read: (id: string) => readListed(source, id),
      delete: async (_id: string) => undefined,
      check: async () => "checked",
    });
    await provider.read("a");
    await provider.delete("x");
    await provider.read("b"); // the delete made the first listing stale
    expect(calls.list).toBe(2);
    expect(await provider.check()).toBe("checked");
    await provider.read("a"); // check changed nothing: the second listing still answers
    expect(calls).toEqual({ list: 2, get: [] });
  });

  it("marks a change that failed too (it may have taken effect)", async () => {
    const { calls, source } = account({ id: "a", size: 10 }, { id: "b", size: 20 });
    const provider = withChangeTracking({
      create: async () => {
        throw new Error("lost answer");
      },
    });
    await readListed(source, "a");
    await expect(provider.create()).rejects.toThrow("lost answer");
    await readListed(source, "b");
    expect(calls.list).toBe(2);
  });
});

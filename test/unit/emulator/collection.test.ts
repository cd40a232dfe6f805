import { describe, expect, it } from "vitest";
import { Collection } from "../../../emulator/records/collection";
import { COLLECTION_NAMES, SavedAccountSchema } from "../../../emulator/store/collections";

type Rec = { id: string; n: number };

/** A collection whose persist calls are recorded, resolving only when the test says so. */
function recorded(hooks: ConstructorParameters<typeof Collection<Rec>>[1] = {}) {
  const events: string[] = [];
  let pending: Array<() => void> = [];
  const persist = () => {
    events.push("persist");
    return new Promise<void>((resolve) => pending.push(resolve));
  };
  const collection = new Collection<Rec>(persist, {
    onPut: (r) => {
      events.push(`put ${r.id}`);
      hooks.onPut?.(r);
    },
    onDelete: (id) => {
      events.push(`delete ${id}`);
      hooks.onDelete?.(id);
    },
  });
  const flush = () => {
    for (const resolve of pending) resolve();
    pending = [];
  };
  return { collection, events, flush };
}

describe("a store collection", () => {
  it("persists on every write, and a write resolves only once persisted", async () => {
    const { collection, events, flush } = recorded();
    let done = false;
    const write = collection.put({ id: "a", n: 1 }).then(() => (done = true));
    await Promise.resolve();
    expect(collection.get("a")).toEqual({ id: "a", n: 1 });
    expect(done).toBe(false);
    flush();
    await write;
    expect(done).toBe(true);
    const removal = collection.delete("a");
    flush();
    await removal;
    expect(collection.has("a")).toBe(false);
    expect(events).toEqual(["put a", "persist", "delete a", "persist"]);
  });

  it("runs the delete hook only for a record that existed", async () => {
    const { collection, events, flush } = recorded();
    const removal = collection.delete("missing");
    flush();
    await removal;
    expect(events).toEqual(["persist"]);
  });

  it("loads and clears without persisting, running the hooks of each record", () => {
    const { collection, events } = recorded();
    collection.load([
      { id: "a", n: 1 },
      { id: "b", n: 2 },
    ]);
    expect([...collection.keys()]).toEqual(["a", "b"]);
    expect(collection.size).toBe(2);
    collection.clear();
    expect(collection.size).toBe(0);
    expect(events).toEqual(["put a", "put b", "delete a", "delete b"]);
  });
});

describe("the collection declaration", () => {
  it("gives the state file one array per collection, empty for a collection an older file lacks", () => {
    const saved = SavedAccountSchema.parse({
      networkVolumes: [{ id: "v", name: "n", size: 10, dataCenter: "EU-RO-1", type: "STANDARD" }],
    });
    expect(Object.keys(saved).sort()).toEqual([...COLLECTION_NAMES].sort());
    for (const name of COLLECTION_NAMES) if (name !== "networkVolumes") expect(saved[name]).toEqual([]);
  });

  it("keeps a field the schema does not name (written by a newer emulator) through a load", () => {
    const saved = SavedAccountSchema.parse({
      networkVolumes: [
        { id: "v", name: "n", size: 10, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE", encrypted: true },
      ],
    });
    expect(saved.networkVolumes[0]).toMatchObject({ type: "HIGH_PERFORMANCE", encrypted: true });
  });
});

import { describe, expect, it, vi } from "vitest";
import { createOnce, forgetSharedListings, sharedListing } from "../../../provider/create-once";
import { BadRequestError, ConnectionError, InternalServerError } from "../../../sdk/errors";

const req = { method: "POST", path: "/v1/networkvolumes" };
const lost = () => new ConnectionError(req, true);
const boom = () => new InternalServerError(500, req, "boom", undefined);
const refused = () => new BadRequestError(400, req, "bad", undefined);

describe("createOnce", () => {
  it("takes over what an interrupted earlier run left behind, without creating", async () => {
    const create = vi.fn();
    const r = await createOnce({ find: async () => "left-over", create });
    expect(r).toEqual({ resource: "left-over", existed: true });
    expect(create).not.toHaveBeenCalled();
  });

  it("creates when nothing is found", async () => {
    expect(await createOnce({ find: async () => undefined, create: async () => "new" })).toEqual({
      resource: "new",
      existed: false,
    });
  });

  it("finds the resource a create with a lost answer did create, instead of creating again", async () => {
    const found = ["created-by-lost-call"];
    const find = vi.fn(async () => (find.mock.calls.length > 1 ? found[0] : undefined));
    const create = vi.fn(async () => {
      throw lost();
    });
    expect(await createOnce({ find, create })).toEqual({ resource: "created-by-lost-call", existed: true });
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("repeats a create only after the lookup proves nothing was created", async () => {
    let calls = 0;
    const create = vi.fn(async () => {
      calls++;
      if (calls < 3) throw boom();
      return "third-time";
    });
    expect(await createOnce({ find: async () => undefined, create })).toEqual({
      resource: "third-time",
      existed: false,
    });
    expect(create).toHaveBeenCalledTimes(3);
  });

  it("looks again after the pause, for a platform whose list lags behind", async () => {
    let finds = 0;
    const find = async () => (++finds === 3 ? "showed-up-late" : undefined);
    const create = vi.fn(async () => {
      throw boom();
    });
    expect(await createOnce({ find, create })).toEqual({ resource: "showed-up-late", existed: true });
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("gives up after the attempt cap with the create's error", async () => {
    const create = vi.fn(async () => {
      throw boom();
    });
    await expect(createOnce({ find: async () => undefined, create, attempts: 2 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(create).toHaveBeenCalledTimes(2);
  });

  it("never repeats a create of a user-named resource, whose lookup would not be conclusive", async () => {
    const create = vi.fn(async () => {
      throw lost();
    });
    await expect(createOnce({ find: undefined, create })).rejects.toBeInstanceOf(ConnectionError);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("does not look up or repeat after a refusal", async () => {
    const find = vi.fn(async () => undefined);
    const create = vi.fn(async () => {
      throw refused();
    });
    await expect(createOnce({ find, create })).rejects.toBeInstanceOf(BadRequestError);
    expect(find).toHaveBeenCalledTimes(1);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("reports the create's error when the lookup after it fails too", async () => {
    let finds = 0;
    const find = async () => {
      finds++;
      if (finds > 1) throw new Error("lookup failed");
      return undefined;
    };
    const create = async (): Promise<string> => {
      throw lost();
    };
    await expect(createOnce({ find, create })).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe("singleMatch", () => {
  it("takes over one match, none means create, several mean stop and ask", async () => {
    const { singleMatch } = await import("../../../provider/own-resource");
    expect(singleMatch([], "volumes")).toBeUndefined();
    expect(singleMatch([{ id: "a" }], "volumes")).toEqual({ id: "a" });
    expect(() => singleMatch([{ id: "a" }, { id: "b" }], 'network volumes named "v-1" in EU-RO-1')).toThrow(
      '2 network volumes named "v-1" in EU-RO-1 already exist (a, b); set adoptId to the one to keep and delete the others',
    );
  });
});

describe("createOnce's lookups", () => {
  it("looks before the first create in the run's shared listing, and after a failed create in a fresh one", async () => {
    const find = vi.fn(async (_fresh: boolean) => undefined);
    let calls = 0;
    const create = vi.fn(async () => {
      if (++calls === 1) throw lost();
      return "second";
    });
    await createOnce({ find, create });
    expect(find.mock.calls.map(([fresh]) => fresh)).toEqual([false, true, true]);
  });
});

describe("sharedListing", () => {
  it("lists once for every lookup of a kind, however many creates ask at once", async () => {
    forgetSharedListings();
    const owner = {};
    const list = vi.fn(async () => ["a", "b"]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sharedListing(owner, "volumes", list)));
    expect(list).toHaveBeenCalledTimes(1);
    expect(new Set(answers).size).toBe(1);
    await sharedListing(owner, "endpoints", list);
    await sharedListing({}, "volumes", list);
    expect(list).toHaveBeenCalledTimes(3);
  });

  it("does not keep a failed listing: the next lookup lists again", async () => {
    forgetSharedListings();
    const owner = {};
    const list = vi.fn(async () => {
      if (list.mock.calls.length === 1) throw boom();
      return ["x"];
    });
    await expect(sharedListing(owner, "volumes", list)).rejects.toThrow("boom");
    await expect(sharedListing(owner, "volumes", list)).resolves.toEqual(["x"]);
    expect(list).toHaveBeenCalledTimes(2);
  });
});

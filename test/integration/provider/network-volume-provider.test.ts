import { describe, expect, it } from "vitest";
import { networkVolumeProvider as provider } from "../../../provider/network-volume-provider";
import { API_VERSIONS, useProviderAgainstEmulator } from "./emulator-fixture";

const inputs = (over: Record<string, unknown> = {}) => ({
  name: "weights",
  size: 10,
  dataCenterId: "EU-RO-1",
  __autoNamed: false,
  ...over,
});

describe.each(API_VERSIONS)("the NetworkVolume provider against the emulator, on %s", (version) => {
  const fixture = useProviderAgainstEmulator(version);
  /** What the platform answers besides the declared fields: v2's storage tier. */
  const tier = version === "v2" ? { type: "STANDARD" } : {};
  const route = (method: string) => `${method} ${version === "v2" ? "/v2/network-volumes" : "/v1/networkvolumes"}`;

  it("creates a volume and returns every output; the storage tier only when declared", async () => {
    const { id, outs } = await provider.create(inputs());
    expect(outs).toEqual({ name: "weights", size: 10, dataCenterId: "EU-RO-1" });
    expect(await fixture.current.client.networkVolumes.get(id)).toEqual({
      id,
      name: "weights",
      size: 10,
      dataCenterId: "EU-RO-1",
      ...tier,
    });
  });

  it("grows and renames in place, keeping the id", async () => {
    const { id, outs } = await provider.create(inputs({ name: "a" }));
    const updated = await provider.update(id, outs, inputs({ name: "b", size: 25 }));
    expect(updated.outs).toMatchObject({ name: "b", size: 25 });
    expect(await fixture.current.client.networkVolumes.get(id)).toMatchObject({ id, name: "b", size: 25 });
  });

  it("reads drift made outside Pulumi and returns matching inputs", async () => {
    const { id, outs } = await provider.create(inputs({ name: "drift" }));
    await fixture.current.client.networkVolumes.update(id, { name: "renamed-by-hand", size: 30 });
    const read = await provider.read(id, outs);
    expect(read).toEqual({
      id,
      props: { name: "renamed-by-hand", size: 30, dataCenterId: "EU-RO-1" },
      inputs: { name: "renamed-by-hand", size: 30, dataCenterId: "EU-RO-1" },
    });
  });

  it("reports a volume deleted outside Pulumi as gone, and deleting it again succeeds", async () => {
    const { id, outs } = await provider.create(inputs({ name: "gone" }));
    await fixture.current.client.networkVolumes.delete(id);
    expect(await provider.read(id, outs)).toEqual({});
    await expect(provider.delete(id)).resolves.toBeUndefined();
  });

  it("deletes a volume", async () => {
    const { id } = await provider.create(inputs({ name: "delete-me" }));
    await provider.delete(id);
    await expect(fixture.current.client.networkVolumes.get(id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("adopts an existing volume, converging its name and size, without creating another", async () => {
    const existing = await fixture.current.client.networkVolumes.create({
      name: "made-by-hand",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    const before = (await fixture.current.client.networkVolumes.list()).length;
    const { id, outs } = await provider.create(inputs({ name: "adopted", size: 12, adoptId: existing.id }));
    expect(id).toBe(existing.id);
    expect(outs).toEqual({ name: "adopted", size: 12, dataCenterId: "EU-RO-1" });
    expect((await fixture.current.client.networkVolumes.list()).length).toBe(before);
  });

  it("refuses to adopt a volume in another data center or one larger than declared", async () => {
    const existing = await fixture.current.client.networkVolumes.create({
      name: "x",
      size: 50,
      dataCenterId: "US-TX-3",
    });
    await expect(provider.create(inputs({ adoptId: existing.id }))).rejects.toThrow(
      `adoptId = "${existing.id}": the volume is in data center US-TX-3, but dataCenterId is EU-RO-1`,
    );
    await expect(provider.create(inputs({ adoptId: existing.id, dataCenterId: "US-TX-3", size: 10 }))).rejects.toThrow(
      "the volume has 50 GB and size is 10 GB; volumes cannot shrink",
    );
    await expect(provider.create(inputs({ adoptId: "nope" }))).rejects.toThrow(
      'adoptId = "nope": no network volume with this id exists in this account',
    );
  });

  it("finds an auto-named volume left behind by an interrupted create instead of creating a duplicate", async () => {
    const leftover = await fixture.current.client.networkVolumes.create({
      name: "cache-k3j9x0a",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    const { id } = await provider.create(inputs({ name: "cache-k3j9x0a", __autoNamed: true }));
    expect(id).toBe(leftover.id);
    expect((await fixture.current.client.networkVolumes.list()).filter((v) => v.name === "cache-k3j9x0a")).toHaveLength(
      1,
    );
  });

  it("stops instead of guessing when several volumes already carry the auto-name", async () => {
    const a = await fixture.current.client.networkVolumes.create({
      name: "dup-abcdefg",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    const b = await fixture.current.client.networkVolumes.create({
      name: "dup-abcdefg",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    await expect(provider.create(inputs({ name: "dup-abcdefg", __autoNamed: true }))).rejects.toThrow(
      `2 network volumes named "dup-abcdefg" in EU-RO-1 already exist (${a.id}, ${b.id}); set adoptId to the one to keep and delete the others`,
    );
  });

  it("lists the account once for all the creates of a run, not once per create", async () => {
    await fixture.current.takeRequestCounts();
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => provider.create(inputs({ name: `fleet${i}-abcdefg`, __autoNamed: true }))),
    );
    expect(new Set(created.map((c) => c.id)).size).toBe(8);
    const counts = await fixture.current.takeRequestCounts();
    expect(counts).toEqual({ [route("GET")]: 1, [route("POST")]: 8 });
  });

  it("reads a match of the shared listing again, and creates when it was deleted since", async () => {
    const leftover = await fixture.current.client.networkVolumes.create({
      name: "late-abcdefg",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    await provider.create(inputs({ name: "first-abcdefg", __autoNamed: true })); // takes the shared listing
    await fixture.current.client.networkVolumes.delete(leftover.id);
    const { id } = await provider.create(inputs({ name: "late-abcdefg", __autoNamed: true }));
    expect(id).not.toBe(leftover.id);
    expect(await fixture.current.client.networkVolumes.get(id)).toMatchObject({ name: "late-abcdefg" });
  });

  it("never adopts by name when the user chose the name, since names are not unique", async () => {
    const other = await fixture.current.client.networkVolumes.create({
      name: "shared-name",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    const { id } = await provider.create(inputs({ name: "shared-name" }));
    expect(id).not.toBe(other.id);
  });

  it("records an adopted volume in state when converging it fails (partial create)", async () => {
    const existing = await fixture.current.client.networkVolumes.create({
      name: "partial",
      size: 10,
      dataCenterId: "EU-RO-1",
    });
    await fixture.current.setFaults([{ route: route("PATCH"), errorRate: 1 }]);
    try {
      const err = await provider.create(inputs({ name: "partial-2", size: 11, adoptId: existing.id })).catch((e) => e);
      expect(err).toMatchObject({
        id: existing.id,
        properties: { name: "partial", size: 10, dataCenterId: "EU-RO-1" },
      });
      expect(err.message).toMatch(`created ${existing.id}, but could not finish configuring it`);
    } finally {
      await fixture.current.setFaults([]);
    }
  });
});

describe("a storage tier through the NetworkVolume provider", () => {
  const fixture = useProviderAgainstEmulator("v2");

  it("creates a HIGH_PERFORMANCE volume on v2, keeps the tier in its outputs, and replaces on a tier change", async () => {
    const { id, outs } = await provider.create(inputs({ type: "HIGH_PERFORMANCE" }));
    expect(outs).toEqual({ name: "weights", size: 10, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });
    expect(await fixture.current.client.networkVolumes.get(id)).toMatchObject({ type: "HIGH_PERFORMANCE" });
    expect(await provider.read(id, outs)).toMatchObject({ props: outs, inputs: outs });
    expect(await provider.diff(id, outs, { ...outs, type: "STANDARD" })).toMatchObject({ replaces: ["type"] });
  });
});

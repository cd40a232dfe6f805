import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { forgetListings } from "../../../provider/listings";
import { secretProvider as provider } from "../../../provider/secret-provider";
import { useProviderAgainstEmulator } from "./emulator-fixture";

const VALUE = "ghp_providerIntegrationValue0123456789AB";
const inputs = (over: Record<string, unknown> = {}) => ({ name: "gh-token", value: VALUE, ...over });

describe("the Secret provider against the emulator", () => {
  const fixture = useProviderAgainstEmulator("v2");
  const secrets = () => fixture.current.client.v2.account.secrets;

  it("creates a secret with its reference, rotates and describes it in place, deletes it", async () => {
    const { id, outs } = await provider.create(inputs({ description: "CI token" }));
    const made = await secrets().get(id);
    expect(outs).toEqual({
      name: "gh-token",
      value: VALUE,
      description: "CI token",
      reference: "{{ RUNPOD_SECRET_gh-token }}",
      valueLastUpdatedAt: made.valueLastUpdatedAt,
    });
    await sleep(5);
    const rotated = await provider.update(id, outs, inputs({ value: `${VALUE}-2`, description: "CI token" }));
    const after = await secrets().get(id);
    expect(after.valueLastUpdatedAt).not.toBe(made.valueLastUpdatedAt);
    expect(rotated.outs).toMatchObject({ value: `${VALUE}-2`, valueLastUpdatedAt: after.valueLastUpdatedAt });
    const described = await provider.update(id, rotated.outs!, inputs({ value: `${VALUE}-2`, description: "" }));
    expect(described.outs).not.toHaveProperty("description");
    expect((await secrets().get(id)).valueLastUpdatedAt).toBe(after.valueLastUpdatedAt);
    await provider.delete(id);
    await provider.delete(id); // already gone: still converges
    expect(await secrets().list()).toEqual([]);
  });

  it("refreshes a description changed outside, and a rotation outside as a value it no longer knows", async () => {
    const { id, outs } = await provider.create(inputs({ name: "refresh-me" }));
    const { valueLastUpdatedAt: _setAt, ...asInputs } = outs;
    expect(await provider.read(id, outs)).toEqual({ id, props: outs, inputs: asInputs });
    await secrets().update(id, { description: "set by hand" });
    const described = await provider.read(id, outs);
    expect(described.props).toEqual({ ...outs, description: "set by hand" });
    await sleep(5);
    await secrets().update(id, { value: "rotated by hand" });
    const refreshed = await provider.read(id, described.props);
    expect(refreshed.props).not.toHaveProperty("value");
    expect(refreshed.props!.valueLastUpdatedAt).not.toBe(outs.valueLastUpdatedAt);
    // The next preview sees the value as changed, and `up` sets the program's value again.
    const diff = await provider.diff(id, refreshed.props!, inputs({ name: "refresh-me" }));
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const restored = await provider.update(id, refreshed.props!, inputs({ name: "refresh-me" }));
    expect(restored.outs).toMatchObject({ value: VALUE });
    await secrets().delete(id);
    expect(await provider.read(id, restored.outs!)).toEqual({});
  });

  it("adopts an existing secret by id, setting the value again; refuses one of another name", async () => {
    const existing = await secrets().create({ name: "made-by-hand", value: "old", description: "old" });
    await sleep(5);
    const adopted = await provider.create(inputs({ name: "made-by-hand", adoptId: existing.id, description: "new" }));
    expect(adopted.id).toBe(existing.id);
    expect(adopted.outs).toMatchObject({ name: "made-by-hand", value: VALUE, description: "new" });
    // The value cannot be compared, so adoption sets it: a rotation.
    expect((await secrets().get(existing.id)).valueLastUpdatedAt).not.toBe(existing.valueLastUpdatedAt);
    await expect(provider.create(inputs({ name: "other", adoptId: existing.id }))).rejects.toThrow(
      `adoptId = "${existing.id}": the secret has name made-by-hand, but name is other; name cannot change in place, so set it to made-by-hand`,
    );
    await expect(provider.create(inputs({ adoptId: "nosuchsecret" }))).rejects.toThrow(
      'adoptId = "nosuchsecret": no secret with this id exists in this account',
    );
  });

  it("reads every secret of a refresh with one list call, and a deleted one by id (gone)", async () => {
    const made = await Promise.all(["a", "b", "c"].map((n) => provider.create(inputs({ name: `listed-${n}` }))));
    await secrets().update(made[0]!.id, { description: "set by hand" });
    await secrets().delete(made[1]!.id);
    forgetListings();
    await fixture.current.takeRequestCounts();
    const read = await Promise.all(made.map(({ id, outs }) => provider.read(id, outs)));
    expect(read.map((r) => r.props?.description)).toEqual(["set by hand", undefined, undefined]);
    expect(read[1]).toEqual({});
    expect(await fixture.current.takeRequestCounts()).toEqual({
      "GET /v2/account/secrets": 1,
      "GET /v2/account/secrets/:id": 1,
    });
  });

  it("finds an auto-named secret a lost create left behind instead of failing on the taken name", async () => {
    const leftover = await secrets().create({ name: "auto-abc1234", value: "from a killed run" });
    const { id, outs } = await provider.create(inputs({ name: "auto-abc1234", __autoNamed: true }));
    expect(id).toBe(leftover.id);
    expect(outs).toMatchObject({ name: "auto-abc1234", value: VALUE });
  });
});

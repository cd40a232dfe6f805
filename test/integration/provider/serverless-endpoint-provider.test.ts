import { describe, expect, it } from "vitest";
import { serverlessEndpointProvider as provider } from "../../../provider/serverless-endpoint-provider";
import { API_VERSIONS, useProviderAgainstEmulator } from "./emulator-fixture";

const inputs = (over: Record<string, unknown> = {}) => ({
  templateId: "echo",
  name: "api",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  workersMin: 0,
  workersMax: 2,
  __autoNamed: false,
  ...over,
});

describe.each(API_VERSIONS)("the ServerlessEndpoint provider against the emulator, on %s", (version) => {
  const fixture = useProviderAgainstEmulator(version);

  it("creates an endpoint and returns the declared properties as the platform holds them, plus its job and health URLs", async () => {
    const { id, outs } = await provider.create(inputs({ idleTimeout: 7 }));
    const live = await fixture.current.client.endpoints.get(id);
    // Exactly what the program set (what refresh compares), in its order, plus name, template and
    // URLs; platform defaults of unset properties and bookkeeping (createdAt, version, ...) stay out of state.
    const url = `${fixture.current.emulator.queueUrl}/${id}`;
    expect(outs).toEqual({
      templateId: "echo",
      name: "api",
      gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 7,
      url,
      healthUrl: `${url}/health`,
    });
    expect(live).toMatchObject({ gpuCount: 1, scalerType: "QUEUE_DELAY" });
    // v2 answers no template link: the state keeps the declared one, and a read keeps it too.
    expect(live.templateId).toBe(version === "v1" ? "echo" : undefined);
    expect((await provider.read(id, outs)).props).toEqual(outs);
  });

  it("changes workers in place, and reads the GPU list back in the program's order", async () => {
    const { id, outs } = await provider.create(inputs({ name: "workers" }));
    const news = inputs({ name: "workers", workersMax: 5 });
    const { outs: after } = await provider.update(id, outs, news);
    expect(after).toMatchObject({ gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"], workersMax: 5 });
    expect(await fixture.current.client.endpoints.get(id)).toMatchObject({ id, workersMax: 5 });
    expect((await provider.read(id, after)).inputs).toMatchObject({ gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"] });
  });

  it("detects a worker count changed outside Pulumi", async () => {
    const { id, outs } = await provider.create(inputs({ name: "drift" }));
    await fixture.current.client.endpoints.update(id, { workersMax: 7 });
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ workersMax: 7 });
    expect(read.inputs).toMatchObject({ workersMax: 7, templateId: "echo", name: "drift" });
    expect(read.inputs).not.toHaveProperty("createdAt");
  });

  it("reports an endpoint deleted outside Pulumi as gone and tolerates deleting it again", async () => {
    const { id, outs } = await provider.create(inputs({ name: "gone" }));
    await fixture.current.client.endpoints.delete(id);
    expect(await provider.read(id, outs)).toEqual({});
    await expect(provider.delete(id)).resolves.toBeUndefined();
  });

  it("adopts an existing endpoint and converges it", async () => {
    const existing = await fixture.current.client.endpoints.create({
      templateId: "echo",
      name: "by-hand",
      workersMax: 1,
    });
    const { id, outs } = await provider.create(inputs({ name: "adopted", adoptId: existing.id }));
    expect(id).toBe(existing.id);
    expect(outs).toMatchObject({ name: "adopted", workersMax: 2, gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"] });
  });

  it("refuses to adopt an endpoint of another compute type", async () => {
    const existing = await fixture.current.client.endpoints.create({
      templateId: "echo",
      name: "cpu",
      computeType: "CPU",
    });
    await expect(provider.create(inputs({ adoptId: existing.id }))).rejects.toThrow(
      "the endpoint has computeType CPU, but computeType is GPU",
    );
  });

  it("finds an auto-named endpoint left behind by an interrupted create", async () => {
    const leftover = await fixture.current.client.endpoints.create({ templateId: "echo", name: "worker-0a1b2c3" });
    const { id } = await provider.create(inputs({ name: "worker-0a1b2c3", __autoNamed: true }));
    expect(id).toBe(leftover.id);
    expect((await fixture.current.client.endpoints.list()).filter((e) => e.name === "worker-0a1b2c3")).toHaveLength(1);
  });

  it("surfaces a refused create with the platform's reason and leaves nothing behind", async () => {
    const before = (await fixture.current.client.endpoints.list()).length;
    const refused = await provider.create(inputs({ name: "bad", templateId: "no-such-template" })).catch((e) => e);
    expect(refused).toMatchObject({ code: version === "v1" ? "bad_request" : "not_found" });
    expect(String(refused.message)).toContain("no-such-template");
    expect((await fixture.current.client.endpoints.list()).length).toBe(before);
  });
});

describe("GPU priority order per version", () => {
  describe("on v1", () => {
    const fixture = useProviderAgainstEmulator("v1");
    it("reorders the GPU priority list in place (order is priority on v1)", async () => {
      const { id, outs } = await provider.create(inputs({ name: "reorder" }));
      const news = inputs({ name: "reorder", gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"] });
      expect(await provider.diff(id, outs, news)).toMatchObject({ changes: true });
      const { outs: after } = await provider.update(id, outs, news);
      expect(after).toMatchObject({ gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"] });
      expect(await fixture.current.client.endpoints.get(id)).toMatchObject({ gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"] });
    });
  });

  describe("on v2", () => {
    const fixture = useProviderAgainstEmulator("v2");
    it("sends pools with every other type excluded, finds no change in a reorder, and reads the program's order back", async () => {
      const declared = ["NVIDIA A40", "NVIDIA L4"];
      const { id, outs } = await provider.create(inputs({ name: "pools", gpuTypeIds: declared }));
      expect(outs.gpuTypeIds).toEqual(declared);
      const raw = await fixture.current.client.v2.serverless.get(id);
      expect(raw.gpu?.pools).toEqual(["AMPERE_48", "AMPERE_24"]);
      expect(raw.gpu?.excludedTypes).toEqual(expect.arrayContaining(["NVIDIA RTX A5000", "NVIDIA RTX A6000"]));
      expect(raw.gpu?.excludedTypes).not.toContain("NVIDIA L4");
      // The platform lists the types in catalog order; refresh keeps the program's.
      expect((await fixture.current.client.endpoints.get(id)).gpuTypeIds).toEqual(["NVIDIA L4", "NVIDIA A40"]);
      expect((await provider.read(id, outs)).props).toMatchObject({ gpuTypeIds: declared });
      const reordered = inputs({ name: "pools", gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"] });
      expect(await provider.diff(id, outs, reordered)).toMatchObject({ changes: false });
      // Another set is a change, sent as pools again.
      const { outs: after } = await provider.update(id, outs, inputs({ name: "pools", gpuTypeIds: ["NVIDIA L4"] }));
      expect(after.gpuTypeIds).toEqual(["NVIDIA L4"]);
      expect((await fixture.current.client.v2.serverless.get(id)).gpu?.pools).toEqual(["AMPERE_24"]);
    });
  });
});

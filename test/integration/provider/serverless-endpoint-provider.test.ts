import { describe, expect, it } from "vitest";
import { serverlessEndpointProvider as provider } from "../../../provider/serverless-endpoint-provider";
import { useProviderAgainstEmulator } from "./emulator-fixture";

const fixture = useProviderAgainstEmulator();

const inputs = (over: Record<string, unknown> = {}) => ({
  templateId: "echo",
  name: "api",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  workersMin: 0,
  workersMax: 2,
  __autoNamed: false,
  ...over,
});

describe("the ServerlessEndpoint provider against the emulator", () => {
  it("creates an endpoint and returns the declared properties as the platform holds them, plus its job URL", async () => {
    const { id, outs } = await provider.create(inputs({ idleTimeout: 7 }));
    const live = await fixture.current.client.endpoints.get(id);
    // Exactly what the program set (what refresh compares), plus name, template and URL; platform
    // defaults of unset properties and bookkeeping (createdAt, version, fixture.current...) stay out of state.
    expect(outs).toEqual({
      templateId: "echo",
      name: "api",
      gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 7,
      url: `${fixture.current.emulator.queueUrl}/${id}`,
    });
    expect(live).toMatchObject({ gpuCount: 1, scalerType: "QUEUE_DELAY", version: 0 });
  });

  it("reorders the GPU priority list and changes workers in place", async () => {
    const { id, outs } = await provider.create(inputs({ name: "reorder" }));
    const news = inputs({ name: "reorder", gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"], workersMax: 5 });
    const { outs: after } = await provider.update(id, outs, news);
    expect(after).toMatchObject({ gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"], workersMax: 5 });
    expect(await fixture.current.client.endpoints.get(id)).toMatchObject({
      id,
      gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"],
      workersMax: 5,
    });
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
    const existing = await fixture.current.client.endpoints.create({ templateId: "echo", computeType: "CPU" });
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
    await expect(provider.create(inputs({ name: "bad", templateId: "no-such-template" }))).rejects.toMatchObject({
      code: "bad_request",
    });
    expect((await fixture.current.client.endpoints.list()).length).toBe(before);
  });
});

import { describe, expect, it } from "vitest";
import { containerRegistryAuthProvider as auths } from "../../../provider/container-registry-auth-provider";
import { templateProvider as provider } from "../../../provider/template-provider";
import { useProviderAgainstEmulator } from "./emulator-fixture";

const fixture = useProviderAgainstEmulator();
const client = () => fixture.current.client;

const inputs = (over: Record<string, unknown> = {}) => ({
  name: "worker",
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  env: { MODEL: "tiny", TOKEN: "t0k3n" },
  ...over,
});

describe("the Template provider against the emulator", () => {
  it("creates a template and returns the declared properties as the platform holds them", async () => {
    const { id, outs } = await provider.create(inputs());
    expect(outs).toEqual({
      name: "worker",
      imageName: "ghcr.io/acme/echo:1.0",
      isServerless: true,
      env: { MODEL: "tiny", TOKEN: "t0k3n" },
    });
    expect(await client().templates.get(id)).toMatchObject({ id, category: "NVIDIA", containerDiskInGb: 50 });
  });

  it("updates the image in place through the update route, keeping the id, and endpoints run the new image", async () => {
    const { id, outs } = await provider.create(inputs({ name: "rolling" }));
    const endpoint = await client().endpoints.create({ templateId: id, workersMax: 1 });
    const updated = await provider.update(id, outs, inputs({ name: "rolling", imageName: "ghcr.io/acme/fail:2" }));
    expect(updated.outs).toMatchObject({ imageName: "ghcr.io/acme/fail:2" });
    const stats = await fixture.current.takeRequestCounts();
    expect(stats["POST /v1/templates/:templateId/update"]).toBe(1);
    const job = await client()
      .jobs(endpoint.id)
      .runSync({ input: { message: "now failing" } }, { wait: 5_000 });
    expect(job).toMatchObject({ status: "FAILED" });
    await client().endpoints.delete(endpoint.id);
  });

  it("reads drift made outside Pulumi and returns matching inputs", async () => {
    const { id, outs } = await provider.create(inputs({ name: "drift" }));
    await client().templates.update(id, { imageName: "ghcr.io/acme/echo:9", env: { MODEL: "big" } });
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ imageName: "ghcr.io/acme/echo:9", env: { MODEL: "big" } });
    expect(read.inputs).toEqual(read.props);
  });

  it("reports a template deleted outside Pulumi as gone, and deleting it again succeeds", async () => {
    const { id, outs } = await provider.create(inputs({ name: "gone" }));
    await client().templates.delete(id);
    expect(await provider.read(id, outs)).toEqual({});
    await expect(provider.delete(id)).resolves.toBeUndefined();
  });

  it("surfaces the platform's refusal to delete a template an endpoint uses, naming the endpoint", async () => {
    const { id } = await provider.create(inputs({ name: "in-use" }));
    const endpoint = await client().endpoints.create({ templateId: id });
    await expect(provider.delete(id)).rejects.toThrow(endpoint.id);
    await client().endpoints.delete(endpoint.id);
    await provider.delete(id);
    await expect(client().templates.get(id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("adopts an existing template and converges it, refusing one of another category", async () => {
    const existing = await client().templates.create({
      name: "by-hand",
      imageName: "ghcr.io/acme/echo:0.9",
      isServerless: true,
    });
    const { id, outs } = await provider.create(inputs({ name: "adopted", adoptId: existing.id }));
    expect(id).toBe(existing.id);
    expect(outs).toMatchObject({ name: "adopted", imageName: "ghcr.io/acme/echo:1.0" });
    await expect(
      provider.create(inputs({ name: "other", category: "CPU", isServerless: false, adoptId: existing.id })),
    ).rejects.toThrow(`adoptId = "${existing.id}": the template has category NVIDIA, but category is CPU`);
  });

  it("finds an auto-named template left behind by an interrupted create instead of creating another", async () => {
    const leftover = await client().templates.create({ name: "lost-abcdefg", imageName: "ghcr.io/acme/echo:1.0" });
    const { id } = await provider.create(inputs({ name: "lost-abcdefg", __autoNamed: true }));
    expect(id).toBe(leftover.id);
    expect((await client().templates.list()).filter((t) => t.name === "lost-abcdefg")).toHaveLength(1);
  });
});

describe("the ContainerRegistryAuth provider against the emulator", () => {
  const creds = (over: Record<string, unknown> = {}) => ({
    name: "ghcr",
    username: "bot",
    password: "p4ssw0rd",
    ...over,
  });

  it("creates a credential; the platform never returns the password, the outputs keep it for rotation", async () => {
    const { id, outs } = await auths.create(creds());
    expect(outs).toEqual({ name: "ghcr", username: "bot", password: "p4ssw0rd" });
    expect(await client().containerRegistryAuth.get(id)).toEqual({ id, name: "ghcr" });
  });

  it("reads a credential as present while it exists, and as gone once deleted outside Pulumi", async () => {
    const { id, outs } = await auths.create(creds({ name: "refresh" }));
    expect(await auths.read(id, outs)).toEqual({ id, props: outs, inputs: outs });
    await client().containerRegistryAuth.delete(id);
    expect(await auths.read(id, outs)).toEqual({});
    await expect(auths.delete(id)).resolves.toBeUndefined();
  });

  it("finds an auto-named credential left behind by an interrupted create instead of creating another", async () => {
    const leftover = await client().containerRegistryAuth.create(creds({ name: "reg-abcdefg" }));
    const { id } = await auths.create(creds({ name: "reg-abcdefg", __autoNamed: true }));
    expect(id).toBe(leftover.id);
  });

  it("surfaces the platform's refusal of a duplicate name for a name the user chose", async () => {
    await auths.create(creds({ name: "taken" }));
    await expect(auths.create(creds({ name: "taken" }))).rejects.toThrow("taken");
  });
});

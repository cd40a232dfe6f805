import { describe, expect, it } from "vitest";
import { containerRegistryAuthProvider as auths } from "../../../provider/container-registry-auth-provider";
import { templateProvider as provider } from "../../../provider/template-provider";
import { API_VERSIONS, useProviderAgainstEmulator } from "./emulator-fixture";

const inputs = (over: Record<string, unknown> = {}) => ({
  name: "worker",
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  env: { MODEL: "tiny", TOKEN: "t0k3n" },
  ...over,
});

describe.each(API_VERSIONS)("the Template provider against the emulator, on %s", (version) => {
  const fixture = useProviderAgainstEmulator(version);
  const client = () => fixture.current.client;

  it("creates a template and returns the declared properties as the platform holds them", async () => {
    const { id, outs } = await provider.create(inputs());
    expect(outs).toEqual({
      name: "worker",
      imageName: "ghcr.io/acme/echo:1.0",
      isServerless: true,
      env: { MODEL: "tiny", TOKEN: "t0k3n" },
      // v2 starts Jupyter by default, with a password it generates: kept apart from env.
      ...(version === "v2" ? { injectedEnv: { JUPYTER_PASSWORD: expect.any(String) } } : {}),
    });
    expect(await client().templates.get(id)).toMatchObject({ id, category: "NVIDIA", containerDiskInGb: 50 });
    expect((await provider.read(id, outs)).props).toEqual(outs);
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

describe("template updates on v1: the platform's link", () => {
  const fixture = useProviderAgainstEmulator("v1");
  const client = () => fixture.current.client;

  it("updates the image in place, keeping the id, and the platform rolls the linked endpoints onto it", async () => {
    const { id, outs } = await provider.create(inputs({ name: "rolling" }));
    const endpoint = await client().endpoints.create({ templateId: id, workersMax: 1 });
    await fixture.current.takeRequestCounts();
    const updated = await provider.update(id, outs, inputs({ name: "rolling", imageName: "ghcr.io/acme/fail:2" }));
    expect(updated.outs).toMatchObject({ imageName: "ghcr.io/acme/fail:2" });
    const stats = await fixture.current.takeRequestCounts();
    expect(stats["PATCH /v1/templates/:templateId"]).toBe(1);
    // The platform rolls what is linked: the provider changes no endpoint (it reads them, waiting
    // until they serve the new image).
    expect(Object.keys(stats).filter((r) => r.includes("endpoints") && !r.startsWith("GET "))).toEqual([]);
    const job = await client()
      .jobs(endpoint.id)
      .runSync({ input: { message: "now failing" } }, { wait: 5_000 });
    expect(job).toMatchObject({ status: "FAILED" });
    await client().endpoints.delete(endpoint.id);
  });

  it("surfaces the platform's refusal to delete a template an endpoint uses, naming the endpoint", async () => {
    const { id } = await provider.create(inputs({ name: "in-use" }));
    const endpoint = await client().endpoints.create({ templateId: id });
    await expect(provider.delete(id)).rejects.toThrow(endpoint.id);
    await client().endpoints.delete(endpoint.id);
    await provider.delete(id);
    await expect(client().templates.get(id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("template updates on v2: no link, the provider re-applies", () => {
  const fixture = useProviderAgainstEmulator("v2");
  const client = () => fixture.current.client;

  it("re-applies an image bump to the endpoints created from the template and to no other", async () => {
    const { id, outs } = await provider.create(inputs({ name: "v2-rolling" }));
    const mine = await client().endpoints.create({ templateId: id, name: "mine", workersMax: 1 });
    // Same image, but its own env: not this template's settings, so left alone.
    const other = await client().templates.create({
      name: "other",
      imageName: "ghcr.io/acme/echo:1.0",
      isServerless: true,
    });
    const theirs = await client().endpoints.create({ templateId: other.id, name: "theirs", workersMax: 1 });
    const before = await client().v2.serverless.get(theirs.id);
    await fixture.current.takeRequestCounts();
    const updated = await provider.update(id, outs, inputs({ name: "v2-rolling", imageName: "ghcr.io/acme/fail:2" }));
    expect(updated.outs).toMatchObject({ imageName: "ghcr.io/acme/fail:2" });
    const stats = await fixture.current.takeRequestCounts();
    expect(stats["PATCH /v2/serverless/:id"]).toBe(1);
    expect((await client().v2.serverless.get(mine.id)).image).toBe("ghcr.io/acme/fail:2");
    expect(await client().v2.serverless.get(theirs.id)).toEqual(before);
    const job = await client()
      .jobs(mine.id)
      .runSync({ input: { message: "now failing" } }, { wait: 5_000 });
    expect(job).toMatchObject({ status: "FAILED" });
    // Nothing links the endpoint to the template: it may go first or last.
    await provider.delete(id);
    await client().endpoints.delete(mine.id);
    await client().endpoints.delete(theirs.id);
  });

  it("re-applies to the endpoints the state says were left behind by an update that failed halfway", async () => {
    const { id, outs } = await provider.create(inputs({ name: "halfway" }));
    const ep = await client().endpoints.create({ templateId: id, name: "left-behind", workersMax: 1 });
    // The template reached 1.1 but the run stopped before its endpoints: the state still says 1.0.
    await client().templates.update(id, { imageName: "ghcr.io/acme/echo:1.1" });
    await provider.update(id, outs, inputs({ name: "halfway", imageName: "ghcr.io/acme/echo:1.1" }));
    expect((await client().v2.serverless.get(ep.id)).image).toBe("ghcr.io/acme/echo:1.1");
    await client().endpoints.delete(ep.id);
  });

  it("keeps injected env apart: no drift at refresh, carried over when the program's env changes, secret output", async () => {
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE2e ops@example.com";
    const headers = { authorization: "Bearer provider-it-key", "content-type": "application/json" };
    await fetch(`${fixture.current.emulator.apiUrlV2}/account/ssh-keys`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ keys: [key] }),
    });
    const { id, outs } = await provider.create(inputs({ name: "injected", startSsh: true, startJupyter: true }));
    const live = await client().templates.get(id);
    expect(live.env).toEqual({ MODEL: "tiny", TOKEN: "t0k3n", PUBLIC_KEY: key, JUPYTER_PASSWORD: expect.any(String) });
    const password = live.env?.JUPYTER_PASSWORD;
    expect(outs.env).toEqual({ MODEL: "tiny", TOKEN: "t0k3n" });
    expect(outs.injectedEnv).toEqual({ PUBLIC_KEY: key, JUPYTER_PASSWORD: password });
    // Refresh: the same outputs, so no drift.
    const read = await provider.read(id, outs);
    expect(read.props).toEqual(outs);
    expect(
      await provider.diff(id, outs, inputs({ name: "injected", startSsh: true, startJupyter: true })),
    ).toMatchObject({
      changes: false,
    });
    // The program's env changes: the platform's injected values ride along.
    const news = inputs({ name: "injected", startSsh: true, startJupyter: true, env: { MODEL: "big" } });
    const updated = await provider.update(id, outs, news);
    expect((await client().templates.get(id)).env).toEqual({
      MODEL: "big",
      PUBLIC_KEY: key,
      JUPYTER_PASSWORD: password,
    });
    expect(updated.outs).toMatchObject({
      env: { MODEL: "big" },
      injectedEnv: { PUBLIC_KEY: key, JUPYTER_PASSWORD: password },
    });
    // A value the program sets itself is the program's.
    const own = await provider.update(id, updated.outs, { ...news, env: { MODEL: "big", JUPYTER_PASSWORD: "mine" } });
    expect(own.outs).toMatchObject({
      env: { MODEL: "big", JUPYTER_PASSWORD: "mine" },
      injectedEnv: { PUBLIC_KEY: key },
    });
    await fetch(`${fixture.current.emulator.apiUrlV2}/account/ssh-keys`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ keys: [] }),
    });
  });

  it("sets and updates v2's switches and args in place", async () => {
    const { id, outs } = await provider.create(
      inputs({ name: "switches", startSsh: false, startJupyter: false, args: "--port 8000" }),
    );
    expect(outs).toMatchObject({ startSsh: false, startJupyter: false, args: "--port 8000" });
    expect(outs).not.toHaveProperty("injectedEnv");
    const news = inputs({ name: "switches", startSsh: false, startJupyter: false, args: "--port 9000" });
    expect(await provider.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs: after } = await provider.update(id, outs, news);
    expect(after).toMatchObject({ args: "--port 9000" });
    expect(await client().v2.templates.get(id)).toMatchObject({ args: "--port 9000", startSsh: false });
  });
});

describe.each(API_VERSIONS)("the ContainerRegistryAuth provider against the emulator, on %s", (version) => {
  const fixture = useProviderAgainstEmulator(version);
  const client = () => fixture.current.client;
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

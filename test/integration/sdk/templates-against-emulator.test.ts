import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { BadRequestError, NotFoundError, RequestValidationError, RunpodClient } from "../../../sdk";
import { TEMPLATE_DEFAULTS } from "../../../sdk/schemas";

/** `client.templates` and `client.containerRegistryAuth` against the real emulator over HTTP. */
const PASSWORD = "ghp_CLIENT0REGISTRY0PASSWORD0x9";
const ENV_SECRET = "sk-CLIENT-ENV-SECRET-0042";

let emulator: RunningEmulator;
let client: RunpodClient;
let other: RunpodClient;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    apiKeys: ["sdk-tpl", "sdk-tpl-other"],
    rateLimits: false,
    timeScale: 1000,
  });
  client = new RunpodClient({ apiKey: "sdk-tpl", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
  other = new RunpodClient({ apiKey: "sdk-tpl-other", apiUrl: emulator.apiUrlV1, queueUrl: emulator.queueUrl });
});
afterAll(async () => {
  await client.close();
  await other.close();
  await emulator.close();
});

describe("the template and registry auth clients against the emulator", () => {
  it("manages a template through its whole life, both update verbs included", async () => {
    const t = await client.templates.create({ name: "life", imageName: "ghcr.io/acme/echo:1.0", isServerless: true });
    expect(t).toMatchObject({ ...TEMPLATE_DEFAULTS, isServerless: true, name: "life", isRunpod: false });
    expect(await client.templates.get(t.id)).toEqual(t);
    expect((await client.templates.list()).map((x) => x.id)).toContain(t.id);
    expect(await client.templates.update(t.id, { env: { MODE: "fast" } })).toMatchObject({ env: { MODE: "fast" } });
    expect(await client.v1.templates.update(t.id, { readme: "# hi" }, { method: "POST" })).toMatchObject({
      readme: "# hi",
      env: { MODE: "fast" },
    });
    await client.templates.delete(t.id);
    await expect(client.templates.get(t.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("passes the list flags: includeRunpodTemplates adds the emulator's handlers", async () => {
    const own = await client.templates.list();
    expect(own.some((x) => x.isRunpod)).toBe(false);
    const all = await client.templates.list({
      includeRunpodTemplates: true,
      includePublicTemplates: true,
      includeEndpointBoundTemplates: true,
    });
    expect(all.filter((x) => x.isRunpod).map((x) => x.id)).toEqual([
      "echo",
      "fail",
      "sleep",
      "stream",
      "worker-v1-vllm",
    ]);
    expect(await client.templates.get("echo", { includeRunpodTemplates: true })).toMatchObject({ isRunpod: true });
  });

  it("runs a job on an endpoint of a created template", async () => {
    const t = await client.templates.create({ name: "runs", imageName: "ghcr.io/acme/echo:1.0", isServerless: true });
    const ep = await client.endpoints.create({ templateId: t.id, workersMax: 1 });
    expect(await client.endpoints.get(ep.id, { includeTemplate: true })).toMatchObject({ template: t });
    expect(await client.jobs(ep.id).runSync({ input: { via: "template" } })).toMatchObject({
      status: "COMPLETED",
      output: { via: "template" },
    });
    const refusal = await client.templates.delete(t.id).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(BadRequestError);
    expect((refusal as BadRequestError).message).toContain(`endpoint ${ep.id}`);
    await client.endpoints.delete(ep.id);
    await client.templates.delete(t.id);
  });

  it("refuses bad template input before sending, naming the field and never an env value", async () => {
    const sent = client.transport.attempts;
    const error = await client.templates
      .create({ name: "bad", imageName: "", ports: ["80"], env: { "NOT-A-NAME": ENV_SECRET } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).problems.map((p) => p.field).sort()).toEqual([
      "env.NOT-A-NAME",
      "imageName",
      "ports.0",
    ]);
    expect((error as Error).message).not.toContain(ENV_SECRET);
    const update = await client.templates.update("any", { category: "CPU" } as never).catch((e: unknown) => e);
    expect((update as RequestValidationError).problems[0]).toMatchObject({ field: "category" });
    expect(client.transport.attempts).toBe(sent);
  });

  it("manages a registry auth: create, get, list, delete; the password never comes back", async () => {
    const auth = await client.containerRegistryAuth.create({ name: "ghcr", username: "robot", password: PASSWORD });
    expect(auth).toEqual({ id: expect.any(String), name: "ghcr" });
    expect(await client.containerRegistryAuth.get(auth.id)).toEqual(auth);
    expect(await client.containerRegistryAuth.list()).toContainEqual(auth);
    const t = await client.templates.create({
      name: "private",
      imageName: "ghcr.io/acme/echo:1",
      containerRegistryAuthId: auth.id,
    });
    const inUse = await client.containerRegistryAuth.delete(auth.id).catch((e: unknown) => e);
    expect(inUse).toBeInstanceOf(BadRequestError);
    expect((inUse as Error).message).toContain(`template ${t.id}`);
    await client.templates.update(t.id, { containerRegistryAuthId: "" });
    await client.containerRegistryAuth.delete(auth.id);
    await expect(client.containerRegistryAuth.get(auth.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reports a taken name as a BadRequestError, and no error repeats the password", async () => {
    await client.containerRegistryAuth.create({ name: "dup", username: "u", password: PASSWORD });
    const duplicate = await client.containerRegistryAuth
      .create({ name: "dup", username: "u", password: PASSWORD })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(BadRequestError);
    expect((duplicate as Error).message).toContain('name = "dup"');
    const invalid = await client.containerRegistryAuth
      .create({ name: "", username: "u", password: [PASSWORD] as never })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(RequestValidationError);
    for (const e of [duplicate, invalid])
      expect(JSON.stringify({ m: (e as Error).message, e })).not.toContain(PASSWORD);
  });

  it("keeps accounts apart: another account's template and auth are not found", async () => {
    const t = await client.templates.create({ name: "mine", imageName: "x" });
    const auth = await client.containerRegistryAuth.create({ name: "mine", username: "u", password: "p" });
    await expect(other.templates.get(t.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.templates.update(t.id, { readme: "x" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.templates.delete(t.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.containerRegistryAuth.get(auth.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.containerRegistryAuth.delete(auth.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await other.templates.list()).toEqual([]);
    expect(await other.containerRegistryAuth.list()).toEqual([]);
  });
});

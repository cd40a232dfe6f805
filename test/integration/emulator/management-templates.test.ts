import { describe, expect, it } from "vitest";
import { TEMPLATE_DEFAULTS, TemplateListSchema, TemplateSchema } from "../../../sdk/schemas";
import { type Client, createEndpoint, useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

let counter = 0;
/** Creates a serverless template with a fresh name and returns it. */
async function createTemplate(client: Client, fields: Record<string, unknown> = {}) {
  const res = await client.post("/v1/templates", {
    name: `tpl-${++counter}`,
    imageName: "ghcr.io/acme/echo:1.0",
    isServerless: true,
    ...fields,
  });
  if (res.status !== 200) throw new Error(`template creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("templates (OpenAPI 'templates')", () => {
  it("creates a template with the OpenAPI defaults, in the OpenAPI Template shape", async () => {
    const res = await api.post("/v1/templates", { name: "defaults", imageName: "runpod/worker:1.0" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{10}$/),
      name: "defaults",
      imageName: "runpod/worker:1.0",
      ...TEMPLATE_DEFAULTS,
      ports: ["8888/http", "22/tcp"],
      isRunpod: false,
      earned: 0,
      runtimeInMin: 0,
    });
    expect(openApiProblems("Template", res.body)).toEqual([]);
    TemplateSchema.parse(res.body);
  });

  it("keeps every field given at creation", async () => {
    const auth = (await api.post("/v1/containerregistryauth", { name: "ghcr", username: "u", password: "p" })).body;
    const fields = {
      name: "all-fields",
      imageName: "ghcr.io/acme/echo@sha256:abc",
      category: "CPU",
      containerDiskInGb: 10,
      volumeInGb: 0,
      volumeMountPath: "/runpod-volume",
      containerRegistryAuthId: auth.id,
      dockerEntrypoint: ["python", "-u"],
      dockerStartCmd: ["handler.py"],
      env: { MODEL: "llama", _TOKEN2: "s3cr3t" },
      ports: ["8000/http"],
      readme: "# hi",
      isPublic: true,
      isServerless: true,
    };
    const t = await createTemplate(api, fields);
    expect(t).toMatchObject(fields);
    expect((await api.get(`/v1/templates/${t.id}`)).body).toEqual(t);
  });

  it.each([
    [{ imageName: "x" }, "name", "is required"],
    [{ name: "n" }, "imageName", "is required"],
    [{ name: "n", imageName: "" }, "imageName", "must not be empty"],
    [{ name: "n", imageName: "ghcr.io/acme/echo 1.0" }, "imageName", "must not contain whitespace"],
    [{ name: "", imageName: "x" }, "name", "must not be empty"],
    [{ name: "n".repeat(192), imageName: "x" }, "name", "must be at most 191 characters"],
    [{ name: "n", imageName: "x", ports: ["8888"] }, "ports.0", '"<port>/<http|tcp>"'],
    [{ name: "n", imageName: "x", ports: ["8888/udp"] }, "ports.0", '"<port>/<http|tcp>"'],
    [{ name: "n", imageName: "x", ports: ["70000/tcp"] }, "ports.0", "from 1 to 65535"],
    [{ name: "n", imageName: "x", env: { "1BAD": "v" } }, "env.1BAD", "not a valid environment variable name"],
    [{ name: "n", imageName: "x", env: { A: 1 } }, "env.A", "must be a string"],
    [{ name: "n", imageName: "x", env: "A=1" }, "env", "must be an object"],
    [{ name: "n", imageName: "x", containerDiskInGb: -1 }, "containerDiskInGb", "at least 0 GB"],
    [{ name: "n", imageName: "x", volumeInGb: 1.5 }, "volumeInGb", "whole number of GB"],
    [{ name: "n", imageName: "x", volumeMountPath: "workspace" }, "volumeMountPath", "absolute path"],
    [{ name: "n", imageName: "x", category: "TPU" }, "category", "must be one of NVIDIA, AMD, CPU"],
    [
      { name: "n", imageName: "x", containerRegistryAuthId: "cnosuchauth" },
      "containerRegistryAuthId",
      "not a container registry auth of this account",
    ],
  ])("refuses %j with 400 naming %s", async (body, field, rule) => {
    const res = await api.post("/v1/templates", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
    expect(res.body.problems).toContainEqual({ field, value: expect.any(String), rule: expect.stringContaining(rule) });
  });

  it("never repeats an env value in a refusal", async () => {
    const res = await api.post("/v1/templates", { name: "n", imageName: "", env: { TOKEN: "hunter2-env-secret" } });
    expect(res.status).toBe(400);
    const bad = await api.post("/v1/templates", {
      name: "n",
      imageName: "x",
      env: { "BAD-NAME": "hunter2-env-secret" },
    });
    expect(bad.body.problems).toEqual([
      { field: "env.BAD-NAME", value: "[secret]", rule: expect.stringContaining("environment variable name") },
    ]);
    expect(JSON.stringify([res.body, bad.body])).not.toContain("hunter2");
  });

  it("refuses a second template with a taken name, naming the name", async () => {
    const t = await createTemplate(api);
    const res = await api.post("/v1/templates", { name: t.name, imageName: "x" });
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      { field: "name", value: JSON.stringify(t.name), rule: expect.stringContaining(`template ${t.id}`) },
    ]);
    const second = await createTemplate(api);
    expect((await api.patch(`/v1/templates/${second.id}`, { name: t.name })).status).toBe(400);
    expect((await api.patch(`/v1/templates/${second.id}`, { name: second.name })).status).toBe(200);
    // Names are unique per account: another account may use the same one.
    expect((await other.post("/v1/templates", { name: t.name, imageName: "x" })).status).toBe(200);
  });

  it("lists the account's templates, and the emulator's handlers with includeRunpodTemplates", async () => {
    const t = await createTemplate(api);
    const own = (await api.get("/v1/templates")).body;
    expect(TemplateListSchema.parse(own).map((x) => x.id)).toContain(t.id);
    expect(own.every((x: { isRunpod: boolean }) => x.isRunpod === false)).toBe(true);
    expect(openApiProblems("Templates", own)).toEqual([]);
    const all = (await api.get("/v1/templates?includeRunpodTemplates=true&includePublicTemplates=true")).body;
    expect(openApiProblems("Templates", all)).toEqual([]);
    const runpod = all.filter((x: { isRunpod: boolean }) => x.isRunpod);
    expect(runpod.map((x: { id: string }) => x.id)).toEqual(["echo", "fail", "sleep", "stream", "worker-v1-vllm"]);
    expect(runpod[0]).toMatchObject({ isServerless: true, imageName: "runpod-iac-emulator/echo:latest" });
    expect((await api.get("/v1/templates/echo")).status).toBe(404);
    expect((await api.get("/v1/templates/echo?includeRunpodTemplates=true")).body).toEqual(runpod[0]);
    expect((await api.patch("/v1/templates/echo", { readme: "x" })).body.message).toContain("handler of the emulator");
    expect((await api.del("/v1/templates/echo")).status).toBe(404);
  });

  it.each([["PATCH"], ["POST .../update"]])(
    "updates a template with %s; a given field replaces the stored one whole",
    async (how) => {
      const t = await createTemplate(api, { env: { A: "1", B: "2" }, ports: ["80/http"] });
      const body = { env: { C: "3" }, imageName: "ghcr.io/acme/sleep:2", containerDiskInGb: 20 };
      const res =
        how === "PATCH"
          ? await api.patch(`/v1/templates/${t.id}`, body)
          : await api.post(`/v1/templates/${t.id}/update`, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...t, ...body });
      expect(openApiProblems("Template", res.body)).toEqual([]);
      expect((await api.get(`/v1/templates/${t.id}`)).body).toEqual(res.body);
    },
  );

  it("refuses to change category or isServerless, which TemplateUpdateInput does not hold", async () => {
    const t = await createTemplate(api);
    for (const body of [{ category: "CPU" }, { isServerless: false }]) {
      const res = await api.patch(`/v1/templates/${t.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.problems[0]).toMatchObject({
        field: Object.keys(body)[0],
        rule: expect.stringContaining("cannot change"),
      });
    }
    expect((await api.get(`/v1/templates/${t.id}`)).body).toEqual(t);
  });

  it("attaches a registry auth of the account and takes it off with an empty id", async () => {
    const auth = (await api.post("/v1/containerregistryauth", { name: "attach", username: "u", password: "p" })).body;
    const t = await createTemplate(api);
    const theirs = (await other.post("/v1/containerregistryauth", { name: "theirs", username: "u", password: "p" }))
      .body;
    expect((await api.patch(`/v1/templates/${t.id}`, { containerRegistryAuthId: theirs.id })).status).toBe(400);
    expect((await api.patch(`/v1/templates/${t.id}`, { containerRegistryAuthId: auth.id })).body).toMatchObject({
      containerRegistryAuthId: auth.id,
    });
    const off = (await api.patch(`/v1/templates/${t.id}`, { containerRegistryAuthId: "" })).body;
    expect(off).not.toHaveProperty("containerRegistryAuthId");
  });

  it("refuses to delete a template an endpoint uses (400 naming the endpoint), then deletes it with 204", async () => {
    const t = await createTemplate(api);
    const ep = await createEndpoint(api, { templateId: t.id, name: "user-of-template" });
    const res = await api.del(`/v1/templates/${t.id}`);
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      {
        field: "templateId",
        value: JSON.stringify(t.id),
        rule: expect.stringContaining(`endpoint ${ep} ("user-of-template")`),
      },
    ]);
    expect((await api.get(`/v1/templates/${t.id}`)).body).toEqual(t);
    await api.del(`/v1/endpoints/${ep}`);
    expect((await api.del(`/v1/templates/${t.id}`)).status).toBe(204);
    expect((await api.get(`/v1/templates/${t.id}`)).status).toBe(404);
    expect((await api.del(`/v1/templates/${t.id}`)).status).toBe(404);
  });

  it("isolates accounts: another account's template is a 404 and cannot run its endpoints", async () => {
    const theirs = await createTemplate(other);
    expect((await api.get(`/v1/templates/${theirs.id}`)).status).toBe(404);
    expect((await api.patch(`/v1/templates/${theirs.id}`, { readme: "mine" })).status).toBe(404);
    expect((await api.post(`/v1/templates/${theirs.id}/update`, { readme: "mine" })).status).toBe(404);
    expect((await api.del(`/v1/templates/${theirs.id}`)).status).toBe(404);
    expect((await api.get("/v1/templates")).body.map((x: { id: string }) => x.id)).not.toContain(theirs.id);
    const res = await api.post("/v1/endpoints", { templateId: theirs.id });
    expect(res.status).toBe(400);
    expect(res.body.problems[0]).toMatchObject({
      field: "templateId",
      rule: expect.stringContaining("not a known template"),
    });
    expect((await other.get(`/v1/templates/${theirs.id}`)).body).toEqual(theirs);
  });

  it("runs endpoints from serverless templates only, refusing a Pod template", async () => {
    const pod = await createTemplate(api, { isServerless: false });
    const res = await api.post("/v1/endpoints", { templateId: pod.id });
    expect(res.status).toBe(400);
    expect(res.body.problems[0]).toMatchObject({ field: "templateId", rule: expect.stringContaining("Pod template") });
    const ep = await createEndpoint(api);
    expect((await api.patch(`/v1/endpoints/${ep}`, { templateId: pod.id })).status).toBe(400);
  });

  it("shows the endpoint's own template with includeTemplate=true", async () => {
    const t = await createTemplate(api, { env: { MODE: "fast" } });
    const ep = await createEndpoint(api, { templateId: t.id });
    const view = (await api.get(`/v1/endpoints/${ep}?includeTemplate=true`)).body;
    expect(view.template).toEqual(t);
    // `flashboot` is echoed by the emulator although the OpenAPI Endpoint does not list it (management-endpoints.test.ts).
    expect(openApiProblems("Endpoint", view, ["flashboot"])).toEqual([]);
    const listed = (await api.get("/v1/endpoints?includeTemplate=true")).body.find((e: { id: string }) => e.id === ep);
    expect(listed.template).toEqual(t);
  });

  it("shows the account's templates and registry auths in /_emulator/state, never a password", async () => {
    const t = await createTemplate(api);
    await api.post("/v1/containerregistryauth", { name: "state-view", username: "robot", password: "pw-state-view" });
    const state = (await api.get("/_emulator/state")).body;
    // The admin view shows records as the emulator keeps them, in v2's names.
    expect(state.templates).toContainEqual(expect.objectContaining({ id: t.id, name: t.name, image: t.imageName }));
    expect(state.containerRegistryAuths).toContainEqual({
      id: expect.any(String),
      name: "state-view",
      username: "robot",
    });
    expect(JSON.stringify(state)).not.toContain("pw-state-view");
    expect(JSON.stringify(state)).not.toContain("scrypt");
    expect((await other.get("/_emulator/state")).body.templates.map((x: { id: string }) => x.id)).not.toContain(t.id);
  });
});

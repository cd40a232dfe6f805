import { describe, expect, it } from "vitest";
import { ContainerRegistryAuthListSchema, ContainerRegistryAuthSchema } from "../../../sdk/schemas";
import { useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";

const PASSWORD = "ghp_REGISTRY0PASSWORD0never0returned";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

let counter = 0;
async function createAuth(client = api, fields: Record<string, unknown> = {}) {
  const res = await client.post("/v1/containerregistryauth", {
    name: `creds-${++counter}`,
    username: "robot",
    password: PASSWORD,
    ...fields,
  });
  if (res.status !== 200) throw new Error(`auth creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe("container registry auths (OpenAPI 'container registry auths')", () => {
  it("creates an auth and answers its id and name only, in the OpenAPI shape", async () => {
    const res = await api.post("/v1/containerregistryauth", { name: "ghcr", username: "robot", password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(/^c[a-z0-9]{24}$/), name: "ghcr" });
    expect(openApiProblems("ContainerRegistryAuth", res.body)).toEqual([]);
    ContainerRegistryAuthSchema.parse(res.body);
  });

  it("gets and lists auths in the OpenAPI shape, never with a credential", async () => {
    const auth = await createAuth();
    expect((await api.get(`/v1/containerregistryauth/${auth.id}`)).body).toEqual(auth);
    const list = await api.get("/v1/containerregistryauth");
    expect(ContainerRegistryAuthListSchema.parse(list.body)).toContainEqual(auth);
    expect(openApiProblems("ContainerRegistryAuths", list.body)).toEqual([]);
    expect(JSON.stringify(list.body)).not.toContain(PASSWORD);
    expect(JSON.stringify(list.body)).not.toContain("robot");
  });

  it.each([
    [{ username: "u", password: "p" }, "name", "is required"],
    [{ name: "n", password: "p" }, "username", "is required"],
    [{ name: "n", username: "u" }, "password", "is required"],
    [{ name: "", username: "u", password: "p" }, "name", "must not be empty"],
    [{ name: "n".repeat(192), username: "u", password: "p" }, "name", "must be at most 191 characters"],
    [{ name: "n", username: "", password: "p" }, "username", "must not be empty"],
    [{ name: "n", username: "u", password: "" }, "password", "must not be empty"],
  ])("refuses %j with 400 naming %s", async (body, field, rule) => {
    const res = await api.post("/v1/containerregistryauth", body);
    expect(res.status).toBe(400);
    expect(res.body.problems).toContainEqual({ field, value: expect.any(String), rule: expect.stringContaining(rule) });
  });

  it("never repeats a password in a refusal", async () => {
    const wrongType = await api.post("/v1/containerregistryauth", { name: 5, username: "u", password: [PASSWORD] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.problems).toContainEqual({ field: "password", value: "[secret]", rule: expect.any(String) });
    const taken = await createAuth();
    const duplicate = await api.post("/v1/containerregistryauth", {
      name: taken.name,
      username: "u",
      password: PASSWORD,
    });
    expect(JSON.stringify([wrongType.body, duplicate.body])).not.toContain(PASSWORD);
  });

  it("refuses a second auth with a taken name, naming the name; other accounts may use it", async () => {
    const auth = await createAuth();
    const res = await api.post("/v1/containerregistryauth", { name: auth.name, username: "x", password: "y" });
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      {
        field: "name",
        value: JSON.stringify(auth.name),
        rule: expect.stringContaining(`container registry auth ${auth.id}`),
      },
    ]);
    expect(
      (await other.post("/v1/containerregistryauth", { name: auth.name, username: "x", password: "y" })).status,
    ).toBe(200);
  });

  it("has no update route", async () => {
    const auth = await createAuth();
    expect((await api.patch(`/v1/containerregistryauth/${auth.id}`, { name: "x" })).status).toBe(404);
    expect((await api.post(`/v1/containerregistryauth/${auth.id}/update`, { name: "x" })).status).toBe(404);
    expect((await api.get(`/v1/containerregistryauth/${auth.id}`)).body).toEqual(auth);
  });

  it("refuses to delete an auth a template pulls with (400 naming the template), then deletes it with 204", async () => {
    const auth = await createAuth();
    const t = (
      await api.post("/v1/templates", {
        name: "private",
        imageName: "ghcr.io/acme/echo:1",
        containerRegistryAuthId: auth.id,
      })
    ).body;
    const res = await api.del(`/v1/containerregistryauth/${auth.id}`);
    expect(res.status).toBe(400);
    expect(res.body.problems).toEqual([
      {
        field: "containerRegistryAuthId",
        value: JSON.stringify(auth.id),
        rule: expect.stringContaining(`template ${t.id} ("private")`),
      },
    ]);
    await api.del(`/v1/templates/${t.id}`);
    expect((await api.del(`/v1/containerregistryauth/${auth.id}`)).status).toBe(204);
    expect((await api.get(`/v1/containerregistryauth/${auth.id}`)).status).toBe(404);
    expect((await api.del(`/v1/containerregistryauth/${auth.id}`)).status).toBe(404);
  });

  it("isolates accounts: another account's auth is a 404 and cannot be attached", async () => {
    const theirs = await createAuth(other);
    expect((await api.get(`/v1/containerregistryauth/${theirs.id}`)).status).toBe(404);
    expect((await api.del(`/v1/containerregistryauth/${theirs.id}`)).status).toBe(404);
    expect((await api.get("/v1/containerregistryauth")).body).not.toContainEqual(theirs);
    const res = await api.post("/v1/templates", { name: "steal", imageName: "x", containerRegistryAuthId: theirs.id });
    expect(res.status).toBe(400);
    expect((await other.get(`/v1/containerregistryauth/${theirs.id}`)).body).toEqual(theirs);
  });
});

import { describe, expect, it } from "vitest";
import { type Answer, useTestEmulator } from "./helpers";
import { openApiProblems } from "./openapi-shape";
import { v2ResponseProblems } from "./openapi-v2";

const ctx = useTestEmulator({}, "file");
const { api, other } = ctx;

function conforms(method: string, template: string, res: Answer): Answer {
  expect(v2ResponseProblems(method, template, res.status, res.body), JSON.stringify(res.body)).toEqual([]);
  return res;
}

describe("management v2 templates (/v2/templates, /v2/catalog/templates)", () => {
  it("creates with v2's defaults, reads, lists, patches only the given fields, deletes", async () => {
    const created = conforms(
      "POST",
      "/v2/templates",
      await api.post("/v2/templates", {
        name: "torch",
        image: "runpod/pytorch:2.8",
        args: "python -m server --port 8000 'two words'",
        mounts: { persistent: { size: 20, path: "/workspace" } },
        env: { MODEL: "sdxl" },
      }),
    );
    expect(created.status).toBe(201);
    const t = created.body;
    expect(t).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{10}$/),
      name: "torch",
      image: "runpod/pytorch:2.8",
      args: "python -m server --port 8000 'two words'",
      disk: 50,
      mounts: { persistent: { size: 20, path: "/workspace" } },
      ports: ["8888/http", "22/tcp"],
      // Jupyter is on by default, so the platform generated a password (no SSH key: none registered).
      env: { MODEL: "sdxl", JUPYTER_PASSWORD: expect.stringMatching(/^[\w-]{24}$/) },
      registry: null,
      serverless: false,
      public: false,
      category: "NVIDIA",
      startSsh: true,
      startJupyter: true,
      allowedCudaVersions: [],
    });
    expect(conforms("GET", "/v2/templates/{id}", await api.get(`/v2/templates/${t.id}`)).body).toEqual(t);
    expect(conforms("GET", "/v2/templates", await api.get("/v2/templates")).body.templates).toContainEqual(t);
    const patched = conforms(
      "PATCH",
      "/v2/templates/{id}",
      await api.patch(`/v2/templates/${t.id}`, { startJupyter: false, category: "AMD", mounts: {} }),
    );
    expect(patched.body).toEqual({ ...t, startJupyter: false, category: "AMD" });
    expect(conforms("DELETE", "/v2/templates/{id}", await api.del(`/v2/templates/${t.id}`)).status).toBe(204);
    expect(conforms("GET", "/v2/templates/{id}", await api.get(`/v2/templates/${t.id}`)).status).toBe(404);
  });

  it("injects PUBLIC_KEY (the registered keys) and a generated JUPYTER_PASSWORD unless env sets them; an env update replaces them; a switch turned on injects", async () => {
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE2e me@example.com";
    expect(conforms("GET", "/v2/account/ssh-keys", await api.get("/v2/account/ssh-keys")).body).toEqual({ keys: [] });
    const put = conforms("PUT", "/v2/account/ssh-keys", await api.put("/v2/account/ssh-keys", { keys: [key] }));
    expect(put.body).toEqual({ keys: [key] });
    expect((await api.put("/v2/account/ssh-keys", { keys: ["not a key"] })).status).toBe(422); // the OpenAPI documents 422 (and no 400) for a refused PUT
    // Another account has its own keys.
    expect((await other.get("/v2/account/ssh-keys")).body).toEqual({ keys: [] });

    const both = (await api.post("/v2/templates", { name: "inject-both", image: "a/b:1", env: { A: "1" } })).body;
    expect(both.env).toEqual({ A: "1", PUBLIC_KEY: key, JUPYTER_PASSWORD: expect.any(String) });
    const other2 = (await api.post("/v2/templates", { name: "inject-again", image: "a/b:1" })).body;
    expect(other2.env.JUPYTER_PASSWORD).not.toBe(both.env.JUPYTER_PASSWORD);
    const own = await api.post("/v2/templates", {
      name: "inject-own",
      image: "a/b:1",
      env: { PUBLIC_KEY: "mine", JUPYTER_PASSWORD: "chosen" },
    });
    expect(own.body.env).toEqual({ PUBLIC_KEY: "mine", JUPYTER_PASSWORD: "chosen" });
    const off = await api.post("/v2/templates", {
      name: "inject-off",
      image: "a/b:1",
      startSsh: false,
      startJupyter: false,
    });
    expect(off.body.env).toEqual({});

    // An env update sends the whole env: what it leaves out, injected or not, is gone.
    const replaced = await api.patch(`/v2/templates/${both.id}`, { env: { A: "2" } });
    expect(replaced.body.env).toEqual({ A: "2" });
    // Turning a switch on provisions what it injects.
    const on = await api.patch(`/v2/templates/${off.body.id}`, { startSsh: true });
    expect(on.body.env).toEqual({ PUBLIC_KEY: key });
    // v1 reads the same env.
    expect((await api.get(`/v1/templates/${both.id}`)).body.env).toEqual({ A: "2" });
    await api.put("/v2/account/ssh-keys", { keys: [] });
  });

  it("serves the emulator's handlers as the official catalog, readable by id but not writable", async () => {
    const official = conforms("GET", "/v2/catalog/templates", await api.get("/v2/catalog/templates"));
    expect(official.body.templates.map((t: { id: string }) => t.id)).toEqual([
      "echo",
      "fail",
      "sleep",
      "stream",
      "worker-v1-vllm",
    ]);
    expect(official.body.templates[0]).toMatchObject({
      image: "runpod-iac-emulator/echo:latest",
      serverless: true,
      public: true,
    });
    const community = conforms("GET", "/v2/catalog/templates", await api.get("/v2/catalog/templates?source=community"));
    expect(community.body.templates).toEqual([]);
    expect((await api.get("/v2/catalog/templates?source=everything")).status).toBe(422);
    expect(conforms("GET", "/v2/templates/{id}", await api.get("/v2/templates/echo")).body.id).toBe("echo");
    expect(conforms("PATCH", "/v2/templates/{id}", await api.patch("/v2/templates/echo", { name: "x" })).status).toBe(
      404,
    );
    expect(conforms("DELETE", "/v2/templates/{id}", await api.del("/v2/templates/echo")).status).toBe(404);
  });

  it("refuses bad input and a template in use by an endpoint, as problem objects", async () => {
    const bad = conforms(
      "POST",
      "/v2/templates",
      await api.post("/v2/templates", {
        name: "",
        image: "x",
        category: "TPU",
        mounts: { persistent: { size: 5, path: "/w" } },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.name: must not be empty/),
        expect.stringMatching(/^\$\.category: must be one of NVIDIA, AMD, CPU/),
        expect.stringMatching(/^\$\.mounts\.persistent\.size: must be at least 10 GB/),
      ]),
    );
    const t = (await api.post("/v1/templates", { name: "bound", imageName: "ghcr.io/acme/echo:1", isServerless: true }))
      .body;
    await api.post("/v1/endpoints", { name: "user", templateId: t.id });
    const inUse = conforms("DELETE", "/v2/templates/{id}", await api.del(`/v2/templates/${t.id}`));
    expect(inUse.status).toBe(400);
    expect(inUse.body.errors[0]).toMatch(/is used by serverless endpoint/);
  });

  it("reads a v1 template through v2 and a v2 template through v1 (v1's shape, no v2 field)", async () => {
    const v1 = (
      await api.post("/v1/templates", {
        name: "legacy",
        imageName: "ghcr.io/acme/echo:1",
        dockerStartCmd: ["python", "app.py", "--name", "my model"],
        volumeInGb: 30,
      })
    ).body;
    const seen = conforms("GET", "/v2/templates/{id}", await api.get(`/v2/templates/${v1.id}`)).body;
    expect(seen).toMatchObject({
      image: "ghcr.io/acme/echo:1",
      args: "python app.py --name 'my model'",
      mounts: { persistent: { size: 30, path: "/workspace" } },
      startSsh: true,
    });
    await api.patch(`/v2/templates/${v1.id}`, { args: "serve --fast", startSsh: false });
    const back = (await api.get(`/v1/templates/${v1.id}`)).body;
    expect(back.dockerStartCmd).toEqual(["serve", "--fast"]);
    expect(back).not.toHaveProperty("startSsh");
    expect(openApiProblems("Template", back)).toEqual([]);
  });
});

describe("management v2 registries (/v2/registries) and ECR delegations", () => {
  it("creates (201), reads, lists and deletes; the credentials never come back", async () => {
    const created = conforms(
      "POST",
      "/v2/registries",
      await api.post("/v2/registries", { name: "hub", username: "robot", password: "pw-v2-registry" }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: "hub" });
    const r = created.body;
    expect(conforms("GET", "/v2/registries/{id}", await api.get(`/v2/registries/${r.id}`)).body).toEqual(r);
    expect(conforms("GET", "/v2/registries", await api.get("/v2/registries")).body.registries).toContainEqual(r);
    // The same record as v1's registry auth.
    expect((await api.get(`/v1/containerregistryauth/${r.id}`)).body).toEqual(r);
    const dup = conforms(
      "POST",
      "/v2/registries",
      await api.post("/v2/registries", { name: "hub", username: "u", password: "p" }),
    );
    expect(dup.status).toBe(400);
    const missing = conforms("POST", "/v2/registries", await api.post("/v2/registries", { name: "x", username: "u" }));
    expect(missing.status).toBe(400);
    expect(JSON.stringify([created.body, dup.body, missing.body])).not.toContain("pw-v2-registry");
    expect((await other.get(`/v2/registries/${r.id}`)).status).toBe(404);
  });

  it("deletes a registry a template pulls with: the template loses it (v2's rule; v1 refuses)", async () => {
    const r = (await api.post("/v2/registries", { name: "private", username: "u", password: "p" })).body;
    const t = (await api.post("/v2/templates", { name: "pulls", image: "ghcr.io/acme/private:1", registry: r.id }))
      .body;
    expect(t.registry).toBe(r.id);
    expect((await api.del(`/v1/containerregistryauth/${r.id}`)).status).toBe(400);
    expect(conforms("DELETE", "/v2/registries/{id}", await api.del(`/v2/registries/${r.id}`)).status).toBe(204);
    expect((await api.get(`/v2/templates/${t.id}`)).body.registry).toBeNull();
    expect(conforms("GET", "/v2/registries/{id}", await api.get(`/v2/registries/${r.id}`)).status).toBe(404);
  });

  it("keeps one ECR delegation per repository ARN, lists and revokes it", async () => {
    const arn = "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment";
    const created = conforms(
      "POST",
      "/v2/registries/delegations",
      await api.post("/v2/registries/delegations", { resource: arn, name: "deploy" }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "deploy",
      delegatorUserId: expect.stringMatching(/^user_/),
      awsUser: "418399314813",
      repository: "runpod/deployment",
      tag: "latest",
      awsRegion: "us-east-2",
      dockerRegistryUri: "418399314813.dkr.ecr.us-east-2.amazonaws.com",
      createdAt: expect.any(String),
    });
    const again = conforms(
      "POST",
      "/v2/registries/delegations",
      await api.post("/v2/registries/delegations", { resource: arn }),
    );
    expect(again.body.id).toBe(created.body.id);
    const list = conforms("GET", "/v2/registries/delegations", await api.get("/v2/registries/delegations"));
    expect(list.body.delegations).toEqual([created.body]);
    const bad = conforms(
      "POST",
      "/v2/registries/delegations",
      await api.post("/v2/registries/delegations", { resource: "arn:aws:s3:::bucket" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^\$\.resource: must be an ECR repository ARN/);
    const revoke = `/v2/registries/delegations/${created.body.id}`;
    expect(conforms("DELETE", "/v2/registries/delegations/{id}", await api.del(revoke)).status).toBe(204);
    expect(conforms("DELETE", "/v2/registries/delegations/{id}", await api.del(revoke)).status).toBe(404);
    expect((await api.get("/v2/registries/delegations")).body.delegations).toEqual([]);
  });
});

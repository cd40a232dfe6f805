import { describe, expect, it } from "vitest";
import { containerRegistryAuthProvider as auths } from "../../../provider/container-registry-auth-provider";
import { CONTAINER_REGISTRY_AUTH_FIELDS, TEMPLATE_FIELDS } from "../../../provider/field-rules";
import { UNKNOWN } from "../../../provider/property-values";
import { templateProvider as templates } from "../../../provider/template-provider";

const SECRET = "s3cr3t-pa55w0rd";
const template = {
  name: "worker-abc1234",
  __autoNamed: true,
  imageName: "ghcr.io/acme/worker:1.0",
  isServerless: true,
  env: { MODEL: "llama", HF_TOKEN: SECRET },
  ports: ["8000/http", "22/tcp"],
};

describe("Template check", () => {
  it("accepts valid inputs and hands them on unchanged for a new template", async () => {
    expect(await templates.check({}, template)).toEqual({ inputs: template, failures: [] });
  });

  it.each([
    ["imageName", "", "must not be empty"],
    ["imageName", "ghcr.io/acme/worker: 1.0", "must not contain whitespace"],
    ["containerDiskInGb", -5, "must be at least 0 GB"],
    ["volumeMountPath", "workspace", "must be an absolute path (starting with /)"],
    ["category", "TPU", "must be one of NVIDIA, AMD, CPU"],
    ["ports", ["80/udp"], 'must be "<port>/<http|tcp>" with a port from 1 to 65535, e.g. "8888/http" (at ports[0])'],
    ["adoptId", "", "must be the id of an existing resource (a non-empty string)"],
  ])("fails on %s = %j: %s", async (property, value, reason) => {
    const { failures } = await templates.check({}, { ...template, [property]: value });
    expect(failures).toContainEqual({ property, reason });
  });

  it("never repeats an env value in a failure", async () => {
    const { failures } = await templates.check({}, { ...template, env: { "BAD NAME": SECRET, OK: 42 } });
    expect(failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).not.toContain(SECRET);
  });

  it("does not judge values that are unknown during preview", async () => {
    expect((await templates.check({}, { ...template, imageName: UNKNOWN, env: UNKNOWN })).failures).toEqual([]);
  });

  it("gives a replacement the next name of the series, so old and new can coexist", async () => {
    const olds = { ...template };
    const { inputs } = await templates.check(olds, { ...template, category: "AMD" });
    expect(inputs.name).toBe("worker-abc1234-1");
    const again = await templates.check({ ...olds, category: "NVIDIA" }, { ...template, category: "NVIDIA" });
    expect(again.inputs.name).toBe("worker-abc1234");
  });

  it("keeps the name on an in-place change", async () => {
    const { inputs } = await templates.check(template, { ...template, imageName: "ghcr.io/acme/worker:1.1" });
    expect(inputs.name).toBe("worker-abc1234");
  });
});

describe("Template diff", () => {
  const state = { ...template, __provider: "x" };

  it("finds no change when nothing changed, and compares ports as a set", async () => {
    const reordered = { ...template, ports: ["22/tcp", "8000/http"] };
    expect(await templates.diff("id", state, reordered)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each([
    ["imageName", "ghcr.io/acme/worker:1.1"],
    ["env", { MODEL: "mistral", HF_TOKEN: SECRET }],
    ["containerDiskInGb", 80],
    ["dockerStartCmd", ["python", "-m", "worker"]],
    ["containerRegistryAuthId", "auth-2"],
  ])("updates %s in place", async (key, value) => {
    expect(await templates.diff("id", state, { ...template, [key]: value })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it.each([
    ["category", "CPU"],
    ["isServerless", false],
  ])("replaces on %s, creating the new template first when auto-named", async (key, value) => {
    expect(await templates.diff("id", state, { ...template, [key]: value })).toMatchObject({
      changes: true,
      replaces: [key],
      deleteBeforeReplace: false,
    });
  });

  it("deletes first when the user chose the name (names are unique)", async () => {
    const named = { ...template, __autoNamed: undefined, name: "my-template" };
    expect(await templates.diff("id", { ...named }, { ...named, category: "CPU" })).toMatchObject({
      replaces: ["category"],
      deleteBeforeReplace: true,
    });
  });

  it("covers every TemplateCreateInput field with a rule", () => {
    expect(Object.keys(TEMPLATE_FIELDS).sort()).toEqual(
      [
        "args",
        "startJupyter",
        "startSsh",
        "category",
        "containerDiskInGb",
        "containerRegistryAuthId",
        "dockerEntrypoint",
        "dockerStartCmd",
        "env",
        "imageName",
        "isPublic",
        "isServerless",
        "name",
        "ports",
        "readme",
        "volumeInGb",
        "volumeMountPath",
      ].sort(),
    );
  });
});

describe("ContainerRegistryAuth check and diff", () => {
  const auth = { name: "ghcr-abc1234", __autoNamed: true, username: "bot", password: SECRET };

  it("requires every field, and never repeats the password", async () => {
    const { failures } = await auths.check({}, { ...auth, username: "", password: 42 });
    expect(failures).toContainEqual({ property: "username", reason: "must not be empty" });
    expect(failures.map((f) => f.property)).toContain("password");
    expect(JSON.stringify(await auths.check({}, { ...auth, name: "" }))).not.toMatch(/"reason":"[^"]*s3cr3t/);
  });

  it("replaces on any change, the rotated credential taking the next name of the series", async () => {
    const rotated = await auths.check(auth, { ...auth, password: "n3w-pa55" });
    expect(rotated.inputs.name).toBe("ghcr-abc1234-1");
    expect(await auths.diff("id", auth, rotated.inputs)).toEqual({
      changes: true,
      replaces: ["name", "password"],
      deleteBeforeReplace: false,
    });
    expect(await auths.diff("id", auth, auth)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("deletes first when the user chose the name", async () => {
    const named = { ...auth, __autoNamed: undefined, name: "ghcr" };
    expect(await auths.diff("id", named, { ...named, username: "other" })).toMatchObject({
      replaces: ["username"],
      deleteBeforeReplace: true,
    });
  });

  it("has a rule for each field, and every one replaces", () => {
    expect(Object.values(CONTAINER_REGISTRY_AUTH_FIELDS).every((r) => r.replaces)).toBe(true);
    expect(Object.keys(CONTAINER_REGISTRY_AUTH_FIELDS).sort()).toEqual(["name", "password", "username"]);
  });
});

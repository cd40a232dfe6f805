import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  ContainerRegistryAuthCreateInputSchema,
  ContainerRegistryAuthSchema,
  fieldProblems,
  TemplateCreateInputSchema,
  TemplateSchema,
  TemplateUpdateInputSchema,
} from "../../../sdk/schemas";

/** The problems of `input` against `schema`, or [] when it is valid. */
function problems(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  return r.success ? [] : fieldProblems(r.error, input);
}

describe("template input schemas", () => {
  it.each([
    ["8888/http", true],
    ["22/tcp", true],
    ["1/tcp", true],
    ["65535/http", true],
    ["0/tcp", false],
    ["65536/tcp", false],
    ["8888/udp", false],
    ["8888", false],
    ["http/8888", false],
    [" 80/http", false],
  ])("reads port %j as valid: %s", (port, ok) => {
    expect(problems(TemplateCreateInputSchema, { name: "t", imageName: "i", ports: [port] }).length === 0).toBe(ok);
  });

  it.each([
    ["MODEL", true],
    ["_private", true],
    ["HF_TOKEN2", true],
    ["2FAST", false],
    ["WITH-DASH", false],
    ["WITH SPACE", false],
    ["", false],
  ])("reads env name %j as valid: %s", (name, ok) => {
    expect(problems(TemplateCreateInputSchema, { name: "t", imageName: "i", env: { [name]: "v" } }).length === 0).toBe(
      ok,
    );
  });

  it("names an env field but never renders its value", () => {
    const input = { name: "t", imageName: "i", env: { "BAD-NAME": "sk-live-secret", GOOD: 42, OK: "fine" } };
    expect(problems(TemplateCreateInputSchema, input)).toEqual([
      { field: "env.BAD-NAME", value: "[secret]", rule: expect.stringContaining("environment variable name") },
      { field: "env.GOOD", value: "[secret]", rule: "must be a string" },
    ]);
    expect(problems(TemplateCreateInputSchema, { name: "t", imageName: "i", env: "TOKEN=sk-live" })).toEqual([
      { field: "env", value: "[secret]", rule: "must be an object of NAME: value strings" },
    ]);
  });

  it("accepts an empty registry auth id (none) and refuses what TemplateUpdateInput lacks", () => {
    expect(problems(TemplateUpdateInputSchema, { containerRegistryAuthId: "" })).toEqual([]);
    expect(problems(TemplateUpdateInputSchema, {})).toEqual([]);
    expect(problems(TemplateUpdateInputSchema, { category: "CPU", isServerless: true })).toEqual([
      { field: "category", value: '"CPU"', rule: expect.stringContaining("cannot change after creation") },
      { field: "isServerless", value: "true", rule: expect.stringContaining("cannot change after creation") },
    ]);
  });
});

describe("container registry auth schemas", () => {
  it("requires name, username and password, and never renders the password", () => {
    expect(problems(ContainerRegistryAuthCreateInputSchema, { name: "n", username: "u", password: "p" })).toEqual([]);
    expect(problems(ContainerRegistryAuthCreateInputSchema, { name: "n", username: "u", password: 12345678 })).toEqual([
      { field: "password", value: "[secret]", rule: expect.any(String) },
    ]);
    expect(problems(ContainerRegistryAuthCreateInputSchema, {}).map((p) => [p.field, p.rule])).toEqual([
      ["name", "is required"],
      ["username", "is required"],
      ["password", "is required"],
    ]);
  });
});

describe("response schemas", () => {
  it("tolerate extra fields and a sparse template, and read an auth without credentials", () => {
    expect(TemplateSchema.parse({ id: "t", name: "n", imageName: "i", newField: 1, category: "QUANTUM" })).toEqual({
      id: "t",
      name: "n",
      imageName: "i",
      category: "QUANTUM",
    });
    expect(ContainerRegistryAuthSchema.parse({ id: "c1", name: "n", createdAt: "x" })).toEqual({ id: "c1", name: "n" });
  });
});

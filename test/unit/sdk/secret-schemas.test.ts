import { describe, expect, it } from "vitest";
import { describeProblems, fieldProblems } from "../../../sdk/schemas";
import {
  CreateSecretRequestSchema,
  SECRET_LIMITS,
  secretNamesIn,
  secretReference,
  UpdateSecretRequestSchema,
} from "../../../sdk/schemas/v2";

/** The problems of a create body, as the client and the emulator word them. */
function createProblems(body: Record<string, unknown>): string {
  const parsed = CreateSecretRequestSchema.safeParse(body);
  return parsed.success ? "" : describeProblems(fieldProblems(parsed.error, body));
}

describe("the account secret wire schemas", () => {
  it("takes the names the pattern allows, up to 191 characters, none beginning with RUNPOD in any case", () => {
    for (const name of ["hf-token", "_x", "a.b/c-d_e", "X".repeat(191), "RUNPO", "my_RUNPOD"]) {
      expect(createProblems({ name, value: "v" }), name).toBe("");
    }
    expect(createProblems({ name: "9lives", value: "v" })).toBe(
      'name = "9lives": must start with a letter or _ and hold only letters, digits and _ . - / (pattern ^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$)',
    );
    expect(createProblems({ name: "", value: "v" })).toContain('name = "": must not be empty');
    expect(createProblems({ name: "n".repeat(192), value: "v" })).toContain("must be at most 191 characters");
    for (const name of ["RUNPOD", "runpod_key", "rUnPoD-x"]) {
      expect(createProblems({ name, value: "v" })).toBe(
        `name = ${JSON.stringify(name)}: must not begin with RUNPOD, in any case: the platform reserves that prefix`,
      );
    }
  });

  it("takes a value strictly under 16 MiB of UTF-8 bytes, and never renders it", () => {
    const below = SECRET_LIMITS.valueBytesBelow;
    expect(createProblems({ name: "a", value: "v".repeat(below - 1) })).toBe("");
    expect(createProblems({ name: "a", value: "v".repeat(below) })).toBe(
      "value = [secret]: must be smaller than 16 MiB of UTF-8 (strictly under 16777216 bytes); it has 16.00 MiB",
    );
    // Characters are not bytes: 5,592,406 euro signs are 16,777,218 bytes.
    expect(createProblems({ name: "a", value: "€".repeat(5_592_406) })).toContain("value = [secret]: must be smaller");
    expect(createProblems({ name: "a", value: 42 })).toBe("value = [secret]: must be a string");
    expect(createProblems({ name: "a" })).toBe("value = [secret]: is required");
  });

  it("takes a description of at most 65,535 bytes of UTF-8, and refuses unknown fields", () => {
    expect(createProblems({ name: "a", value: "v", description: "d".repeat(65_535) })).toBe("");
    expect(createProblems({ name: "a", value: "v", description: "d".repeat(65_536) })).toMatch(
      /^description = "d+\.\.\.: must be at most 65535 bytes of UTF-8; it has 65536$/,
    );
    expect(createProblems({ name: "a", value: "v", secret: "x" })).toContain('Unrecognized key: "secret"');
  });

  it("updates a value, a description or both; never the name; never nothing", () => {
    expect(UpdateSecretRequestSchema.parse({ value: "new" })).toEqual({ value: "new" });
    expect(UpdateSecretRequestSchema.parse({ description: "" })).toEqual({ description: "" });
    const problems = (body: Record<string, unknown>) => {
      const parsed = UpdateSecretRequestSchema.safeParse(body);
      return parsed.success ? "" : describeProblems(fieldProblems(parsed.error, body));
    };
    expect(problems({})).toBe("(body) = {}: must hold value (a rotation), description, or both");
    expect(problems({ name: "b", value: "x" })).toBe(
      'name = "b": cannot change: a secret\'s name is immutable (create a secret under the new name)',
    );
  });

  it("writes and reads the env placeholder, with or without the spaces inside the braces", () => {
    expect(secretReference("hf-token")).toBe("{{ RUNPOD_SECRET_hf-token }}");
    expect(secretNamesIn("{{ RUNPOD_SECRET_a }}:{{RUNPOD_SECRET_b/c}}@{{  RUNPOD_SECRET_a  }}")).toEqual(["a", "b/c"]);
    expect(secretNamesIn("{{ RUNPOD_SECRET_ }} {{ OTHER_x }} RUNPOD_SECRET_plain")).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { SecretBox } from "../../../emulator/secrets/secret-box";
import { resolveEnvSecrets, substituteSecrets } from "../../../emulator/secrets/secret-env";

const lookup = (found: Record<string, string>) => (name: string) =>
  found[name] === undefined ? undefined : { value: found[name]!, valueLastUpdatedAt: "2026-09-01T00:00:00.000Z" };

describe("a container start's secrets", () => {
  it("resolves each placeholder once, and logs which env keys got which secret, never a value", () => {
    const env = { A: "{{ RUNPOD_SECRET_tok }}", B: "x{{RUNPOD_SECRET_tok}}y", C: "plain" };
    const resolved = resolveEnvSecrets(env, lookup({ tok: "s3cr3t" }));
    expect(resolved).toEqual({
      ok: true,
      secrets: new Map([["tok", "s3cr3t"]]),
      lines: ['env A, B gets secret "tok" (value set 2026-09-01T00:00:00.000Z)'],
    });
    expect(resolveEnvSecrets(undefined, lookup({}))).toEqual({ ok: true, secrets: new Map(), lines: [] });
  });

  it("names every placeholder that names no secret, with its env key", () => {
    const env = { A: "{{ RUNPOD_SECRET_gone }}", B: "{{ RUNPOD_SECRET_tok }}", C: "{{ RUNPOD_SECRET_also-gone }}" };
    expect(resolveEnvSecrets(env, lookup({ tok: "v" }))).toEqual({
      ok: false,
      problem:
        'env A holds {{ RUNPOD_SECRET_gone }}, but the account has no secret named "gone"; env C holds {{ RUNPOD_SECRET_also-gone }}, but the account has no secret named "also-gone"',
    });
  });

  it("substitutes the values a container started with, then later ones, and leaves unknown placeholders", () => {
    const env = { A: "{{ RUNPOD_SECRET_a }}", B: "{{ RUNPOD_SECRET_b }}", C: "{{ RUNPOD_SECRET_c }}", D: "$&" };
    const out = substituteSecrets(env, new Map([["a", "old$&"]]), (name) => (name === "b" ? "later" : undefined));
    expect(out).toEqual({ A: "old$&", B: "later", C: "{{ RUNPOD_SECRET_c }}", D: "$&" });
  });
});

describe("the secret box", () => {
  it("opens what it sealed for the same record only, and seals the same value differently each time", () => {
    const box = SecretBox.ephemeral();
    const sealed = box.seal("value", "id1");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("value");
    expect(box.open(sealed, "id1")).toBe("value");
    expect(box.seal("value", "id1")).not.toBe(sealed);
    expect(() => box.open(sealed, "id2")).toThrow("secret id2: its value does not open with this process's key");
    expect(() => SecretBox.ephemeral().open(sealed, "id1")).toThrow("does not open");
  });
});

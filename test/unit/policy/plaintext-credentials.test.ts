import * as policyDeserialize from "@pulumi/policy/deserialize";
import { Secret } from "@pulumi/policy/policy";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import { CREDENTIAL_SHAPES, credentialShapeOf } from "../../../policy/credential-shapes";
import { checkPlaintextCredentials } from "../../../policy/plaintext-credentials";
import { trackSecretInputs } from "../../../policy/secret-inputs";
import { UNKNOWN } from "../../../policy/unknown-values";

const x = (n: number) => "x".repeat(n);
/** One example of each shape, built rather than written out (no scanner takes this file for a leak). */
const EXAMPLES: Record<string, string> = {
  "a Hugging Face token (hf_...)": `hf_${x(34)}`,
  "an Anthropic API key (sk-ant-...)": `sk-ant-api03-${x(40)}`,
  "an OpenAI API key (sk-...)": `sk-proj-${x(40)}`,
  "a GitHub token (ghp_..., gho_..., ghs_...)": `ghp_${x(36)}`,
  "a GitHub fine-grained token (github_pat_...)": `github_pat_${x(60)}`,
  "an AWS access key id (AKIA..., ASIA...)": "AKIAIOSFODNN7EXAMPLE",
  "a GitLab token (glpat-...)": `glpat-${x(20)}`,
  "a Slack token (xox...)": `xoxb-${x(24)}`,
  "a Stripe live key (sk_live_..., rk_live_...)": `sk_live_${x(24)}`,
  "a Google API key (AIza...)": `AIza${x(35)}`,
  "a RunPod API key (rpa_...)": `rpa_${x(40)}`,
  "a Replicate token (r8_...)": `r8_${x(37)}`,
  "a private key (-----BEGIN ... PRIVATE KEY-----)": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn...",
  "a password in a URL (scheme://user:password@host)": "postgres://app:hunter2@db:5432/app",
};

const message = (kind: string, name: string, key: string, label: string) =>
  `${kind} "${name}": env.${key} = [plain text, not shown]: looks like ${label} in plain text, which the platform shows to everyone on the account; keep it in a Secret and set env.${key} to the secret's reference ({{ RUNPOD_SECRET_<name> }})`;
/** The finding about a value the program marked secret: encrypted in the state, plain text on the platform. */
const secretMessage = (kind: string, name: string, key: string, label: string) =>
  `${kind} "${name}": env.${key} = [secret, not shown]: looks like ${label}; as a Pulumi secret it is encrypted in the state, but the platform stores env values as plain text and shows them to everyone on the account; keep it in a Secret and set env.${key} to the secret's reference ({{ RUNPOD_SECRET_<name> }})`;

describe("credential shapes", () => {
  it("recognise one example of every shape, and nothing in ordinary settings", () => {
    expect(Object.keys(EXAMPLES)).toEqual(CREDENTIAL_SHAPES.map((s) => s.label));
    for (const [label, value] of Object.entries(EXAMPLES)) expect(credentialShapeOf(value)?.label, value).toBe(label);
    for (const plain of [
      "llama-3-8b",
      "/workspace/hf",
      "https://huggingface.co/meta",
      "sk-short",
      "hf_migration_secret",
    ]) {
      expect(credentialShapeOf(plain), plain).toBeUndefined();
    }
  });

  it("take a secret's placeholder out before judging, inside a URL too", () => {
    expect(credentialShapeOf("{{ RUNPOD_SECRET_hf-token }}")).toBeUndefined();
    expect(credentialShapeOf("postgres://app:{{ RUNPOD_SECRET_db }}@db/app")).toBeUndefined();
    expect(credentialShapeOf("postgres://app:{{RUNPOD_SECRET_db}}@db/app")).toBeUndefined();
  });
});

describe("runpod-plaintext-credentials' rule", () => {
  it("names the resource, the key and the kind of each credential, never the value", () => {
    const env = { HF_TOKEN: EXAMPLES["a Hugging Face token (hf_...)"]!, MODEL: "llama", DB: "postgres://a:b@h" };
    const found = checkPlaintextCredentials("Template", "worker", { env });
    expect(found).toEqual([
      message("Template", "worker", "HF_TOKEN", "a Hugging Face token (hf_...)"),
      message("Template", "worker", "DB", "a password in a URL (scheme://user:password@host)"),
    ]);
    expect(found.join("\n")).not.toContain(x(34));
    expect(found.join("\n")).not.toContain(":b@");
  });

  it("leaves references, unknown values and allowed keys alone", () => {
    const token = EXAMPLES["a GitHub token (ghp_..., gho_..., ghs_...)"]!;
    const env = { A: "{{ RUNPOD_SECRET_gh }}", C: UNKNOWN, FAKE: token, SECRET_FAKE: new Secret(token) };
    expect(checkPlaintextCredentials("Pod", "p", { env } as never, { allowedKeys: ["FAKE", "SECRET_FAKE"] })).toEqual(
      [],
    );
    expect(checkPlaintextCredentials("Pod", "p", { env: UNKNOWN } as never)).toEqual([]);
    expect(checkPlaintextCredentials("Pod", "p", {})).toEqual([]);
  });

  it("reports a value the program marked secret too, saying it is plain text on the platform, never the value", () => {
    const label = "a GitHub token (ghp_..., gho_..., ghs_...)";
    const token = EXAMPLES[label]!;
    const one = checkPlaintextCredentials("Pod", "p", { env: { B: new Secret(token), PLAIN: "x" } } as never);
    expect(one).toEqual([secretMessage("Pod", "p", "B", label)]);
    // A whole env marked secret: each credential in it.
    const whole = checkPlaintextCredentials("Pod", "p", { env: new Secret({ T: token, U: "llama" }) } as never);
    expect(whole).toEqual([secretMessage("Pod", "p", "T", label)]);
    expect([...one, ...whole].join("\n")).not.toContain(x(36));
  });

  it("takes allowed keys and the team's own prefixes per stack", () => {
    const env = { FAKE: `hf_${x(34)}`, OWN: `acme_live_${x(20)}` };
    const config = {
      additionalPrefixes: ["acme_live_"],
      byStack: { "dev*": { allowedKeys: ["FAKE", "OWN"] } },
    };
    expect(
      checkPlaintextCredentials("Pod", "p", { env }, config, { stackName: "dev-1", stackTags: new Map() }),
    ).toEqual([]);
    expect(checkPlaintextCredentials("Pod", "p", { env }, config, { stackName: "prod", stackTags: new Map() })).toEqual(
      [
        message("Pod", "p", "FAKE", "a Hugging Face token (hf_...)"),
        message("Pod", "p", "OWN", 'a credential with the prefix "acme_live_"'),
      ],
    );
  });

  it("tells the values the program marked secret from what the engine sends (pulumi.secret), and reports both", () => {
    trackSecretInputs();
    const { deserializeProperties } = policyDeserialize as unknown as {
      deserializeProperties(s: { toJavaScript(): unknown }, proxy: boolean): Record<string, unknown>;
    };
    const signed = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
    const token = `hf_${x(34)}`;
    const props = deserializeProperties({ toJavaScript: () => ({ env: { A: signed(token), B: token } }) }, false);
    // The validation sees plain values, as before...
    expect(props).toEqual({ env: { A: token, B: token } });
    // ...and the rule reports both, telling the secret one apart in its words.
    expect(checkPlaintextCredentials("Template", "t", props)).toEqual([
      secretMessage("Template", "t", "A", "a Hugging Face token (hf_...)"),
      message("Template", "t", "B", "a Hugging Face token (hf_...)"),
    ]);
    const whole = deserializeProperties({ toJavaScript: () => ({ env: signed({ A: token }) }) }, false);
    expect(checkPlaintextCredentials("Template", "t", whole)).toEqual([
      secretMessage("Template", "t", "A", "a Hugging Face token (hf_...)"),
    ]);
  });
});

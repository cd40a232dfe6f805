import { SECRET_PLACEHOLDER } from "../sdk/schemas/v2/secret-reference";

/*
 * What a credential written into an env value looks like: the documented shapes of the tokens
 * and keys teams put in containers (each vendor's fixed prefix and length), so a match is rarely
 * anything else. Pure: the `runpod-plaintext-credentials` policy and its tests call it directly.
 */

/** One kind of credential: its name in messages and its shape. */
export interface CredentialShape {
  /** What it is, e.g. `a Hugging Face token (hf_...)`. */
  readonly label: string;
  readonly pattern: RegExp;
}

/** The shapes, most specific first (an Anthropic key also starts with `sk-`). */
export const CREDENTIAL_SHAPES: readonly CredentialShape[] = [
  { label: "a Hugging Face token (hf_...)", pattern: /\bhf_[A-Za-z0-9]{30,}/ },
  { label: "an Anthropic API key (sk-ant-...)", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { label: "an OpenAI API key (sk-...)", pattern: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { label: "a GitHub token (ghp_..., gho_..., ghs_...)", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/ },
  { label: "a GitHub fine-grained token (github_pat_...)", pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/ },
  { label: "an AWS access key id (AKIA..., ASIA...)", pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/ },
  { label: "a GitLab token (glpat-...)", pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { label: "a Slack token (xox...)", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { label: "a Stripe live key (sk_live_..., rk_live_...)", pattern: /\b[rs]k_live_[A-Za-z0-9]{20,}/ },
  { label: "a Google API key (AIza...)", pattern: /\bAIza[0-9A-Za-z_-]{35}/ },
  { label: "a RunPod API key (rpa_...)", pattern: /\brpa_[A-Za-z0-9]{20,}/ },
  { label: "a Replicate token (r8_...)", pattern: /\br8_[A-Za-z0-9]{30,}/ },
  { label: "a private key (-----BEGIN ... PRIVATE KEY-----)", pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/ },
  {
    label: "a password in a URL (scheme://user:password@host)",
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:[^\s@/]+@/i,
  },
];

/** A team's own token prefix as a shape: the prefix, then at least 16 token characters. */
export function prefixShape(prefix: string): CredentialShape {
  const escaped = prefix.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
  return {
    label: `a credential with the prefix ${JSON.stringify(prefix)}`,
    pattern: new RegExp(`${escaped}[A-Za-z0-9_-]{16,}`),
  };
}

/**
 * The first shape `value` has, once its `{{ RUNPOD_SECRET_<name> }}` placeholders are taken out
 * (a reference to a secret is the fix, never a finding); undefined when it looks like none.
 */
export function credentialShapeOf(value: string, extra: readonly CredentialShape[] = []): CredentialShape | undefined {
  const text = value.replace(SECRET_PLACEHOLDER, "");
  return [...CREDENTIAL_SHAPES, ...extra].find((shape) => shape.pattern.test(text));
}

import type { PolicyScenario } from "./types";

/*
 * A scenario of `runpod-plaintext-credentials`: credentials written into env values are reported,
 * naming the resource and the key, never the value, those the program marked secret too (in
 * words of their own: encrypted in the state, plain text on the platform); a
 * `{{ RUNPOD_SECRET_<name> }}` reference (alone or inside a URL) and a key the stack's settings
 * allow are not. The fake credentials are built, not written out, so that no scanner
 * takes this file for a leak.
 */

const fake = (prefix: string, length: number) => `${prefix}${"x".repeat(length)}`;

const FIX = (key: string) =>
  `keep it in a Secret and set env.${key} to the secret's reference ({{ RUNPOD_SECRET_<name> }})`;

const finding = (subject: string, key: string, label: string) => ({
  policy: "runpod-plaintext-credentials" as const,
  message: `${subject}: env.${key} = [plain text, not shown]: looks like ${label} in plain text, which the platform shows to everyone on the account; ${FIX(key)}`,
});

/** The finding about a value the program marked secret: encrypted in the state, plain text on the platform. */
const secretFinding = (subject: string, key: string, label: string) => ({
  policy: "runpod-plaintext-credentials" as const,
  message: `${subject}: env.${key} = [secret, not shown]: looks like ${label}; as a Pulumi secret it is encrypted in the state, but the platform stores env values as plain text and shows them to everyone on the account; ${FIX(key)}`,
});

/** Credential scenarios. */
export const CREDENTIAL_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "plaintext-credentials",
    description:
      "A template and a pod with tokens written into env, as plain text or marked secret (each reported, advisory), beside a Secret, references to it and a key the dev stacks allow (not reported).",
    stack: "dev-alice",
    config: {
      "runpod-plaintext-credentials": { byStack: { "dev*": { allowedKeys: ["FAKE_HF_TOKEN"] } } },
    },
    resources: [
      { type: "Secret", name: "hf-token", props: { name: "hf-token", value: fake("hf_", 34) } },
      {
        type: "Template",
        name: "worker",
        props: {
          imageName: "ghcr.io/acme/worker:1.0",
          isServerless: true,
          env: {
            HF_TOKEN: fake("hf_", 34),
            OPENAI_API_KEY: fake("sk-proj-", 40),
            HF_HOME: "/workspace/hf",
            MODEL_TOKEN: "{{ RUNPOD_SECRET_hf-token }}",
            GITHUB_TOKEN: fake("ghp_", 36),
          },
        },
        secretProps: ["env.GITHUB_TOKEN"],
      },
      {
        type: "Pod",
        name: "trainer",
        props: {
          imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
          gpuTypeIds: ["NVIDIA L4"],
          env: {
            AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
            DATABASE_URL: "postgres://app:{{ RUNPOD_SECRET_db-password }}@db:5432/app",
            FAKE_HF_TOKEN: fake("hf_", 34),
          },
        },
      },
    ],
    expect: {
      mandatory: [],
      advisory: [
        finding('Template "worker"', "HF_TOKEN", "a Hugging Face token (hf_...)"),
        finding('Template "worker"', "OPENAI_API_KEY", "an OpenAI API key (sk-...)"),
        secretFinding('Template "worker"', "GITHUB_TOKEN", "a GitHub token (ghp_..., gho_..., ghs_...)"),
        finding('Pod "trainer"', "AWS_ACCESS_KEY_ID", "an AWS access key id (AKIA..., ASIA...)"),
      ],
    },
  },
];

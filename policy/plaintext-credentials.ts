import { Secret } from "@pulumi/policy/policy";
import { z } from "zod";
import { resourcePolicy, ruleFor } from "./define-policy";
import { credentialShapeOf, prefixShape } from "./credential-shapes";
import { resourceLabel, violationList } from "./format";
import { withStackOverrides } from "./policy-config";
import {
  type ClusterProps,
  ClusterResource,
  type PodProps,
  PodResource,
  type ResourceKind,
  type TemplateProps,
  TemplateResource,
} from "./resource-types";
import { isMarkedSecret } from "./secret-inputs";
import { NO_STACK, type StackContext, settingsForStack } from "./stack-context";
import { isUnknownValue, rawProp } from "./unknown-values";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const PLAINTEXT_CREDENTIALS_POLICY = "runpod-plaintext-credentials";

/** The settings of `runpod-plaintext-credentials`; each may differ per stack through `byStack`/`byStackTag`. */
export const PlaintextCredentialsSettingsSchema = z.object({
  allowedKeys: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "Env keys whose values are never judged, e.g. a test fixture's `FAKE_TOKEN` (in byStack for the stacks that have it).",
    ),
  additionalPrefixes: z
    .array(z.string().min(2))
    .optional()
    .describe(
      "Prefixes of your organisation's own tokens (e.g. `acme_live_`): a value holding one followed by 16 or more token characters is judged a credential too.",
    ),
});

/** The settings of `runpod-plaintext-credentials`. */
export type PlaintextCredentialsSettings = z.infer<typeof PlaintextCredentialsSettingsSchema>;

/** The configuration of `runpod-plaintext-credentials`: the settings plus their per-stack overrides. */
export const PlaintextCredentialsConfigSchema = withStackOverrides(PlaintextCredentialsSettingsSchema);

/** The configuration of `runpod-plaintext-credentials`. */
export type PlaintextCredentialsConfig = z.infer<typeof PlaintextCredentialsConfigSchema>;

/** How a finding shows the value: never at all, not even in part. */
const NOT_SHOWN = { plain: "[plain text, not shown]", secret: "[secret, not shown]" } as const;

/**
 * Whether the program marked the value secret (`pulumi.secret`, `config.requireSecret`): a
 * `Secret` of @pulumi/policy, or marked by the engine (secret-inputs.ts). It changes only what
 * the finding says, never whether there is one.
 */
function isSecretInput(container: object, key: string, value: unknown): boolean {
  return value instanceof Secret || isMarkedSecret(container, key);
}

/** What is wrong with a credential-shaped env value, and the fix. */
function rule(label: string, key: string, pulumiSecret: boolean): string {
  const fix = `keep it in a Secret and set env.${key} to the secret's reference ({{ RUNPOD_SECRET_<name> }})`;
  return pulumiSecret
    ? `looks like ${label}; as a Pulumi secret it is encrypted in the state, but the platform stores env values as plain text and shows them to everyone on the account; ${fix}`
    : `looks like ${label} in plain text, which the platform shows to everyone on the account; ${fix}`;
}

/**
 * The rule: every `env` value of a resource that looks like a credential (credential-shapes.ts:
 * Hugging Face, OpenAI, GitHub, AWS and the like, plus the team's `additionalPrefixes`) is a
 * finding, unless it is a `{{ RUNPOD_SECRET_<name> }}` reference or its key is in `allowedKeys`.
 * A value the program marked secret is a finding too: Pulumi keeps it as ciphertext in the state,
 * but the platform stores the env as written and shows it to everyone on the account, so only a
 * platform secret keeps it from them; the message says so. Values unknown during preview are not
 * judged (they are outputs, such as a `Secret`'s `reference`). The message names the resource,
 * the env key and the kind of credential, never the value, and points at a `Secret`.
 */
export function checkPlaintextCredentials(
  kind: ResourceKind,
  name: string,
  props: TemplateProps | PodProps | ClusterProps,
  config: PlaintextCredentialsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const raw = rawProp(props, "env");
  // A whole env marked secret (`env: pulumi.secret({...})`): each value in it is a Pulumi secret.
  const wholeSecret = raw !== null && typeof raw === "object" && isSecretInput(props, "env", raw);
  const env: unknown = raw instanceof Secret ? raw.value : raw;
  if (env === null || typeof env !== "object") return [];
  const rules = settingsForStack<PlaintextCredentialsSettings>(config, context).values;
  const allowed = new Set(rules.allowedKeys ?? []);
  const extra = (rules.additionalPrefixes ?? []).map(prefixShape);
  const found = violationList(resourceLabel(kind, name));
  for (const key of Object.keys(env)) {
    const given = rawProp(env, key);
    const value: unknown = given instanceof Secret ? given.value : given;
    if (typeof value !== "string" || isUnknownValue(value) || allowed.has(key)) continue;
    const shape = credentialShapeOf(value, extra);
    if (!shape) continue;
    const pulumiSecret = wholeSecret || isSecretInput(env, key, given);
    found.add(`env.${key}`, NOT_SHOWN[pulumiSecret ? "secret" : "plain"], rule(shape.label, key, pulumiSecret));
  }
  return found.messages;
}

/** The rule for a template's env. */
export function checkTemplateCredentials(
  name: string,
  props: TemplateProps,
  config?: PlaintextCredentialsConfig,
  context?: StackContext,
): string[] {
  return checkPlaintextCredentials("Template", name, props, config, context);
}

/** The rule for a pod's env. */
export function checkPodCredentials(
  name: string,
  props: PodProps,
  config?: PlaintextCredentialsConfig,
  context?: StackContext,
): string[] {
  return checkPlaintextCredentials("Pod", name, props, config, context);
}

/** The rule for a cluster's env, which every member pod runs with. */
export function checkClusterCredentials(
  name: string,
  props: ClusterProps,
  config?: PlaintextCredentialsConfig,
  context?: StackContext,
): string[] {
  return checkPlaintextCredentials("Cluster", name, props, config, context);
}

/**
 * The policy (advisory: a new policy breaks no stack; a team sets `enforcementLevel` to
 * `mandatory` in the configuration its stacks run with, per stack if it likes): credentials
 * written into the env of templates, pods and clusters, where the platform shows them as plain text.
 */
export const plaintextCredentialsPolicy = resourcePolicy({
  name: PLAINTEXT_CREDENTIALS_POLICY,
  description:
    "Env values of templates, pods and clusters that look like credentials (Hugging Face, OpenAI, GitHub, AWS keys and the like), Pulumi secrets included: the platform stores env values as plain text and shows them to everyone on the account.",
  enforcementLevel: "advisory",
  config: PlaintextCredentialsConfigSchema,
  remediationSteps:
    'Create a Secret holding the value (new Secret("hf-token", { value: config.requireSecret("hfToken") })) and set the env key to its reference (env: { HF_TOKEN: hfToken.reference }).',
  resource: TemplateResource,
  check: checkTemplateCredentials,
  more: [ruleFor(PodResource, checkPodCredentials), ruleFor(ClusterResource, checkClusterCredentials)],
});

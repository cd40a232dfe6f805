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
const NOT_SHOWN = "[plain text, not shown]";

/** Whether the program marked the value secret: a `Secret` of @pulumi/policy, or marked by the engine (secret-inputs.ts). */
function isSecretInput(container: object, key: string, value: unknown): boolean {
  return value instanceof Secret || isMarkedSecret(container, key);
}

/**
 * The rule: every `env` value of a resource that looks like a credential (credential-shapes.ts:
 * Hugging Face, OpenAI, GitHub, AWS and the like, plus the team's `additionalPrefixes`) is a
 * finding, unless the program marked it secret, it is a `{{ RUNPOD_SECRET_<name> }}` reference,
 * or its key is in `allowedKeys`. Even a Pulumi secret reaches the platform as plain text, but the
 * program then chose it knowingly. Values unknown during preview are not judged (they are outputs,
 * such as a `Secret`'s `reference`). The message names the resource, the env key and the kind of
 * credential, never the value, and points at a `Secret`.
 */
export function checkPlaintextCredentials(
  kind: ResourceKind,
  name: string,
  props: TemplateProps | PodProps | ClusterProps,
  config: PlaintextCredentialsConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const env = rawProp(props, "env");
  if (env === null || typeof env !== "object" || isSecretInput(props, "env", env)) return [];
  const rules = settingsForStack<PlaintextCredentialsSettings>(config, context).values;
  const allowed = new Set(rules.allowedKeys ?? []);
  const extra = (rules.additionalPrefixes ?? []).map(prefixShape);
  const found = violationList(resourceLabel(kind, name));
  for (const key of Object.keys(env)) {
    const value = rawProp(env, key);
    if (typeof value !== "string" || isUnknownValue(value) || allowed.has(key)) continue;
    if (isSecretInput(env, key, value)) continue;
    const shape = credentialShapeOf(value, extra);
    if (!shape) continue;
    found.add(
      `env.${key}`,
      NOT_SHOWN,
      `looks like ${shape.label} in plain text, which the platform shows to everyone on the account; keep it in a Secret and set env.${key} to the secret's reference ({{ RUNPOD_SECRET_<name> }})`,
    );
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
 * `mandatory` in the configuration its stacks run with): credentials written as plain text into
 * the env of templates, pods and clusters.
 */
export const plaintextCredentialsPolicy = resourcePolicy({
  name: PLAINTEXT_CREDENTIALS_POLICY,
  description:
    "Env values of templates, pods and clusters that look like credentials (Hugging Face, OpenAI, GitHub, AWS keys and the like) written as plain text, which the platform shows to everyone on the account.",
  enforcementLevel: "advisory",
  config: PlaintextCredentialsConfigSchema,
  remediationSteps:
    'Create a Secret holding the value (new Secret("hf-token", { value: config.requireSecret("hfToken") })) and set the env key to its reference (env: { HF_TOKEN: hfToken.reference }).',
  resource: TemplateResource,
  check: checkTemplateCredentials,
  more: [ruleFor(PodResource, checkPodCredentials), ruleFor(ClusterResource, checkClusterCredentials)],
});

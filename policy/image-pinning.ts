import { z } from "zod";
import { parseImageReference, repositoryUnder } from "../sdk/schemas";
import { resourcePolicy, ruleFor } from "./define-policy";
import { formatValue, resourceLabel, violationList } from "./format";
import { withStackOverrides } from "./policy-config";
import { type PodProps, PodResource, type TemplateProps, TemplateResource } from "./resource-types";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const IMAGE_PINNING_POLICY = "runpod-image-pinning";

/** The tag a reference without a tag pulls, and which is refused unless allowed. */
const LATEST = "latest";

/** The settings of `runpod-image-pinning`; each may differ per stack through `byStack`/`byStackTag`. */
export const ImagePinningSettingsSchema = z.object({
  allowedRegistries: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "If set, every image must come from a repository under one of these prefixes, written fully qualified: `ghcr.io/acme`, `registry.acme.internal:5000`, `docker.io/library` (a bare `ubuntu` is `docker.io/library/ubuntu`). A prefix matches at a `/` boundary.",
    ),
  mutableTags: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "Tags your team moves, refused like `latest` (e.g. `main`, `stable`, `nightly`). `latest` (and no tag at all) is always refused unless listed in allowedMutableTags. Compared without regard to case.",
    ),
  allowedMutableTags: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'Mutable tags accepted anyway, e.g. `["latest"]` for dev stacks (in byStack). Workers then run whatever the tag points to when they start.',
    ),
  requireDigest: z
    .boolean()
    .optional()
    .describe(
      "Refuse every image without a digest (`...@sha256:<hex>`), even with a version tag: tags can be moved, digests cannot (default false).",
    ),
});

/** The settings of `runpod-image-pinning`. */
export type ImagePinningSettings = z.infer<typeof ImagePinningSettingsSchema>;

/** The configuration of `runpod-image-pinning` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const ImagePinningConfigSchema = withStackOverrides(ImagePinningSettingsSchema);

/** The configuration of `runpod-image-pinning`. */
export type ImagePinningConfig = z.infer<typeof ImagePinningConfigSchema>;

const PIN_ADVICE = "pin a version tag or a digest (image@sha256:<digest>)";

/**
 * The image pinning rule: a template's `imageName` is a valid image reference that carries a
 * digest, or a tag that is neither `latest` nor one of `mutableTags` (unless listed in
 * `allowedMutableTags`); with `requireDigest`, a digest; with `allowedRegistries`, from a
 * repository under one of them. Returns one message per violation.
 */
export function checkImagePinning(
  name: string,
  props: TemplateProps,
  config: ImagePinningConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  return imageProblems("Template", name, props.imageName, config, context);
}

/**
 * The same rule for a pod's `imageName`. A pod that leaves `imageName` out runs its template's
 * image, which the template's own check judges: no message then.
 */
export function checkPodImagePinning(
  name: string,
  props: PodProps,
  config: ImagePinningConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  if (props.imageName === undefined && props.templateId !== undefined) return [];
  return imageProblems("Pod", name, props.imageName, config, context);
}

function imageProblems(
  kind: "Template" | "Pod",
  name: string,
  image: unknown,
  config: ImagePinningConfig,
  context: StackContext,
): string[] {
  const found = violationList(resourceLabel(kind, name));
  const shown = formatValue(image);
  if (typeof image !== "string") {
    const what = kind === "Pod" ? "the pod" : "the workers";
    return found.add(
      "imageName",
      shown,
      `must be an image reference (the image ${what} run${kind === "Pod" ? "s" : ""})`,
    );
  }
  const parsed = parseImageReference(image);
  if (!parsed.ok) {
    return found.add(
      "imageName",
      shown,
      `is not a valid image reference: it ${parsed.problem} (form: registry[:port]/path[:tag][@sha256:digest])`,
    );
  }
  const rules = settingsForStack<ImagePinningSettings>(config, context);
  const { reference } = parsed;
  const allowed = rules.values.allowedRegistries;
  if (allowed && !allowed.some((prefix) => repositoryUnder(reference.repository, prefix))) {
    found.add(
      "imageName",
      shown,
      `comes from ${reference.repository}, which is not under an allowed registry ${formatValue(allowed)} (${settingLabel(rules, "allowedRegistries")})`,
    );
  }
  if (reference.digest !== undefined) return found.messages;
  if (rules.values.requireDigest) {
    found.add(
      "imageName",
      shown,
      `has no digest (${settingLabel(rules, "requireDigest")}); pin it as ${reference.repository}${reference.tag ? `:${reference.tag}` : ""}@sha256:<digest>`,
    );
    return found.messages;
  }
  const tag = reference.tag ?? LATEST;
  const lower = tag.toLowerCase();
  const accepted = (rules.values.allowedMutableTags ?? []).some((t) => t.toLowerCase() === lower);
  if (accepted) return found.messages;
  if (reference.tag === undefined) {
    found.add("imageName", shown, `has no tag, so it pulls the mutable "latest"; ${PIN_ADVICE}`);
  } else if (lower === LATEST) {
    found.add("imageName", shown, `uses the mutable tag "${tag}"; ${PIN_ADVICE}`);
  } else if ((rules.values.mutableTags ?? []).some((t) => t.toLowerCase() === lower)) {
    const rule = `uses the mutable tag "${tag}" (${settingLabel(rules, "mutableTags")}); ${PIN_ADVICE}`;
    found.add("imageName", shown, rule);
  }
  return found.messages;
}

/** The policy: every template and pod runs a pinned image from an allowed registry. */
export const imagePinningPolicy = resourcePolicy({
  name: IMAGE_PINNING_POLICY,
  description:
    "A template's or pod's imageName must be pinned: a digest, or a tag other than latest and the configured mutable tags; from an allowed registry when registries are configured.",
  enforcementLevel: "mandatory",
  config: ImagePinningConfigSchema,
  remediationSteps:
    "Set imageName to a released version tag (ghcr.io/acme/worker:1.4.2) or a digest (ghcr.io/acme/worker@sha256:...), from an allowed registry. For a dev stack, allowedMutableTags in byStack accepts latest there.",
  resource: TemplateResource,
  check: checkImagePinning,
  more: [ruleFor(PodResource, checkPodImagePinning)],
});

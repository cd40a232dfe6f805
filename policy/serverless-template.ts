import { z } from "zod";
import { stackPolicy } from "./define-policy";
import { formatSetting, formatValue, resourceLabel, violationList } from "./format";
import { withStackOverrides } from "./policy-config";
import {
  linkedOfType,
  type NamedProps,
  type ServerlessEndpointProps,
  ServerlessEndpointResource,
  type TemplateProps,
  TemplateResource,
} from "./resource-types";
import { NO_STACK, type StackContext, settingLabel, settingsForStack } from "./stack-context";
import { rawProp } from "./unknown-values";

/** Name of the policy (the key of its settings in `--policy-pack-config`). */
export const SERVERLESS_TEMPLATE_POLICY = "runpod-serverless-template";

/** The OpenAPI default of `TemplateCreateInput.isServerless`: a template is a Pod template unless it says otherwise. */
const IS_SERVERLESS_DEFAULT = false;

/** The settings of `runpod-serverless-template`; each may differ per stack through `byStack`/`byStackTag`. */
export const ServerlessTemplateSettingsSchema = z.object({
  requireTemplateInStack: z
    .boolean()
    .optional()
    .describe(
      "Refuse endpoints whose templateId does not come from a Template of this stack, so the whole deployment is declared as code (default false).",
    ),
});

/** The settings of `runpod-serverless-template`. */
export type ServerlessTemplateSettings = z.infer<typeof ServerlessTemplateSettingsSchema>;

/** The configuration of `runpod-serverless-template` (its key in `--policy-pack-config`): the settings plus their per-stack overrides. */
export const ServerlessTemplateConfigSchema = withStackOverrides(ServerlessTemplateSettingsSchema);

/** The configuration of `runpod-serverless-template`. */
export type ServerlessTemplateConfig = z.infer<typeof ServerlessTemplateConfigSchema>;

/**
 * The serverless template rule: an endpoint whose `templateId` comes from a `Template` of the
 * same stack (the engine's property dependencies say which, even before the template's id is
 * known) must run a template with `isServerless: true`; unset means `false` on the platform.
 * Endpoints on templates outside the stack, or whose `templateId` depends on several templates,
 * are not judged, unless `requireTemplateInStack` refuses the former. Returns one message per
 * violation.
 */
export function checkServerlessTemplates(
  endpoints: readonly NamedProps<ServerlessEndpointProps>[],
  config: ServerlessTemplateConfig = {},
  context: StackContext = NO_STACK,
): string[] {
  const rules = settingsForStack<ServerlessTemplateSettings>(config, context);
  return endpoints.flatMap((endpoint) => {
    const found = violationList(resourceLabel("ServerlessEndpoint", endpoint.name));
    const templates = linkedOfType(endpoint, "templateId", TemplateResource);
    if (templates.length === 0 && rules.values.requireTemplateInStack) {
      const rule = `does not come from a Template of this stack (${settingLabel(rules, "requireTemplateInStack")}); declare the template in the program and pass its id`;
      found.add("templateId", formatValue(rawProp(endpoint.props, "templateId")), rule);
    }
    if (templates.length !== 1) return found.messages;
    const [template] = templates as [NamedProps<TemplateProps>];
    const isServerless: unknown = template.props.isServerless;
    if (isServerless === true) return found.messages;
    const shown = formatSetting(isServerless, IS_SERVERLESS_DEFAULT);
    return found.add(
      "templateId",
      resourceLabel("Template", template.name),
      `is not a serverless template (isServerless = ${shown}); set isServerless: true on the template, or run a serverless one`,
    );
  });
}

/** The policy: endpoints run serverless templates. */
export const serverlessTemplatePolicy = stackPolicy({
  name: SERVERLESS_TEMPLATE_POLICY,
  description:
    "An endpoint whose template is declared in the stack must run a template with isServerless: true (the platform's default is false, a Pod template); with requireTemplateInStack, every endpoint's template must be declared in the stack.",
  enforcementLevel: "mandatory",
  config: ServerlessTemplateConfigSchema,
  remediationSteps:
    "Set isServerless: true on the endpoint's Template; declare templates in the program and pass template.id as templateId.",
  check: (stack, config, context) => checkServerlessTemplates(stack.of(ServerlessEndpointResource), config, context),
});

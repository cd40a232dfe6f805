import { describe, expect, it } from "vitest";
import policyPackage from "../../../policy/package.json";
import {
  type LinkedResource,
  type NamedProps,
  RESOURCE_TYPES,
  type ServerlessEndpointProps,
} from "../../../policy/resource-types";
import {
  checkServerlessTemplates,
  SERVERLESS_TEMPLATE_POLICY,
  serverlessTemplatePolicy,
} from "../../../policy/serverless-template";
import { UNKNOWN } from "../../../policy/unknown-values";
import { runPolicies } from "./engine-harness";

const template = (name: string, props: object): LinkedResource => ({ type: RESOURCE_TYPES.Template, name, props });
const on = (...templates: LinkedResource[]): NamedProps<ServerlessEndpointProps> => ({
  name: "api",
  props: { templateId: UNKNOWN },
  dependsOn: { templateId: templates },
});
const FIX = "set isServerless: true on the template, or run a serverless one";

describe("serverless templates", () => {
  it("accepts an endpoint on a serverless template of the stack", () => {
    expect(checkServerlessTemplates([on(template("worker", { isServerless: true }))])).toEqual([]);
  });

  it("refuses a template with isServerless false", () => {
    expect(checkServerlessTemplates([on(template("pod", { isServerless: false }))])).toEqual([
      `ServerlessEndpoint "api": templateId = Template "pod": is not a serverless template (isServerless = false); ${FIX}`,
    ]);
  });

  it("refuses a template that leaves isServerless unset, since the platform's default is false", () => {
    expect(checkServerlessTemplates([on(template("pod", {}))])).toEqual([
      `ServerlessEndpoint "api": templateId = Template "pod": is not a serverless template (isServerless = unset (platform default false)); ${FIX}`,
    ]);
  });

  it("refuses a value that is not true, showing it", () => {
    expect(checkServerlessTemplates([on(template("pod", { isServerless: "true" }))])).toEqual([
      `ServerlessEndpoint "api": templateId = Template "pod": is not a serverless template (isServerless = "true"); ${FIX}`,
    ]);
  });

  it("does not judge an endpoint whose templateId depends on several templates, or on other resources", () => {
    expect(checkServerlessTemplates([on(template("a", {}), template("b", {}))])).toEqual([]);
    const volume = { type: RESOURCE_TYPES.NetworkVolume, name: "v", props: {} };
    expect(checkServerlessTemplates([on(volume)])).toEqual([]);
  });

  it("does not judge an endpoint on a template outside the stack, unless requireTemplateInStack", () => {
    const outside: NamedProps<ServerlessEndpointProps> = { name: "api", props: { templateId: "echo" } };
    expect(checkServerlessTemplates([outside])).toEqual([]);
    expect(checkServerlessTemplates([outside], { requireTemplateInStack: true })).toEqual([
      'ServerlessEndpoint "api": templateId = "echo": does not come from a Template of this stack (requireTemplateInStack); declare the template in the program and pass its id',
    ]);
    const config = { byStack: { prod: { requireTemplateInStack: true } } };
    expect(checkServerlessTemplates([outside], config, { stackName: "prod", stackTags: new Map() })[0]).toContain(
      '(requireTemplateInStack from byStack "prod" for stack "prod")',
    );
    expect(
      checkServerlessTemplates([on(template("w", { isServerless: true }))], { requireTemplateInStack: true }),
    ).toEqual([]);
  });
});

describe("serverless templates under the engine", () => {
  const resources = (isServerless: unknown) => [
    { type: "Template" as const, name: "tpl", props: { imageName: "ghcr.io/acme/w:1", isServerless } },
    {
      type: "ServerlessEndpoint" as const,
      name: "api",
      props: { templateId: UNKNOWN },
      dependsOn: { templateId: ["tpl"] },
    },
  ];

  it("is mandatory by default and links a new template through the engine's property dependencies", async () => {
    expect(serverlessTemplatePolicy.enforcementLevel).toBe("mandatory");
    const result = await runPolicies([serverlessTemplatePolicy], { resources: resources(false) });
    expect(result.mandatory.map((v) => v.policy)).toEqual([SERVERLESS_TEMPLATE_POLICY]);
  });

  it("reports, as advisory, that it can't run during preview when isServerless is not known yet", async () => {
    const result = await runPolicies([serverlessTemplatePolicy], { resources: resources(UNKNOWN) });
    expect(result.mandatory).toEqual([]);
    expect(result.advisory).toEqual([
      {
        policy: SERVERLESS_TEMPLATE_POLICY,
        message: `can't run policy 'runpod-serverless-template' from policy pack 'runpod@v${policyPackage.version}' during preview: string value at .isServerless can't be known during preview`,
      },
    ]);
  });
});

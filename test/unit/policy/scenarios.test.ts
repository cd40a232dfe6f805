import { describe, expect, it } from "vitest";
import { runpodPolicies } from "../../../policy/index";
import { LIVE_CATALOG_POLICY } from "../../../policy/live-catalog";
import { POLICY_SCENARIOS } from "../../../policy/scenarios/scenarios";
import type { ExpectedViolation, ScenarioResource } from "../../../policy/scenarios/types";
import {
  ContainerRegistryAuthCreateInputSchema,
  EndpointCreateInputSchema,
  NetworkVolumeCreateInputSchema,
  PodCreateInputSchema,
  TemplateCreateInputSchema,
} from "../../../sdk/schemas";
import { CreateSecretRequestSchema } from "../../../sdk/schemas/v2";
import { previewResources, type ReportedViolation, runPolicies } from "./engine-harness";

const sorted = (violations: readonly (ExpectedViolation | ReportedViolation)[]) =>
  violations.map((v) => `${v.policy} | ${v.message}`).sort();

/** The props as the provider's `check` sees them once the referenced ids are known. */
function withIds(resource: ScenarioResource): Record<string, unknown> {
  const props: Record<string, unknown> = { ...resource.props };
  for (const [property, ref] of Object.entries(resource.refs ?? {})) {
    props[property] = typeof ref === "string" ? `id-of-${ref}` : ref.map((name) => `id-of-${name}`);
  }
  return props;
}

/** Problems the provider's `check` would find, judged with the same shared schemas. */
function inputProblems(resource: ScenarioResource): string[] {
  // Resources without a `name` get an auto-name from their class before `check` sees them.
  const props = { name: `${resource.name}-abcdefg`, ...withIds(resource) };
  const schemas = {
    NetworkVolume: NetworkVolumeCreateInputSchema,
    ServerlessEndpoint: EndpointCreateInputSchema,
    Template: TemplateCreateInputSchema,
    ContainerRegistryAuth: ContainerRegistryAuthCreateInputSchema,
    Pod: PodCreateInputSchema,
    Secret: CreateSecretRequestSchema,
  };
  const error = schemas[resource.type].safeParse(props).error;
  return (error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("policy scenarios", () => {
  it("cover a compliant program and a violation of every policy", () => {
    const names = POLICY_SCENARIOS.map((s) => s.name);
    expect(names).toContain("compliant");
    expect(names).toContain("compliant-deployment");
    expect(new Set(names).size).toBe(names.length);
    const violated = new Set(
      POLICY_SCENARIOS.flatMap((s) => [...s.expect.mandatory, ...s.expect.advisory].map((v) => v.policy)),
    );
    // runpod-live-catalog needs the platform's catalog and a key: its rules have tests of their own.
    const offline = runpodPolicies.map((p) => p.name).filter((name) => name !== LIVE_CATALOG_POLICY);
    expect([...violated].sort()).toEqual(offline.sort());
    expect(POLICY_SCENARIOS.some((s) => s.expect.remediated !== undefined)).toBe(true);
  });

  it.each(POLICY_SCENARIOS.map((s) => [s.name, s] as const))(
    "scenario %s only uses props the provider's check accepts",
    (_name, scenario) => {
      for (const resource of scenario.resources) expect(inputProblems(resource), resource.name).toEqual([]);
    },
  );

  it.each(POLICY_SCENARIOS.map((s) => [s.name, s] as const))(
    "scenario %s only refers to resources declared before",
    (_name, scenario) => {
      scenario.resources.forEach((resource, i) => {
        const earlier = new Set(scenario.resources.slice(0, i).map((r) => r.name));
        for (const ref of Object.values(resource.refs ?? {}).flat()) expect(earlier, resource.name).toContain(ref);
      });
    },
  );

  it.each(
    POLICY_SCENARIOS.flatMap((s) => [
      [s.name, "dynamic resources", s] as const,
      [s.name, "the provider plugin's resources", s] as const,
    ]),
  )("scenario %s reports exactly the expected violations, of %s", async (_name, servedBy, scenario) => {
    const result = await runPolicies(runpodPolicies, {
      resources: previewResources(scenario.resources),
      config: scenario.config,
      stack: scenario.stack,
      servedBy: servedBy === "dynamic resources" ? "dynamic" : "plugin",
    });
    expect(sorted(result.mandatory)).toEqual(sorted(scenario.expect.mandatory));
    expect(sorted(result.advisory)).toEqual(sorted(scenario.expect.advisory));
    for (const [name, props] of Object.entries(scenario.expect.remediated ?? {})) {
      expect(result.remediated[name]).toMatchObject(props);
    }
    if (!scenario.expect.remediated) expect(result.remediated).toEqual({});
  });
});

import { describe, expect, it } from "vitest";
import { runpodPolicies } from "../../../policy/index";
import { POLICY_SCENARIOS } from "../../../policy/scenarios/scenarios";
import type { ExpectedViolation } from "../../../policy/scenarios/types";
import { EndpointCreateInputSchema, NetworkVolumeCreateInputSchema } from "../../../sdk/schemas";
import { type ReportedViolation, runPolicies } from "./engine-harness";

const sorted = (violations: readonly (ExpectedViolation | ReportedViolation)[]) =>
  violations.map((v) => `${v.policy} | ${v.message}`).sort();

describe("policy scenarios", () => {
  it("cover a compliant program and a violation of every policy", () => {
    const names = POLICY_SCENARIOS.map((s) => s.name);
    expect(names).toContain("compliant");
    expect(new Set(names).size).toBe(names.length);
    const violated = new Set(
      POLICY_SCENARIOS.flatMap((s) => [...s.expect.mandatory, ...s.expect.advisory].map((v) => v.policy)),
    );
    expect([...violated].sort()).toEqual(runpodPolicies.map((p) => p.name).sort());
    expect(POLICY_SCENARIOS.some((s) => s.expect.remediated !== undefined)).toBe(true);
  });

  it.each(POLICY_SCENARIOS.map((s) => [s.name, s] as const))(
    "scenario %s only uses props the provider's check accepts",
    (_name, scenario) => {
      for (const resource of scenario.resources) {
        const schema = resource.type === "NetworkVolume" ? NetworkVolumeCreateInputSchema : EndpointCreateInputSchema;
        expect(schema.safeParse(resource.props).error).toBeUndefined();
      }
    },
  );

  it.each(POLICY_SCENARIOS.map((s) => [s.name, s] as const))(
    "scenario %s reports exactly the expected violations",
    async (_name, scenario) => {
      const result = await runPolicies(runpodPolicies, {
        resources: scenario.resources.map((r) => ({ ...r, props: { ...r.props } })),
        config: scenario.config,
        stack: scenario.stack,
      });
      expect(sorted(result.mandatory)).toEqual(sorted(scenario.expect.mandatory));
      expect(sorted(result.advisory)).toEqual(sorted(scenario.expect.advisory));
      for (const [name, props] of Object.entries(scenario.expect.remediated ?? {})) {
        expect(result.remediated[name]).toMatchObject(props);
      }
      if (!scenario.expect.remediated) expect(result.remediated).toEqual({});
    },
  );
});

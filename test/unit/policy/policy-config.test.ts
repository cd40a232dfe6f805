import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  ContradictoryInputsConfigSchema,
  GpuPriorityListConfigSchema,
  ImagePinningConfigSchema,
  KnownPlatformValuesConfigSchema,
  LiveCatalogConfigSchema,
  PlaintextCredentialsConfigSchema,
  PodLimitsConfigSchema,
  type RunpodPolicyName,
  runpodPolicies,
  ServerlessTemplateConfigSchema,
  StackCostCeilingConfigSchema,
  StackVolumeSizeCapConfigSchema,
  StackWorkerBudgetConfigSchema,
  VolumeLocalityConfigSchema,
  VolumeSizeCapConfigSchema,
  WorkerBoundsConfigSchema,
} from "../../../policy/index";
import { CONTRADICTORY_INPUTS_POLICY } from "../../../policy/contradictory-inputs";
import { GPU_PRIORITY_LIST_POLICY } from "../../../policy/gpu-priority-list";
import { IMAGE_PINNING_POLICY } from "../../../policy/image-pinning";
import { KNOWN_PLATFORM_VALUES_POLICY } from "../../../policy/known-platform-values";
import { LIVE_CATALOG_POLICY } from "../../../policy/live-catalog";
import { PLAINTEXT_CREDENTIALS_POLICY } from "../../../policy/plaintext-credentials";
import { POD_LIMITS_POLICY } from "../../../policy/pod-limits";
import { SERVERLESS_TEMPLATE_POLICY } from "../../../policy/serverless-template";
import { STACK_COST_CEILING_POLICY } from "../../../policy/stack-cost-ceiling";
import { STACK_VOLUME_SIZE_CAP_POLICY } from "../../../policy/stack-volume-size-cap";
import { STACK_WORKER_BUDGET_POLICY } from "../../../policy/stack-worker-budget";
import { VOLUME_LOCALITY_POLICY } from "../../../policy/volume-locality";
import { VOLUME_SIZE_CAP_POLICY } from "../../../policy/volume-size-cap";
import { WORKER_BOUNDS_POLICY } from "../../../policy/worker-bounds";
import { parsePolicyConfig, toPolicyConfigSchema } from "../../../policy/policy-config";

const SCHEMAS: Record<RunpodPolicyName, z.ZodObject> = {
  [LIVE_CATALOG_POLICY]: LiveCatalogConfigSchema,
  [GPU_PRIORITY_LIST_POLICY]: GpuPriorityListConfigSchema,
  [WORKER_BOUNDS_POLICY]: WorkerBoundsConfigSchema,
  [STACK_WORKER_BUDGET_POLICY]: StackWorkerBudgetConfigSchema,
  [VOLUME_SIZE_CAP_POLICY]: VolumeSizeCapConfigSchema,
  [STACK_VOLUME_SIZE_CAP_POLICY]: StackVolumeSizeCapConfigSchema,
  [IMAGE_PINNING_POLICY]: ImagePinningConfigSchema,
  [VOLUME_LOCALITY_POLICY]: VolumeLocalityConfigSchema,
  [CONTRADICTORY_INPUTS_POLICY]: ContradictoryInputsConfigSchema,
  [SERVERLESS_TEMPLATE_POLICY]: ServerlessTemplateConfigSchema,
  [STACK_COST_CEILING_POLICY]: StackCostCeilingConfigSchema,
  [KNOWN_PLATFORM_VALUES_POLICY]: KnownPlatformValuesConfigSchema,
  [POD_LIMITS_POLICY]: PodLimitsConfigSchema,
  [PLAINTEXT_CREDENTIALS_POLICY]: PlaintextCredentialsConfigSchema,
};

const sampleConfig = JSON.parse(
  readFileSync(join(__dirname, "../../../policy/examples/policy-config.json"), "utf8"),
) as Record<string, Record<string, unknown>>;

describe("policy configuration schemas", () => {
  it("are derived from the zod schema each policy parses its configuration with", () => {
    for (const policy of runpodPolicies) {
      expect(policy.configSchema).toEqual(toPolicyConfigSchema(SCHEMAS[policy.name as RunpodPolicyName]));
    }
  });

  it("never declare enforcementLevel, which the engine adds itself (the analyzer exits otherwise)", () => {
    for (const policy of runpodPolicies) {
      expect(policy.configSchema?.properties).not.toHaveProperty("enforcementLevel");
      expect(policy.configSchema?.required ?? []).not.toContain("enforcementLevel");
    }
  });

  it("describe every setting, and require none", () => {
    for (const policy of runpodPolicies) {
      const properties = Object.entries(policy.configSchema?.properties ?? {});
      expect(properties.length).toBeGreaterThan(0);
      for (const [, schema] of properties) expect(typeof schema === "object" && schema.description).toBeTruthy();
      expect(policy.configSchema?.required).toBeUndefined();
    }
  });

  it("give caps as whole numbers of at least 0 and per-stack overrides as maps of the same settings", () => {
    const props = toPolicyConfigSchema(WorkerBoundsConfigSchema).properties;
    expect(props.workersMaxCap).toMatchObject({ type: "integer", minimum: 0 });
    expect(props.idleTimeoutMax).toMatchObject({ type: "integer", minimum: 1, maximum: 3600 });
    expect(props.byStack).toMatchObject({
      type: "object",
      additionalProperties: { type: "object", additionalProperties: false, properties: { workersMinCap: {} } },
    });
    expect(toPolicyConfigSchema(VolumeSizeCapConfigSchema).properties.maxSizeGb).toMatchObject({ maximum: 4096 });
    expect(JSON.stringify(props)).not.toContain("propertyNames");
  });

  it("give price tables as maps of non-negative dollar amounts", () => {
    const props = toPolicyConfigSchema(StackCostCeilingConfigSchema).properties;
    expect(props.gpuPricesPerHour).toMatchObject({
      type: "object",
      additionalProperties: { type: "number", minimum: 0 },
    });
    expect(props.maxWorstCasePerHour).toMatchObject({ type: "number", minimum: 0 });
  });
});

describe("parsing a policy's configuration", () => {
  it("accepts an empty configuration", () => {
    expect(parsePolicyConfig(WORKER_BOUNDS_POLICY, WorkerBoundsConfigSchema, {})).toEqual({});
    expect(parsePolicyConfig(WORKER_BOUNDS_POLICY, WorkerBoundsConfigSchema, undefined)).toEqual({});
  });

  it("rejects a bad value, naming the policy, the field, the value and the rule", () => {
    expect(() => parsePolicyConfig(WORKER_BOUNDS_POLICY, WorkerBoundsConfigSchema, { workersMaxCap: -1 })).toThrow(
      'invalid configuration of policy "runpod-worker-bounds": workersMaxCap = -1: Too small: expected number to be >=0',
    );
  });

  it("rejects a misspelt setting, also inside a per-stack override", () => {
    expect(() => parsePolicyConfig(WORKER_BOUNDS_POLICY, WorkerBoundsConfigSchema, { workersMaxcap: 1 })).toThrow(
      /Unrecognized key: "workersMaxcap"/,
    );
    expect(() =>
      parsePolicyConfig(WORKER_BOUNDS_POLICY, WorkerBoundsConfigSchema, { byStack: { "dev*": { maxSizeGb: 1 } } }),
    ).toThrow(/byStack\.dev\*/);
  });
});

describe("the sample configuration (policy/examples/policy-config.json)", () => {
  it("configures every policy of the pack and nothing else", () => {
    expect(Object.keys(sampleConfig).sort()).toEqual(runpodPolicies.map((p) => p.name).sort());
  });

  it.each(Object.entries(sampleConfig))("holds valid settings for %s", (name, entry) => {
    const { enforcementLevel, ...settings } = entry;
    expect([undefined, "advisory", "mandatory", "remediate", "disabled"]).toContain(enforcementLevel);
    expect(() => parsePolicyConfig(name, SCHEMAS[name as RunpodPolicyName], settings)).not.toThrow();
  });
});

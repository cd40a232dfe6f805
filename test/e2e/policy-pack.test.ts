import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as provider from "../../provider";
import { RESOURCE_TYPES, type ResourceKind } from "../../policy/resource-types";
import { POLICY_SCENARIOS, scenarioKinds } from "../../policy/scenarios/scenarios";
import { REPO_ROOT } from "../../scripts/pulumi-cli";
import { copyProgram, createE2EStack, type E2EStack } from "./harness";

/** The real policy pack on the real engine, one scenario program per scenario of policy/scenarios. */
const POLICY_DIR = path.join(REPO_ROOT, "policy");

/** The kinds the package has a resource class for (the scenario program declares resources by class name). */
const AVAILABLE_KINDS = (Object.keys(RESOURCE_TYPES) as ResourceKind[]).filter(
  (kind) =>
    (provider as Record<string, { __pulumiType?: unknown } | undefined>)[kind]?.__pulumiType === RESOURCE_TYPES[kind],
);

/** Scenarios whose every resource kind the package provides: these run on the real engine. */
const RUNNABLE = POLICY_SCENARIOS.filter((s) => scenarioKinds(s).every((kind) => AVAILABLE_KINDS.includes(kind)));
let current: E2EStack | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

async function scenarioStack(name: string) {
  const scenario = POLICY_SCENARIOS.find((s) => s.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  const workDir = copyProgram("scenario", `policy-${name}`);
  fs.writeFileSync(path.join(workDir, "scenario.json"), JSON.stringify(scenario));
  const configFile = path.join(workDir, "policy-config.json");
  fs.writeFileSync(configFile, JSON.stringify(scenario.config ?? {}));
  // The key in the stack's config, not the pack's environment: runpod-live-catalog is then not
  // applicable (saying so), and each scenario shows exactly the snapshot policies' findings.
  current = await createE2EStack("scenario", {}, { workDir, stackName: scenario.stack, keyInConfig: true });
  return { scenario, stack: current, policyPackConfigs: scenario.config ? [configFile] : [] };
}

/** Runs a preview with the pack; returns the engine's output and whether the preview failed. */
async function previewWithPack(name: string) {
  const { scenario, stack, policyPackConfigs } = await scenarioStack(name);
  let output = "";
  const onOutput = (s: string) => {
    output += s;
  };
  const failed = await stack.stack.preview({ onOutput, policyPacks: [POLICY_DIR], policyPackConfigs }).then(
    () => false,
    () => true,
  );
  return { scenario, output, failed };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("the policy pack on the real engine", { timeout: 180_000 }, () => {
  // Nothing is skipped silently: every scenario's resource kinds have a class in the package.
  it("runs every scenario: the package provides every resource kind the pack checks", () => {
    expect(AVAILABLE_KINDS).toEqual(Object.keys(RESOURCE_TYPES));
    expect(RUNNABLE).toEqual(POLICY_SCENARIOS);
  });

  it.each(RUNNABLE.filter((s) => !s.expect.remediated).map((s) => s.name))(
    "reports exactly the expected violations for scenario %s",
    async (name) => {
      const { scenario, output, failed } = await previewWithPack(name);
      expect(failed, output).toBe(scenario.expect.mandatory.length > 0);
      for (const v of [...scenario.expect.mandatory, ...scenario.expect.advisory]) {
        expect(output, `${v.policy}: ${v.message}`).toContain(v.message);
        expect(output).toContain(v.policy);
      }
      expect(count(output, "[mandatory]"), output).toBe(scenario.expect.mandatory.length);
      expect(count(output, "[advisory]"), output).toBe(scenario.expect.advisory.length);
      if (scenario.expect.mandatory.length === 0 && scenario.expect.advisory.length === 0) {
        expect(output).toContain("✅ runpod@v");
      }
    },
  );

  it("remediates a duplicated GPU list so the endpoint is created with each type once", async () => {
    const { scenario, stack, policyPackConfigs } = await scenarioStack("gpu-priority-list-remediation");
    const result = await stack.stack.up({ policyPacks: [POLICY_DIR], policyPackConfigs });
    expect(result.summary.result).toBe("succeeded");
    const endpoints = await stack.client.endpoints.list();
    // Each type once; v2 (the default) lists what the endpoint rents in catalog order, so compared as a set.
    const sorted = (list: readonly string[] | undefined) => [...(list ?? [])].sort();
    expect(endpoints.map((e) => sorted(e.gpuTypeIds))).toEqual([sorted(scenario.expect.remediated?.api?.gpuTypeIds)]);
  });

  it("fills in the defaults of the API version RUNPOD_API_URL names in the pack's environment", async () => {
    // The stack talks v1 (RUNPOD_API_URL, as a CI job sets it): v1's idle timeout of 5 s is under
    // the minimum, which v2's 10 s, the default without it, would meet.
    const workDir = copyProgram("scenario", "policy-api-version");
    const props = { templateId: "echo", gpuTypeIds: ["NVIDIA L4"], workersMax: 1 };
    const scenario = { resources: [{ type: "ServerlessEndpoint", name: "api", props }] };
    fs.writeFileSync(path.join(workDir, "scenario.json"), JSON.stringify(scenario));
    const configFile = path.join(workDir, "policy-config.json");
    fs.writeFileSync(configFile, JSON.stringify({ "runpod-worker-bounds": { idleTimeoutMin: 7 } }));
    current = await createE2EStack("scenario", {}, { workDir, apiVersion: "v1" });
    expect(current.envVars.RUNPOD_API_URL).toMatch(/\/v1$/);
    let output = "";
    const preview = current.stack.preview({
      onOutput: (text) => (output += text),
      policyPacks: [POLICY_DIR],
      policyPackConfigs: [configFile],
    });
    await expect(preview).rejects.toThrow();
    expect(output).toContain(
      'ServerlessEndpoint "api": idleTimeout = unset (platform default 5 on management API v1): must be at least 7 seconds (idleTimeoutMin)',
    );
  });
});

import { describe, expect, it } from "vitest";
import type { NamedProps, ServerlessEndpointProps } from "../../../policy/resource-types";
import {
  checkStackWorkerBudget,
  gpuDemand,
  STACK_WORKER_BUDGET_POLICY,
  stackWorkerBudgetPolicy,
} from "../../../policy/stack-worker-budget";
import { runPolicies } from "./engine-harness";

const ep = (name: string, props: ServerlessEndpointProps): NamedProps<ServerlessEndpointProps> => ({ name, props });
const prod = { stackName: "prod", stackTags: new Map<string, string>() };

describe("stack worker budget: demand of one endpoint", () => {
  it("is workersMax × gpuCount for a GPU endpoint", () => {
    expect(gpuDemand({ workersMax: 4, gpuCount: 2 })).toEqual({ workersMax: 4, gpuCount: 2, gpus: 8 });
  });

  it("uses the platform defaults (3 workers, 1 GPU) for unset or invalid values", () => {
    expect(gpuDemand({})).toEqual({ workersMax: 3, gpuCount: 1, gpus: 3 });
    expect(gpuDemand({ workersMax: -1, gpuCount: 0 })).toEqual({ workersMax: 3, gpuCount: 1, gpus: 3 });
  });

  it("is nothing for a CPU endpoint", () => {
    expect(gpuDemand({ computeType: "CPU", workersMax: 50 })).toBeUndefined();
  });
});

describe("stack worker budget: rule", () => {
  const endpoints = [ep("small", { workersMax: 2, gpuCount: 1 }), ep("big", { workersMax: 4, gpuCount: 2 })];

  it("does not apply without a budget", () => {
    expect(checkStackWorkerBudget(endpoints)).toEqual([]);
  });

  it("accepts a total equal to the budget", () => {
    expect(checkStackWorkerBudget(endpoints, { maxTotalGpus: 10 }, prod)).toEqual([]);
  });

  it("rejects a total above the budget, listing endpoints by demand", () => {
    expect(checkStackWorkerBudget(endpoints, { maxTotalGpus: 9 }, prod)).toEqual([
      'Stack "prod": workersMax × gpuCount summed over 2 GPU endpoints = 10 GPUs ("big" 4 × 2 = 8, "small" 2 × 1 = 2): exceeds the budget of 9 GPUs (maxTotalGpus)',
    ]);
  });

  it("leaves CPU endpoints out of the sum", () => {
    const withCpu = [...endpoints, ep("cpu", { computeType: "CPU", workersMax: 100 })];
    expect(checkStackWorkerBudget(withCpu, { maxTotalGpus: 10 }, prod)).toEqual([]);
  });

  it("counts unset values at the platform defaults and says so when the stack name is unknown", () => {
    expect(checkStackWorkerBudget([ep("api", {})], { maxTotalGpus: 1 })).toEqual([
      'Stack: workersMax × gpuCount summed over 1 GPU endpoint = 3 GPUs ("api" 3 × 1 = 3): exceeds the budget of 1 GPU (maxTotalGpus)',
    ]);
  });

  it("lists ten endpoints by name and counts the rest", () => {
    const many = Array.from({ length: 12 }, (_, i) => ep(`e${i}`, { workersMax: 1 }));
    const [message] = checkStackWorkerBudget(many, { maxTotalGpus: 0 }, prod);
    expect(message).toContain('"e9" 1 × 1 = 1 and 2 more)');
    expect(message).not.toContain('"e10"');
  });

  it("takes the budget of a matching stack override and names it", () => {
    const config = { maxTotalGpus: 100, byStack: { "dev*": { maxTotalGpus: 2 } } };
    expect(checkStackWorkerBudget(endpoints, config, prod)).toEqual([]);
    expect(checkStackWorkerBudget(endpoints, config, { stackName: "dev-1", stackTags: new Map() })).toEqual([
      'Stack "dev-1": workersMax × gpuCount summed over 2 GPU endpoints = 10 GPUs ("big" 4 × 2 = 8, "small" 2 × 1 = 2): exceeds the budget of 2 GPUs (maxTotalGpus from byStack "dev*" for stack "dev-1")',
    ]);
  });

  it("takes the budget of a matching stack tag", () => {
    const config = { byStackTag: { "team=ml": { maxTotalGpus: 9 } } };
    const tagged = { stackName: "prod", stackTags: new Map([["team", "ml"]]) };
    expect(checkStackWorkerBudget(endpoints, config, prod)).toEqual([]);
    expect(checkStackWorkerBudget(endpoints, config, tagged)).toHaveLength(1);
  });
});

describe("stack worker budget policy in the analyzer", () => {
  const resources = [
    { type: "ServerlessEndpoint" as const, name: "a", props: { workersMax: 5, gpuCount: 2 } },
    { type: "NetworkVolume" as const, name: "v", props: { size: 10, workersMax: 99 } },
  ];

  it("is advisory by default and sums only endpoints", async () => {
    const result = await runPolicies([stackWorkerBudgetPolicy], {
      resources,
      stack: "prod",
      config: { [STACK_WORKER_BUDGET_POLICY]: { maxTotalGpus: 8 } },
    });
    expect(result.mandatory).toEqual([]);
    expect(result.advisory).toEqual([
      {
        policy: STACK_WORKER_BUDGET_POLICY,
        message:
          'Stack "prod": workersMax × gpuCount summed over 1 GPU endpoint = 10 GPUs ("a" 5 × 2 = 10): exceeds the budget of 8 GPUs (maxTotalGpus)',
      },
    ]);
  });

  it("can be made mandatory through the configuration", async () => {
    const result = await runPolicies([stackWorkerBudgetPolicy], {
      resources,
      config: { [STACK_WORKER_BUDGET_POLICY]: { enforcementLevel: "mandatory", maxTotalGpus: 8 } },
    });
    expect(result.mandatory).toHaveLength(1);
  });

  it("answers not applicable when no budget is configured for the stack", async () => {
    const result = await runPolicies([stackWorkerBudgetPolicy], {
      resources,
      stack: "prod",
      config: { [STACK_WORKER_BUDGET_POLICY]: { byStack: { "dev*": { maxTotalGpus: 1 } } } },
    });
    expect(result.advisory).toEqual([]);
    expect(result.notApplicable).toEqual([
      `${STACK_WORKER_BUDGET_POLICY}: no GPU budget (maxTotalGpus) is configured for this stack`,
    ]);
  });
});

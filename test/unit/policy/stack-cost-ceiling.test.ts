import { describe, expect, it } from "vitest";
import type { NamedProps, ServerlessEndpointProps } from "../../../policy/resource-types";
import {
  checkStackCostCeiling,
  formatDollars,
  STACK_COST_CEILING_POLICY,
  stackCostCeilingPolicy,
} from "../../../policy/stack-cost-ceiling";
import { runPolicies } from "./engine-harness";

const H100 = "NVIDIA H100 80GB HBM3";
const L4 = "NVIDIA L4";
const A40 = "NVIDIA A40";
const PRICES = { [H100]: 2.79, [L4]: 0.48, [A40]: 0.44 };
const ep = (name: string, props: ServerlessEndpointProps): NamedProps<ServerlessEndpointProps> => ({ name, props });
const prod = { stackName: "prod", stackTags: new Map<string, string>() };
const ALWAYS_ON =
  "always-on cost (workersMin × units per worker × $/hour of the dearest type each may rent) summed over";
const WORST = "worst-case cost (workersMax × units per worker × $/hour of the dearest type each may rent) summed over";

describe("stack cost ceiling: dollars", () => {
  it.each([
    [7.96, "$7.96"],
    [2, "$2.00"],
    [1.5, "$1.50"],
    [0.125, "$0.125"],
    [0.0012, "$0.0012"],
    [3 * 0.1, "$0.30"],
    [0, "$0.00"],
  ])("renders %d as %s", (amount, text) => {
    expect(formatDollars(amount)).toBe(text);
  });
});

describe("stack cost ceiling: applicability", () => {
  const endpoints = [ep("api", { gpuTypeIds: [H100], workersMin: 5, workersMax: 50 })];

  it("does not apply without prices or without caps", () => {
    expect(checkStackCostCeiling(endpoints, { maxAlwaysOnPerHour: 0, maxWorstCasePerHour: 0 }, prod)).toEqual([]);
    expect(checkStackCostCeiling(endpoints, { gpuPricesPerHour: PRICES }, prod)).toEqual([]);
  });

  it("answers not applicable under the engine, with the reason", async () => {
    const result = await runPolicies([stackCostCeilingPolicy], {
      resources: [{ type: "ServerlessEndpoint", name: "api", props: { gpuTypeIds: [H100], workersMax: 50 } }],
      config: { [STACK_COST_CEILING_POLICY]: { maxWorstCasePerHour: 1 } },
    });
    expect(result.advisory).toEqual([]);
    expect(result.notApplicable).toEqual([
      `${STACK_COST_CEILING_POLICY}: no prices (gpuPricesPerHour, cpuPricesPerVcpuHour) are configured for this stack`,
    ]);
  });
});

describe("stack cost ceiling: sums", () => {
  const config = { gpuPricesPerHour: PRICES, maxAlwaysOnPerHour: 3, maxWorstCasePerHour: 20 };

  it("accepts costs equal to the caps, despite floating-point sums", () => {
    // 3 × 0.1 is 0.30000000000000004 in floating point.
    const endpoints = [ep("a", { gpuTypeIds: [L4], workersMax: 3 })];
    expect(
      checkStackCostCeiling(endpoints, { gpuPricesPerHour: { [L4]: 0.1 }, maxWorstCasePerHour: 0.3 }, prod),
    ).toEqual([]);
    expect(
      checkStackCostCeiling(endpoints, { gpuPricesPerHour: { [L4]: 0.1 }, maxWorstCasePerHour: 0.29 }, prod),
    ).toHaveLength(1);
  });

  it("prices each endpoint at the dearest GPU type of its list and shows the arithmetic", () => {
    const endpoints = [
      ep("train", { gpuTypeIds: [L4, H100], gpuCount: 2, workersMin: 1, workersMax: 4 }),
      ep("serve", { gpuTypeIds: [L4, A40], workersMax: 5 }),
    ];
    expect(checkStackCostCeiling(endpoints, config, prod)).toEqual([
      `Stack "prod": ${ALWAYS_ON} 2 endpoints = $5.58/hour ("train" 1 worker × 2 GPUs × $2.79 (${H100}) = $5.58): exceeds the cap of $3.00/hour (maxAlwaysOnPerHour)`,
      `Stack "prod": ${WORST} 2 endpoints = $24.72/hour ("train" 4 workers × 2 GPUs × $2.79 (${H100}) = $22.32, "serve" 5 workers × 1 GPU × $0.48 (${L4}) = $2.40): exceeds the cap of $20.00/hour (maxWorstCasePerHour)`,
    ]);
  });

  it("counts unset or invalid counts at the platform defaults (0 and 3 workers, 1 GPU)", () => {
    const [message] = checkStackCostCeiling(
      [ep("api", { gpuTypeIds: [H100], gpuCount: 0 })],
      { ...config, maxWorstCasePerHour: 1 },
      prod,
    );
    expect(message).toContain(`"api" 3 workers × 1 GPU × $2.79 (${H100}) = $8.37`);
  });

  it("takes per-stack caps and prices, naming the entry that set them", () => {
    const endpoints = [ep("api", { gpuTypeIds: [L4], workersMin: 1 })];
    const perStack = { ...config, byStack: { "dev*": { maxAlwaysOnPerHour: 0 } } };
    expect(checkStackCostCeiling(endpoints, perStack, { stackName: "dev-1", stackTags: new Map() })).toEqual([
      `Stack "dev-1": ${ALWAYS_ON} 1 endpoint = $0.48/hour ("api" 1 worker × 1 GPU × $0.48 (${L4}) = $0.48): exceeds the cap of $0.00/hour (maxAlwaysOnPerHour from byStack "dev*" for stack "dev-1")`,
    ]);
  });

  it("lists ten endpoints by name and counts the rest", () => {
    const many = Array.from({ length: 12 }, (_, i) => ep(`e${i}`, { gpuTypeIds: [L4], workersMax: 1 }));
    const [message] = checkStackCostCeiling(many, { gpuPricesPerHour: PRICES, maxWorstCasePerHour: 1 }, prod);
    expect(message).toContain("and 2 more): exceeds the cap of $1.00/hour");
  });
});

describe("stack cost ceiling: GPU types without a price", () => {
  const config = { gpuPricesPerHour: PRICES, maxWorstCasePerHour: 5 };

  it("reports a listed type without a price and leaves the endpoint out of the sums, saying so", () => {
    const endpoints = [
      ep("exotic", { gpuTypeIds: [L4, "NVIDIA B200", "NVIDIA H200"], workersMax: 1 }),
      ep("big", { gpuTypeIds: [H100], workersMax: 2 }),
    ];
    expect(checkStackCostCeiling(endpoints, config, prod)).toEqual([
      `ServerlessEndpoint "exotic": gpuTypeIds = ["${L4}","NVIDIA B200","NVIDIA H200"]: "NVIDIA B200", "NVIDIA H200" have no price in gpuPricesPerHour, so the endpoint's cost has no bound; add a price for each GPU type it may rent, or remove the unpriced ones`,
      `Stack "prod": ${WORST} 1 endpoint = $5.58/hour ("big" 2 workers × 1 GPU × $2.79 (${H100}) = $5.58): exceeds the cap of $5.00/hour (maxWorstCasePerHour); 1 endpoint without prices not included (see its own message)`,
    ]);
  });

  it("reports an endpoint without a GPU list, which may rent any GPU type", () => {
    expect(checkStackCostCeiling([ep("any", {})], config, prod)).toEqual([
      `ServerlessEndpoint "any": gpuTypeIds = undefined: lets the platform rent any GPU type, and not all have a price in gpuPricesPerHour, so the endpoint's cost has no bound; list the GPU types it may rent`,
    ]);
  });
});

describe("stack cost ceiling: CPU endpoints", () => {
  const cpu = ep("prep", { computeType: "CPU", cpuFlavorIds: ["cpu3c", "cpu5c"], workersMax: 10 });

  it("are not counted without CPU prices", () => {
    expect(checkStackCostCeiling([cpu], { gpuPricesPerHour: PRICES, maxWorstCasePerHour: 0 }, prod)).toEqual([]);
  });

  it("are priced per vCPU at the dearest flavor, 2 vCPUs by default", () => {
    const config = { cpuPricesPerVcpuHour: { cpu3c: 0.03, cpu5c: 0.05 }, maxWorstCasePerHour: 0.5 };
    expect(checkStackCostCeiling([cpu], config, prod)).toEqual([
      `Stack "prod": ${WORST} 1 endpoint = $1.00/hour ("prep" 10 workers × 2 vCPUs × $0.05 (cpu5c) = $1.00): exceeds the cap of $0.50/hour (maxWorstCasePerHour)`,
    ]);
  });

  it("without a flavor list, need a price for every flavor the platform has", () => {
    const anyFlavor = ep("prep", { computeType: "CPU", vcpuCount: 4, workersMax: 1 });
    const some = { cpuPricesPerVcpuHour: { cpu3c: 0.03 }, maxWorstCasePerHour: 0 };
    expect(checkStackCostCeiling([anyFlavor], some, prod)[0]).toContain("lets the platform rent any CPU flavor");
    const all = {
      cpuPricesPerVcpuHour: { cpu3c: 0.03, cpu3g: 0.04, cpu5c: 0.05, cpu5g: 0.06 },
      maxWorstCasePerHour: 0,
    };
    expect(checkStackCostCeiling([anyFlavor], all, prod)[0]).toContain(
      '"prep" 1 worker × 4 vCPUs × $0.06 (cpu5g) = $0.24',
    );
  });
});

describe("stack cost ceiling under the engine", () => {
  it("is advisory by default", async () => {
    expect(stackCostCeilingPolicy.enforcementLevel).toBe("advisory");
    const result = await runPolicies([stackCostCeilingPolicy], {
      stack: "prod",
      resources: [{ type: "ServerlessEndpoint", name: "api", props: { gpuTypeIds: [H100], workersMin: 1 } }],
      config: { [STACK_COST_CEILING_POLICY]: { gpuPricesPerHour: PRICES, maxAlwaysOnPerHour: 1 } },
    });
    expect(result.mandatory).toEqual([]);
    expect(result.advisory.map((v) => v.message)).toEqual([
      `Stack "prod": ${ALWAYS_ON} 1 endpoint = $2.79/hour ("api" 1 worker × 1 GPU × $2.79 (${H100}) = $2.79): exceeds the cap of $1.00/hour (maxAlwaysOnPerHour)`,
    ]);
  });
});

import { Secret } from "@pulumi/policy/policy";
import { describe, expect, it } from "vitest";
import {
  checkGpuPriorityList,
  dedupeGpuTypeIds,
  GPU_PRIORITY_LIST_POLICY,
  gpuPriorityListPolicy,
  preferredOrderProblem,
  remediateGpuPriorityList,
} from "../../../policy/gpu-priority-list";
import type { ServerlessEndpointProps } from "../../../policy/resource-types";
import { GPU_TYPE_IDS } from "../../../sdk/schemas";
import { runPolicies } from "./engine-harness";

const A40 = "NVIDIA A40";
const L4 = "NVIDIA L4";
const H100 = "NVIDIA H100 80GB HBM3";
const T4 = "Tesla T4";
const check = (props: ServerlessEndpointProps, config = {}) => checkGpuPriorityList("api", props, config);
const at = (i: number, gpu: string, rule: string) => `ServerlessEndpoint "api": gpuTypeIds[${i}] = "${gpu}": ${rule}`;

describe("GPU priority list: presence and shape", () => {
  it("accepts a list of distinct known GPU types with the default settings", () => {
    expect(check({ gpuTypeIds: [H100, A40] })).toEqual([]);
  });

  it("accepts a single GPU type when no fallbacks are required", () => {
    expect(check({ gpuTypeIds: [L4] })).toEqual([]);
  });

  it("requires a list on a GPU endpoint, which is the default compute type", () => {
    expect(check({})).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds = undefined: must list at least one GPU type for a GPU endpoint (GPU types in order of preference), or name GPU pools in gpuPools',
    ]);
    expect(check({ computeType: "GPU", gpuTypeIds: [] })).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds = []: must list at least one GPU type for a GPU endpoint',
    ]);
  });

  it("rejects a value that is not a list", () => {
    expect(check({ gpuTypeIds: A40 as unknown as string[] })).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds = "NVIDIA A40": must be a list of GPU type ids',
    ]);
  });

  it("rejects entries that are not strings", () => {
    expect(check({ gpuTypeIds: [A40, 42 as unknown as string] })).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds[1] = 42: must be a GPU type id (a string)',
    ]);
  });

  it("does not apply to CPU endpoints", () => {
    expect(check({ computeType: "CPU" })).toEqual([]);
    expect(check({ computeType: "CPU", gpuTypeIds: [A40, A40, "bogus"] }, { minFallbacks: 3 })).toEqual([]);
  });
});

describe("GPU priority list: duplicates", () => {
  it("reports each duplicated GPU type once, with every index", () => {
    expect(check({ gpuTypeIds: [A40, L4, A40, A40, L4] })).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds = ["NVIDIA A40","NVIDIA L4","NVIDIA A40","NVIDIA A40","NVIDIA L4"]: lists "NVIDIA A40" 3 times (indexes 0, 2, 3); each GPU type may appear once (remediation keeps the first occurrence)',
      'ServerlessEndpoint "api": gpuTypeIds = ["NVIDIA A40","NVIDIA L4","NVIDIA A40","NVIDIA A40","NVIDIA L4"]: lists "NVIDIA L4" 2 times (indexes 1, 4); each GPU type may appear once (remediation keeps the first occurrence)',
    ]);
  });

  it("reports a per-entry problem of a duplicated type only once, at its first index", () => {
    expect(check({ gpuTypeIds: [L4, "Made Up GPU", "Made Up GPU"] })).toContain(
      at(
        1,
        "Made Up GPU",
        "is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)",
      ),
    );
    expect(check({ gpuTypeIds: [L4, "Made Up GPU", "Made Up GPU"] })).toHaveLength(2);
  });
});

describe("GPU priority list: known, allowed and denied types", () => {
  it("knows every GPU type of the platform's OpenAPI list", () => {
    expect(check({ gpuTypeIds: [...GPU_TYPE_IDS] })).toEqual([]);
  });

  it("rejects a GPU type the platform does not know", () => {
    expect(check({ gpuTypeIds: [A40, "NVIDIA H100"] })).toEqual([
      at(
        1,
        "NVIDIA H100",
        "is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)",
      ),
    ]);
  });

  it("suggests the known GPU type a case or whitespace variant stands for", () => {
    expect(check({ gpuTypeIds: ["nvidia l4 "] })).toEqual([
      at(
        0,
        "nvidia l4 ",
        'is not a GPU type the platform knows (did you mean "NVIDIA L4"?) (if the platform added it, list it in additionalGpuTypeIds)',
      ),
    ]);
  });

  it("accepts GPU types added through additionalGpuTypeIds", () => {
    expect(check({ gpuTypeIds: ["NVIDIA B300"] }, { additionalGpuTypeIds: ["NVIDIA B300"] })).toEqual([]);
  });

  it("rejects types outside the allowed list and accepts those inside it", () => {
    const allowed = [A40, L4];
    expect(check({ gpuTypeIds: [L4, A40] }, { allowed })).toEqual([]);
    expect(check({ gpuTypeIds: [L4, H100] }, { allowed })).toEqual([
      at(1, H100, 'is not one of the allowed GPU types ["NVIDIA A40","NVIDIA L4"]'),
    ]);
  });

  it("treats an empty allowed list as allowing nothing", () => {
    expect(check({ gpuTypeIds: [L4] }, { allowed: [] })).toEqual([at(0, L4, "is not one of the allowed GPU types []")]);
  });

  it("rejects denied types and accepts the others", () => {
    expect(check({ gpuTypeIds: [L4, T4] }, { denied: [T4] })).toEqual([at(1, T4, "is a denied GPU type")]);
    expect(check({ gpuTypeIds: [L4, A40] }, { denied: [T4] })).toEqual([]);
  });

  it("reports every broken rule of one entry", () => {
    expect(check({ gpuTypeIds: ["Old GPU"] }, { allowed: [L4], denied: ["Old GPU"] })).toEqual([
      at(
        0,
        "Old GPU",
        "is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)",
      ),
      at(0, "Old GPU", 'is not one of the allowed GPU types ["NVIDIA L4"]'),
      at(0, "Old GPU", "is a denied GPU type"),
    ]);
  });
});

describe("GPU priority list: minimum fallbacks", () => {
  const rule = (n: number, min: number, list: string) =>
    `ServerlessEndpoint "api": gpuTypeIds = ${list}: has ${n} fallback${n === 1 ? "" : "s"} after the first choice, at least ${min} required (minFallbacks): a single GPU type often has no capacity`;

  it("accepts exactly the required number of fallbacks", () => {
    expect(check({ gpuTypeIds: [H100, A40, L4] }, { minFallbacks: 2 })).toEqual([]);
  });

  it("rejects one fallback fewer than required", () => {
    expect(check({ gpuTypeIds: [H100, A40] }, { minFallbacks: 2 })).toEqual([
      rule(1, 2, '["NVIDIA H100 80GB HBM3","NVIDIA A40"]'),
    ]);
    expect(check({ gpuTypeIds: [L4] }, { minFallbacks: 1 })).toEqual([rule(0, 1, '["NVIDIA L4"]')]);
  });

  it("does not count a duplicate as a fallback", () => {
    expect(check({ gpuTypeIds: [L4, L4] }, { minFallbacks: 1 })).toContain(rule(0, 1, '["NVIDIA L4","NVIDIA L4"]'));
  });
});

describe("GPU priority list: preferred order", () => {
  const ranking = [H100, A40, L4];

  it("accepts ranked entries in ranking order, with unranked entries anywhere", () => {
    expect(check({ gpuTypeIds: [H100, L4] }, { preferredOrder: ranking })).toEqual([]);
    expect(check({ gpuTypeIds: [T4, H100, "NVIDIA L40S", L4] }, { preferredOrder: ranking })).toEqual([]);
  });

  it("names the first misplaced pair and the expected order", () => {
    expect(check({ gpuTypeIds: [L4, T4, H100] }, { preferredOrder: ranking })).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds = ["NVIDIA L4","Tesla T4","NVIDIA H100 80GB HBM3"]: is not in the preferred order: "NVIDIA H100 80GB HBM3" is ranked above "NVIDIA L4" but listed after it; expected ["NVIDIA H100 80GB HBM3","Tesla T4","NVIDIA L4"] (preferredOrder)',
    ]);
  });

  it("uses a GPU type's first position when the ranking repeats it", () => {
    expect(preferredOrderProblem([A40, L4], [A40, L4, A40])).toBeUndefined();
  });

  it("checks the order on the list without duplicates", () => {
    expect(preferredOrderProblem([H100, A40], ranking)).toBeUndefined();
    expect(check({ gpuTypeIds: [H100, A40, H100] }, { preferredOrder: ranking })).toHaveLength(1);
  });
});

describe("GPU priority list: remediation", () => {
  it("removes duplicates, keeping the first occurrence of each type", () => {
    expect(dedupeGpuTypeIds({ gpuTypeIds: [A40, L4, A40, H100, L4] })).toEqual([A40, L4, H100]);
  });

  it("returns nothing when there is nothing to fix", () => {
    expect(remediateGpuPriorityList({ gpuTypeIds: [A40, L4] })).toBeUndefined();
    expect(remediateGpuPriorityList({})).toBeUndefined();
    expect(remediateGpuPriorityList({ computeType: "CPU", gpuTypeIds: [A40, A40] })).toBeUndefined();
  });

  it("returns a copy with every other property, including __provider, and leaves the input alone", () => {
    const props = { templateId: "t", gpuTypeIds: [A40, A40], workersMax: 2, __provider: "serialized" };
    const fixed = remediateGpuPriorityList(props);
    expect(fixed).toEqual({ templateId: "t", gpuTypeIds: [A40], workersMax: 2, __provider: "serialized" });
    expect(props.gpuTypeIds).toEqual([A40, A40]);
  });

  it("copies other properties without reading them, so values unknown during preview do not stop it", () => {
    const raw = { gpuTypeIds: [L4, L4], networkVolumeId: "unknown-sentinel" };
    const props = new Proxy(raw, {
      get: (target, key) => {
        if (key === "networkVolumeId") throw new Error("unknown during preview");
        return target[key as keyof typeof target];
      },
    });
    const fixed = remediateGpuPriorityList(props);
    expect(Object.getOwnPropertyDescriptor(fixed, "networkVolumeId")?.value).toBe("unknown-sentinel");
    expect(Object.getOwnPropertyDescriptor(fixed, "gpuTypeIds")?.value).toEqual([L4]);
  });

  it("keeps a secret list secret", () => {
    const raw: Record<string, unknown> = { gpuTypeIds: new Secret([A40, A40]) };
    const props = new Proxy(raw, {
      get: (target, key) => {
        const value = target[key as string];
        return value instanceof Secret ? value.value : value;
      },
    }) as ServerlessEndpointProps;
    const fixed = remediateGpuPriorityList(props) as Record<string, unknown>;
    expect(fixed.gpuTypeIds).toBeInstanceOf(Secret);
    expect((fixed.gpuTypeIds as Secret).value).toEqual([A40]);
  });
});

describe("GPU priority list policy in the analyzer", () => {
  const endpoint = (props: Record<string, unknown>) => ({ type: "ServerlessEndpoint" as const, name: "api", props });

  it("is mandatory by default", async () => {
    const result = await runPolicies([gpuPriorityListPolicy], { resources: [endpoint({ gpuTypeIds: [A40, A40] })] });
    expect(result.mandatory.map((v) => v.policy)).toEqual([GPU_PRIORITY_LIST_POLICY]);
  });

  it("fixes duplicates itself at level remediate and then reports only what is left", async () => {
    const result = await runPolicies([gpuPriorityListPolicy], {
      resources: [endpoint({ gpuTypeIds: [A40, A40, T4], __provider: "serialized" })],
      config: { [GPU_PRIORITY_LIST_POLICY]: { enforcementLevel: "remediate", denied: [T4] } },
    });
    expect(result.remediated.api).toEqual({ gpuTypeIds: [A40, T4], __provider: "serialized" });
    expect(result.mandatory).toEqual([
      { policy: GPU_PRIORITY_LIST_POLICY, message: at(1, T4, "is a denied GPU type") },
    ]);
  });

  it("answers not applicable for CPU endpoints and for volumes", async () => {
    const result = await runPolicies([gpuPriorityListPolicy], {
      resources: [endpoint({ computeType: "CPU" }), { type: "NetworkVolume", name: "v", props: { size: 1 } }],
    });
    expect(result.mandatory).toEqual([]);
    expect(result.notApplicable).toEqual([`${GPU_PRIORITY_LIST_POLICY}@api: the endpoint uses CPU workers`]);
  });

  it("fails loudly on a misspelt setting", async () => {
    await expect(
      runPolicies([gpuPriorityListPolicy], {
        resources: [endpoint({ gpuTypeIds: [A40] })],
        config: { [GPU_PRIORITY_LIST_POLICY]: { minFallback: 1 } },
      }),
    ).rejects.toThrow(`invalid configuration of policy "${GPU_PRIORITY_LIST_POLICY}"`);
  });
});

describe("GPU priority list: per-stack settings", () => {
  const config = {
    minFallbacks: 1,
    byStack: { "dev*": { allowed: ["NVIDIA L4", "NVIDIA RTX A5000"], minFallbacks: 0 } },
  };
  const dev = { stackName: "dev-alice", stackTags: new Map<string, string>() };
  const prod = { stackName: "prod", stackTags: new Map<string, string>() };

  it("applies a stack's own GPU list and fallback count, and says which entry set them", () => {
    expect(checkGpuPriorityList("api", { gpuTypeIds: ["NVIDIA H100 80GB HBM3"] }, config, dev)).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds[0] = "NVIDIA H100 80GB HBM3": is not one of the allowed GPU types ["NVIDIA L4","NVIDIA RTX A5000"] (allowed from byStack "dev*" for stack "dev-alice")',
    ]);
    expect(checkGpuPriorityList("api", { gpuTypeIds: ["NVIDIA L4"] }, config, dev)).toEqual([]);
  });

  it("keeps the base settings for stacks no entry matches", () => {
    expect(checkGpuPriorityList("api", { gpuTypeIds: ["NVIDIA H100 80GB HBM3"] }, config, prod)).toEqual([
      'ServerlessEndpoint "api": gpuTypeIds = ["NVIDIA H100 80GB HBM3"]: has 0 fallbacks after the first choice, at least 1 required (minFallbacks): a single GPU type often has no capacity',
    ]);
  });
});

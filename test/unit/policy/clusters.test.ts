import { describe, expect, it } from "vitest";
import {
  checkClusterGpuType,
  GPU_PRIORITY_LIST_POLICY,
  gpuPriorityListPolicy,
} from "../../../policy/gpu-priority-list";
import { checkKnownPlatformValues, knownPlatformValuesPolicy } from "../../../policy/known-platform-values";
import {
  checkClusterCredentials,
  PLAINTEXT_CREDENTIALS_POLICY,
  plaintextCredentialsPolicy,
} from "../../../policy/plaintext-credentials";
import { checkClusterLimits, POD_LIMITS_POLICY, podLimitsPolicy } from "../../../policy/pod-limits";
import type { ClusterProps, NamedProps, PodProps } from "../../../policy/resource-types";
import {
  checkStackCostCeiling,
  STACK_COST_CEILING_POLICY,
  stackCostCeilingPolicy,
} from "../../../policy/stack-cost-ceiling";
import { runPolicies } from "./engine-harness";

const H100 = "NVIDIA H100 80GB HBM3";
const L4 = "NVIDIA L4";
const dev = { stackName: "dev", stackTags: new Map<string, string>() };
const cluster = (name: string, props: ClusterProps): NamedProps<ClusterProps> => ({ name, props });
const TRAINING = { type: "TRAINING", imageName: "trainer:1.0", podCount: 2, gpuCountPerPod: 1 } as const;

describe("runpod-pod-limits for clusters", () => {
  it("holds a cluster's GPUs per pod to maxGpuCount, and refuses it where only other clouds or spot are allowed", () => {
    const config = { maxGpuCount: 8, byStack: { "dev*": { maxGpuCount: 2 } } };
    expect(checkClusterLimits("c", { ...TRAINING, gpuTypeId: H100, gpuCountPerPod: 8 }, config)).toEqual([]);
    expect(checkClusterLimits("c", { ...TRAINING, gpuTypeId: H100, gpuCountPerPod: 8 }, config, dev)).toEqual([
      'Cluster "c": gpuCountPerPod = 8: exceeds the limit of 2 GPUs per pod (maxGpuCount from byStack "dev*" for stack "dev")',
    ]);
    expect(
      checkClusterLimits(
        "c",
        { ...TRAINING, gpuTypeId: L4 },
        { allowedCloudTypes: ["COMMUNITY"], interruptible: "required" },
      ),
    ).toEqual([
      'Cluster "c": cloud = SECURE (clusters run on secure cloud): is not an allowed cloud ["COMMUNITY"] (allowedCloudTypes)',
      'Cluster "c": interruptible = false (a cluster\'s pods are never interruptible): must be true: GPU pods of this stack must be interruptible (interruptible is "required"); use interruptible pods instead of a cluster',
    ]);
    // Where spot is forbidden, a cluster (never interruptible) complies.
    expect(checkClusterLimits("c", { ...TRAINING, gpuTypeId: L4 }, { interruptible: "forbidden" })).toEqual([]);
  });

  it("judges clusters, not only pods, under the engine", async () => {
    const result = await runPolicies([podLimitsPolicy], {
      resources: [{ type: "Cluster", name: "big", props: { ...TRAINING, gpuTypeId: H100, gpuCountPerPod: 4 } }],
      config: { [POD_LIMITS_POLICY]: { maxGpuCount: 1 } },
    });
    expect(result.mandatory.map((v) => v.message)).toEqual([
      'Cluster "big": gpuCountPerPod = 4: exceeds the limit of 1 GPU per pod (maxGpuCount)',
    ]);
  });
});

describe("runpod-gpu-priority-list and runpod-known-platform-values for clusters", () => {
  it("takes a cluster's one GPU type like an entry of a list: known, allowed, not denied; no fallbacks asked", () => {
    const config = { allowed: [H100, L4], denied: [L4], minFallbacks: 2, preferredOrder: [H100, L4] };
    expect(checkClusterGpuType("a", { ...TRAINING, gpuTypeId: H100 }, config)).toEqual([]);
    expect(checkClusterGpuType("b", { ...TRAINING, gpuTypeId: L4 }, config)).toEqual([
      'Cluster "b": gpuTypeId = "NVIDIA L4": is a denied GPU type',
    ]);
    expect(checkClusterGpuType("c", { ...TRAINING, gpuTypeId: "nvidia h100 80gb hbm3" }, config)).toEqual([
      'Cluster "c": gpuTypeId = "nvidia h100 80gb hbm3": is not a GPU type the platform knows (did you mean "NVIDIA H100 80GB HBM3"?) (if the platform added it, list it in additionalGpuTypeIds)',
      'Cluster "c": gpuTypeId = "nvidia h100 80gb hbm3": is not one of the allowed GPU types ["NVIDIA H100 80GB HBM3","NVIDIA L4"]',
    ]);
    expect(
      checkClusterGpuType("d", { ...TRAINING, gpuTypeId: "NVIDIA B300" }, { additionalGpuTypeIds: ["NVIDIA B300"] }),
    ).toEqual([]);
  });

  it("names a cluster's unknown data center, and leaves its GPU type to the GPU policy", async () => {
    expect(
      checkKnownPlatformValues("Cluster", "c", {
        ...TRAINING,
        gpuTypeId: "NVIDIA B300",
        dataCenterIds: ["EU-RO-1", "eu-ro-2"],
      }),
    ).toEqual([
      'Cluster "c": dataCenterIds[1] = "eu-ro-2": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
    ]);
    const result = await runPolicies([gpuPriorityListPolicy, knownPlatformValuesPolicy], {
      resources: [
        { type: "Cluster", name: "c", props: { ...TRAINING, gpuTypeId: "NVIDIA B300", dataCenterIds: ["XX-1"] } },
      ],
      config: { [GPU_PRIORITY_LIST_POLICY]: {} },
    });
    expect(result.mandatory.map((v) => `${v.policy}: ${v.message}`)).toEqual([
      'runpod-gpu-priority-list: Cluster "c": gpuTypeId = "NVIDIA B300": is not a GPU type the platform knows (if the platform added it, list it in additionalGpuTypeIds)',
      'runpod-known-platform-values: Cluster "c": dataCenterIds[0] = "XX-1": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
    ]);
  });
});

describe("runpod-stack-cost-ceiling with clusters", () => {
  it("counts a cluster as pods × GPUs per pod × its type's secure price, beside pods", () => {
    const clusters = [cluster("train", { ...TRAINING, gpuTypeId: H100, podCount: 4, gpuCountPerPod: 8 })];
    const pods: NamedProps<PodProps>[] = [{ name: "dev", props: { gpuTypeIds: [L4] } }];
    expect(checkStackCostCeiling([], { maxAlwaysOnPerHour: 86.51 }, dev, { pods, clusters })).toEqual([]);
    expect(checkStackCostCeiling([], { maxAlwaysOnPerHour: 80 }, dev, { pods, clusters })).toEqual([
      'Stack "dev": always-on cost summed over 1 running pod (units × $/hour of the dearest type each may rent), 1 cluster (pods × GPUs per pod × $/hour of its GPU type) = $86.51/hour ("train" cluster 4 pods × 8 GPUs × $2.69 (NVIDIA H100 80GB HBM3, SECURE) = $86.08, "dev" pod 1 GPU × $0.43 (NVIDIA L4, SECURE) = $0.43): exceeds the cap of $80.00/hour (maxAlwaysOnPerHour)',
    ]);
  });

  it("takes the team's price over the catalog's, and reports a GPU type priced nowhere", () => {
    const clusters = [cluster("next", { ...TRAINING, gpuTypeId: "NVIDIA B300" })];
    expect(checkStackCostCeiling([], { maxWorstCasePerHour: 1 }, dev, { clusters })).toEqual([
      'Cluster "next": gpuTypeId = "NVIDIA B300": has no price in this release\'s catalog or in podGpuPricesPerHour, so the cluster\'s cost has no bound; add a price',
    ]);
    const priced = { maxWorstCasePerHour: 1, podGpuPricesPerHour: { "NVIDIA B300": 6 } };
    expect(checkStackCostCeiling([], priced, dev, { clusters })).toEqual([
      'Stack "dev": worst-case cost summed over 1 cluster (pods × GPUs per pod × $/hour of its GPU type) = $12.00/hour ("next" cluster 2 pods × 1 GPU × $6.00 (NVIDIA B300, SECURE) = $12.00): exceeds the cap of $1.00/hour (maxWorstCasePerHour)',
    ]);
  });

  it("applies to a stack with a cluster alone, under the engine", async () => {
    const result = await runPolicies([stackCostCeilingPolicy], {
      resources: [{ type: "Cluster", name: "c", props: { ...TRAINING, gpuTypeId: L4, podCount: 3 } }],
      config: { [STACK_COST_CEILING_POLICY]: { maxAlwaysOnPerHour: 1 } },
    });
    expect(result.notApplicable).toEqual([]);
    expect(result.advisory.map((v) => v.message)).toEqual([
      'Stack "stack": always-on cost summed over 1 cluster (pods × GPUs per pod × $/hour of its GPU type) = $1.29/hour ("c" cluster 3 pods × 1 GPU × $0.43 (NVIDIA L4, SECURE) = $1.29): exceeds the cap of $1.00/hour (maxAlwaysOnPerHour)',
    ]);
  });
});

describe("runpod-plaintext-credentials for clusters", () => {
  // Built, not written out: a Hugging Face token's shape.
  const token = `hf_${"q".repeat(34)}`;

  it("flags a credential in a cluster's env by key, never showing it, and leaves a reference alone", () => {
    const env = { HF_TOKEN: token, WANDB: "{{ RUNPOD_SECRET_wandb }}", EPOCHS: "3" };
    const found = checkClusterCredentials("train", { ...TRAINING, gpuTypeId: L4, env });
    expect(found).toEqual([
      'Cluster "train": env.HF_TOKEN = [plain text, not shown]: looks like a Hugging Face token (hf_...) in plain text, which the platform shows to everyone on the account; keep it in a Secret and set env.HF_TOKEN to the secret\'s reference ({{ RUNPOD_SECRET_<name> }})',
    ]);
    expect(found.join("\n")).not.toContain(token);
  });

  it("judges clusters under the engine, advisory by default", async () => {
    const result = await runPolicies([plaintextCredentialsPolicy], {
      resources: [{ type: "Cluster", name: "c", props: { ...TRAINING, gpuTypeId: L4, env: { TOKEN: token } } }],
      config: { [PLAINTEXT_CREDENTIALS_POLICY]: {} },
    });
    expect(result.mandatory).toEqual([]);
    expect(result.advisory.map((v) => v.message)).toEqual([
      expect.stringMatching(/^Cluster "c": env\.TOKEN = \[plain text, not shown\]: looks like a Hugging Face token/),
    ]);
    expect(JSON.stringify(result)).not.toContain(token);
  });

  it("flags a value marked secret too: encrypted in the state, plain text on every member", async () => {
    const result = await runPolicies([plaintextCredentialsPolicy], {
      resources: [
        {
          type: "Cluster",
          name: "c",
          props: { ...TRAINING, gpuTypeId: L4, env: { TOKEN: token } },
          secretProps: ["env.TOKEN"],
        },
      ],
    });
    expect(result.advisory.map((v) => v.message)).toEqual([
      expect.stringMatching(
        /^Cluster "c": env\.TOKEN = \[secret, not shown\]: looks like a Hugging Face token \(hf_\.\.\.\); as a Pulumi secret it is encrypted in the state, but the platform stores env values as plain text/,
      ),
    ]);
    expect(JSON.stringify(result)).not.toContain(token);
  });
});

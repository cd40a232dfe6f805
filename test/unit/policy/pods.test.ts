import { describe, expect, it } from "vitest";
import { checkPodContradictoryInputs } from "../../../policy/contradictory-inputs";
import { checkKnownPlatformValues } from "../../../policy/known-platform-values";
import { checkPodLimits, POD_LIMITS_POLICY, podLimitsPolicy } from "../../../policy/pod-limits";
import type { NamedProps, NetworkVolumeProps, PodProps } from "../../../policy/resource-types";
import {
  checkStackCostCeiling,
  STACK_COST_CEILING_POLICY,
  stackCostCeilingPolicy,
} from "../../../policy/stack-cost-ceiling";
import { checkVolumeLocality } from "../../../policy/volume-locality";
import { runPolicies } from "./engine-harness";

const H100 = "NVIDIA H100 80GB HBM3";
const A40 = "NVIDIA A40";
const dev = { stackName: "dev", stackTags: new Map<string, string>() };
const pod = (name: string, props: PodProps): NamedProps<PodProps> => ({ name, props });
const volume = (name: string, props: NetworkVolumeProps): NamedProps<NetworkVolumeProps> => ({ name, props });

describe("runpod-pod-limits", () => {
  it("holds GPU count, cloud and spot to the stack's settings, GPU pods only for GPU count and spot", () => {
    const config = {
      maxGpuCount: 4,
      allowedCloudTypes: ["SECURE"],
      interruptible: "forbidden" as const,
      byStackTag: { "env=dev": { maxGpuCount: 1, interruptible: "required" as const } },
    };
    expect(checkPodLimits("a", { gpuCount: 4, interruptible: true, cloudType: "SECURE" }, config)).toEqual([
      'Pod "a": interruptible = true: must not be true: the platform may stop an interruptible pod at any time (interruptible is "forbidden")',
    ]);
    const tagged = { stackName: "feature-x", stackTags: new Map([["env", "dev"]]) };
    expect(checkPodLimits("a", { gpuCount: 2 }, config, tagged)).toEqual([
      'Pod "a": gpuCount = 2: exceeds the limit of 1 GPU per pod (maxGpuCount from byStackTag "env=dev")',
      'Pod "a": interruptible = unset (platform default false): must be true: GPU pods of this stack must be interruptible (interruptible from byStackTag "env=dev" is "required")',
    ]);
    // A CPU pod has no GPUs and no spot price: only its cloud is judged.
    expect(checkPodLimits("c", { computeType: "CPU", gpuCount: 9, cloudType: "COMMUNITY" }, config, tagged)).toEqual([
      'Pod "c": cloudType = "COMMUNITY": is not an allowed cloud ["SECURE"] (allowedCloudTypes)',
    ]);
  });

  it("reports nothing without settings, under the engine too", async () => {
    const result = await runPolicies([podLimitsPolicy], {
      resources: [{ type: "Pod", name: "p", props: { imageName: "x:1", gpuCount: 8, interruptible: true } }],
      config: { [POD_LIMITS_POLICY]: {} },
    });
    expect([...result.mandatory, ...result.advisory]).toEqual([]);
  });
});

describe("pods in the other policies", () => {
  it("knows the pod-only CPU flavors cpu3m and cpu5m for pods, not for endpoints", () => {
    expect(
      checkKnownPlatformValues("Pod", "p", { computeType: "CPU", cpuFlavorIds: ["cpu3m", "cpu5m", "cpu3c"] }),
    ).toEqual([]);
    expect(
      checkKnownPlatformValues("ServerlessEndpoint", "e", { computeType: "CPU", cpuFlavorIds: ["cpu3m"] }),
    ).toEqual([
      'ServerlessEndpoint "e": cpuFlavorIds[0] = "cpu3m": is not a CPU flavor the platform knows (if the platform added it, list it in additionalCpuFlavorIds)',
    ]);
    expect(checkKnownPlatformValues("Pod", "p", { minCudaVersion: "9.9", dataCenterIds: ["EU-RO-1"] })).toEqual([
      'Pod "p": minCudaVersion = "9.9": is not a CUDA version the platform knows (if the platform added it, list it in additionalCudaVersions)',
    ]);
  });

  it("lets a pod on a network volume leave dataCenterIds unset, and refuses one that leaves out the volume's", () => {
    const linked = (dataCenterIds?: string[]): NamedProps<PodProps> => ({
      name: "p",
      props: { networkVolumeId: "vol-id", ...(dataCenterIds ? { dataCenterIds } : {}) },
      dependsOn: {
        networkVolumeId: [
          { type: "pulumi-nodejs:dynamic/runpod:NetworkVolume", name: "v", props: { dataCenterId: "EU-RO-1" } },
        ],
      },
    });
    expect(checkVolumeLocality([], {}, dev, [linked(), linked(["EU-RO-1"])])).toEqual([]);
    expect(checkVolumeLocality([], {}, dev, [linked(["US-TX-3"])])).toEqual([
      'Pod "p": dataCenterIds = ["US-TX-3"]: leaves out EU-RO-1, where its network volume is (NetworkVolume "v"): the platform refuses to place the pod; set dataCenterIds to ["EU-RO-1"] or leave it unset',
    ]);
  });

  it("accepts GPU and CPU fields on their own kind of pod, and any with allowIgnoredFields", () => {
    expect(checkPodContradictoryInputs("g", { gpuTypeIds: [A40], gpuCount: 2, minRamPerGpu: 32 })).toEqual([]);
    expect(checkPodContradictoryInputs("c", { computeType: "CPU", cpuFlavorIds: ["cpu3m"], vcpuCount: 4 })).toEqual([]);
    expect(
      checkPodContradictoryInputs("c", { computeType: "CPU", minRamPerGpu: 32 }, { allowIgnoredFields: true }),
    ).toEqual([]);
  });

  it("counts the placement filters as GPU settings", () => {
    expect(checkPodContradictoryInputs("g", { gpuTypeIds: [A40], minRamPerGpu: 64, minVcpuCountPerGpu: 8 })).toEqual(
      [],
    );
    expect(checkPodContradictoryInputs("c", { computeType: "CPU", minRamPerGpu: 64, minVcpuCountPerGpu: 4 })).toEqual([
      'Pod "c": minRamPerGpu = 64: is a GPU setting on a CPU pod (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"',
      'Pod "c": minVcpuCountPerGpu = 4: is a GPU setting on a CPU pod (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"',
    ]);
  });
});

describe("runpod-stack-cost-ceiling with pods and volumes", () => {
  it("counts running pods at the catalog's price (half when interruptible) and volumes, not stopped pods", () => {
    const pods = [
      pod("spot", { gpuTypeIds: [A40], gpuCount: 2, interruptible: true }),
      pod("parked", { gpuTypeIds: [H100], gpuCount: 8, desiredStatus: "EXITED" }),
    ];
    const volumes = [volume("data", { size: 730, dataCenterId: "EU-RO-1" })];
    expect(checkStackCostCeiling([], { maxWorstCasePerHour: 0.47 }, dev, { pods, volumes })).toEqual([]);
    expect(checkStackCostCeiling([], { maxWorstCasePerHour: 0.4 }, dev, { pods, volumes })).toEqual([
      'Stack "dev": worst-case cost summed over 1 running pod (units × $/hour of the dearest type each may rent), 1 network volume (GB × $/GB-month / 730) = $0.47/hour ("spot" pod 2 GPUs × $0.20 (NVIDIA A40, SECURE, interruptible) = $0.40, "data" volume 730 GB × $0.07/GB-month (STANDARD) / 730 h = $0.07): exceeds the cap of $0.40/hour (maxWorstCasePerHour)',
    ]);
  });

  it("takes the team's pod prices over the catalog's, and reports a GPU type with no price anywhere", () => {
    const pods = [pod("gpu", { gpuTypeIds: [A40, "NVIDIA B300"] })];
    expect(checkStackCostCeiling([], { maxAlwaysOnPerHour: 0 }, dev, { pods })).toEqual([
      'Pod "gpu": gpuTypeIds = ["NVIDIA A40","NVIDIA B300"]: "NVIDIA B300" has no price in this release\'s catalog or in podGpuPricesPerHour, so the pod\'s cost has no bound; add a price',
    ]);
    const priced = { maxAlwaysOnPerHour: 1, podGpuPricesPerHour: { "NVIDIA B300": 6.5 } };
    expect(checkStackCostCeiling([], priced, dev, { pods })).toEqual([
      'Stack "dev": always-on cost summed over 1 running pod (units × $/hour of the dearest type each may rent) = $6.50/hour ("gpu" pod 1 GPU × $6.50 (NVIDIA B300, SECURE) = $6.50): exceeds the cap of $1.00/hour (maxAlwaysOnPerHour)',
    ]);
  });

  it("applies to a stack with pods or volumes even without price tables, under the engine", async () => {
    const result = await runPolicies([stackCostCeilingPolicy], {
      resources: [{ type: "Pod", name: "p", props: { imageName: "x:1", gpuTypeIds: [H100], gpuCount: 2 } }],
      config: { [STACK_COST_CEILING_POLICY]: { maxAlwaysOnPerHour: 5 } },
    });
    expect(result.notApplicable).toEqual([]);
    expect(result.advisory.map((v) => v.message)).toEqual([
      'Stack "stack": always-on cost summed over 1 running pod (units × $/hour of the dearest type each may rent) = $5.38/hour ("p" pod 2 GPUs × $2.69 (NVIDIA H100 80GB HBM3, SECURE) = $5.38): exceeds the cap of $5.00/hour (maxAlwaysOnPerHour)',
    ]);
  });
});

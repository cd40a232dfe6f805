import type { PolicyScenario } from "./types";

/**
 * Scenarios of pods: the pod program of docs/resources.md and examples/training-pod passes the pack
 * as written, and a program that breaks every rule pods meet (GPU lists, known values, pinning,
 * volume locality, contradictions, pod limits, the cost ceiling) is refused with exact messages. No
 * prop is version-only (`interruptible`, the `min*` filters, `startSsh`), so the provider's `check`
 * accepts them on either management API version and only the policies speak.
 */

const H100 = "NVIDIA H100 80GB HBM3";
const A40 = "NVIDIA A40";
const L40S = "NVIDIA L40S";

/** The pods of docs/resources.md and examples/training-pod, as their program declares them. */
const DOCUMENTED_PODS: PolicyScenario["resources"] = [
  { type: "NetworkVolume", name: "datasets", props: { size: 100, dataCenterId: "EU-RO-1" } },
  {
    type: "Pod",
    name: "trainer",
    props: {
      imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
      gpuTypeIds: [A40, L40S],
      gpuCount: 1,
      dataCenterIds: ["EU-RO-1"],
      env: { WANDB_PROJECT: "fine-tune" },
      desiredStatus: "RUNNING",
    },
    refs: { networkVolumeId: "datasets" },
  },
  {
    type: "Pod",
    name: "prep",
    props: {
      imageName: "python:3.12-slim",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3m"],
      vcpuCount: 4,
      desiredStatus: "RUNNING",
    },
  },
];

/** Pod scenarios. */
export const POD_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "compliant-pods",
    description:
      "The pod program of docs/resources.md (a volume, a GPU pod on it, a CPU pod on a pod-only flavor) within the pod limits and the cost ceiling, prices from the catalog.",
    stack: "dev",
    config: {
      "runpod-pod-limits": { maxGpuCount: 1, allowedCloudTypes: ["SECURE"] },
      "runpod-stack-cost-ceiling": { maxAlwaysOnPerHour: 2, maxWorstCasePerHour: 2 },
    },
    resources: DOCUMENTED_PODS,
    expect: { mandatory: [], advisory: [] },
  },
  {
    name: "pod-violations",
    description:
      "A GPU pod over the limits, on a mutable tag, placed away from its volume, with a CPU setting; a CPU pod with a GPU setting in an unknown data center; all running above the cost ceiling.",
    stack: "dev-bob",
    config: {
      "runpod-gpu-priority-list": { minFallbacks: 1 },
      "runpod-pod-limits": {
        maxGpuCount: 8,
        allowedCloudTypes: ["SECURE"],
        byStack: { "dev*": { maxGpuCount: 1, interruptible: "required" } },
      },
      "runpod-stack-cost-ceiling": { maxAlwaysOnPerHour: 1 },
    },
    resources: [
      { type: "NetworkVolume", name: "ckpt", props: { size: 100, dataCenterId: "EU-RO-1" } },
      {
        type: "Pod",
        name: "big",
        props: {
          imageName: "ghcr.io/acme/trainer:latest",
          gpuTypeIds: [H100],
          gpuCount: 2,
          cloudType: "COMMUNITY",
          vcpuCount: 8,
          dataCenterIds: ["EU-RO-1", "US-TX-3"],
        },
        refs: { networkVolumeId: "ckpt" },
      },
      {
        type: "Pod",
        name: "cpu",
        props: {
          imageName: "python:3.12-slim",
          computeType: "CPU",
          cpuFlavorIds: ["cpu5m"],
          gpuCount: 1,
          dataCenterIds: ["EU-RO-9"],
        },
      },
      {
        type: "Pod",
        name: "parked",
        props: {
          imageName: "ghcr.io/acme/trainer:1.0",
          gpuTypeIds: [H100, A40],
          gpuCount: 1,
          interruptible: false,
          desiredStatus: "EXITED",
        },
      },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-gpu-priority-list",
          message:
            'Pod "big": gpuTypeIds = ["NVIDIA H100 80GB HBM3"]: has 0 fallbacks after the first choice, at least 1 required (minFallbacks): a single GPU type often has no capacity',
        },
        {
          policy: "runpod-image-pinning",
          message:
            'Pod "big": imageName = "ghcr.io/acme/trainer:latest": uses the mutable tag "latest"; pin a version tag or a digest (image@sha256:<digest>)',
        },
        {
          policy: "runpod-volume-locality",
          message:
            'Pod "big": dataCenterIds = ["EU-RO-1","US-TX-3"]: lists US-TX-3, where the pod cannot be placed: a pod runs only where its network volume is (NetworkVolume "ckpt" in EU-RO-1); set dataCenterIds to ["EU-RO-1"] or leave it unset',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'Pod "big": vcpuCount = 8: is a CPU setting on a GPU pod (computeType = unset (platform default "GPU")), which the platform ignores; remove it, or set computeType to "CPU"',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'Pod "cpu": gpuCount = 1: is a GPU setting on a CPU pod (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"',
        },
        {
          policy: "runpod-known-platform-values",
          message:
            'Pod "cpu": dataCenterIds[0] = "EU-RO-9": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
        },
        {
          policy: "runpod-pod-limits",
          message: 'Pod "big": cloudType = "COMMUNITY": is not an allowed cloud ["SECURE"] (allowedCloudTypes)',
        },
        {
          policy: "runpod-pod-limits",
          message:
            'Pod "big": gpuCount = 2: exceeds the limit of 1 GPU per pod (maxGpuCount from byStack "dev*" for stack "dev-bob")',
        },
        {
          policy: "runpod-pod-limits",
          message:
            'Pod "big": interruptible = unset (platform default false): must be true: GPU pods of this stack must be interruptible (interruptible from byStack "dev*" for stack "dev-bob" is "required")',
        },
        {
          policy: "runpod-pod-limits",
          message:
            'Pod "parked": interruptible = false: must be true: GPU pods of this stack must be interruptible (interruptible from byStack "dev*" for stack "dev-bob" is "required")',
        },
      ],
      advisory: [
        {
          policy: "runpod-stack-cost-ceiling",
          message:
            'Stack "dev-bob": always-on cost summed over 2 running pods (units × $/hour of the dearest type each may rent), 1 network volume (GB × $/GB-month / 730) = $4.9096/hour ("big" pod 2 GPUs × $2.39 (NVIDIA H100 80GB HBM3, COMMUNITY) = $4.78, "cpu" pod 2 vCPUs × $0.06 (cpu5m) = $0.12, "ckpt" volume 100 GB × $0.07/GB-month (STANDARD) / 730 h = $0.0096): exceeds the cap of $1.00/hour (maxAlwaysOnPerHour)',
        },
      ],
    },
  },
];

import type { ResourceKind } from "../resource-types";
import { CREDENTIAL_SCENARIOS } from "./credential-scenarios";
import { DEPLOYMENT_SCENARIOS } from "./deployment-scenarios";
import { POD_SCENARIOS } from "./pod-scenarios";
import type { PolicyPackConfigFile, PolicyScenario } from "./types";

/** The sample configuration's content (`policy/examples/policy-config.json`), trimmed to what scenarios need. */
const ORG_CONFIG: PolicyPackConfigFile = {
  "runpod-gpu-priority-list": {
    denied: ["NVIDIA RTX A4000"],
    minFallbacks: 1,
    preferredOrder: ["NVIDIA H100 80GB HBM3", "NVIDIA L40S", "NVIDIA GeForce RTX 4090", "NVIDIA L4"],
  },
  "runpod-worker-bounds": {
    workersMinCap: 2,
    workersMaxCap: 10,
    idleTimeoutMin: 5,
    idleTimeoutMax: 600,
    byStack: { "dev*": { workersMinCap: 0, workersMaxCap: 2 } },
  },
  "runpod-stack-worker-budget": { maxTotalGpus: 16 },
  "runpod-volume-size-cap": { maxSizeGb: 500 },
  "runpod-stack-volume-size-cap": { maxTotalSizeGb: 1000 },
};

const H100 = "NVIDIA H100 80GB HBM3";
const L40S = "NVIDIA L40S";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const L4 = "NVIDIA L4";

/** Scenarios of the per-resource and stack-size policies. */
const SIZING_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "compliant",
    description: "A production-like program within every limit of the organisation's configuration.",
    stack: "prod",
    config: ORG_CONFIG,
    resources: [
      { type: "NetworkVolume", name: "models", props: { name: "models", size: 400, dataCenterId: "EU-RO-1" } },
      {
        type: "ServerlessEndpoint",
        name: "inference",
        props: {
          templateId: "echo",
          name: "inference",
          gpuTypeIds: [H100, L40S, L4],
          gpuCount: 2,
          workersMin: 1,
          workersMax: 4,
          idleTimeout: 60,
        },
      },
      {
        type: "ServerlessEndpoint",
        name: "preprocess",
        props: { templateId: "echo", name: "preprocess", computeType: "CPU", workersMax: 10, idleTimeout: 5 },
      },
    ],
    expect: { mandatory: [], advisory: [] },
  },
  {
    name: "gpu-priority-list-violations",
    description: "Missing list, duplicates, a denied type, too few fallbacks and an order against the ranking.",
    stack: "prod",
    config: ORG_CONFIG,
    resources: [
      { type: "ServerlessEndpoint", name: "no-list", props: { templateId: "echo", workersMax: 1 } },
      {
        type: "ServerlessEndpoint",
        name: "messy",
        props: { templateId: "echo", gpuTypeIds: [L40S, "NVIDIA RTX A4000", L40S], workersMax: 1 },
      },
      { type: "ServerlessEndpoint", name: "single", props: { templateId: "echo", gpuTypeIds: [L4], workersMax: 1 } },
      {
        type: "ServerlessEndpoint",
        name: "unordered",
        props: { templateId: "echo", gpuTypeIds: [L4, RTX4090, H100], workersMax: 1 },
      },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-gpu-priority-list",
          message:
            'ServerlessEndpoint "no-list": gpuTypeIds = undefined: must list at least one GPU type for a GPU endpoint (GPU types in order of preference), or name GPU pools in gpuPools',
        },
        {
          policy: "runpod-gpu-priority-list",
          message:
            'ServerlessEndpoint "messy": gpuTypeIds = ["NVIDIA L40S","NVIDIA RTX A4000","NVIDIA L40S"]: lists "NVIDIA L40S" 2 times (indexes 0, 2); each GPU type may appear once (remediation keeps the first occurrence)',
        },
        {
          policy: "runpod-gpu-priority-list",
          message: 'ServerlessEndpoint "messy": gpuTypeIds[1] = "NVIDIA RTX A4000": is a denied GPU type',
        },
        {
          policy: "runpod-gpu-priority-list",
          message:
            'ServerlessEndpoint "single": gpuTypeIds = ["NVIDIA L4"]: has 0 fallbacks after the first choice, at least 1 required (minFallbacks): a single GPU type often has no capacity',
        },
        {
          policy: "runpod-gpu-priority-list",
          message:
            'ServerlessEndpoint "unordered": gpuTypeIds = ["NVIDIA L4","NVIDIA GeForce RTX 4090","NVIDIA H100 80GB HBM3"]: is not in the preferred order: "NVIDIA H100 80GB HBM3" is ranked above "NVIDIA L4" but listed after it; expected ["NVIDIA H100 80GB HBM3","NVIDIA GeForce RTX 4090","NVIDIA L4"] (preferredOrder)',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "gpu-priority-list-remediation",
    description: "With enforcement level `remediate`, duplicate GPU types are removed and nothing is reported.",
    stack: "prod",
    config: { "runpod-gpu-priority-list": { enforcementLevel: "remediate" } },
    resources: [
      {
        type: "ServerlessEndpoint",
        name: "api",
        props: { templateId: "echo", gpuTypeIds: [RTX4090, L4, RTX4090, L4], workersMax: 2 },
      },
    ],
    expect: { mandatory: [], advisory: [], remediated: { api: { gpuTypeIds: [RTX4090, L4] } } },
  },
  {
    name: "known-platform-values-violations",
    description:
      "A data center, a CPU flavor and a volume's data center this release does not know; a CUDA version the team listed passes.",
    stack: "prod",
    config: { "runpod-known-platform-values": { additionalCudaVersions: ["13.1"] } },
    resources: [
      {
        type: "ServerlessEndpoint",
        name: "api",
        props: {
          templateId: "echo",
          gpuTypeIds: [L4],
          dataCenterIds: ["EU-RO-1", "AP-SG-1"],
          allowedCudaVersions: ["13.1"],
          workersMax: 2,
        },
      },
      {
        type: "ServerlessEndpoint",
        name: "cpu",
        props: { templateId: "echo", computeType: "CPU", cpuFlavorIds: ["cpu7c"], workersMax: 2 },
      },
      { type: "NetworkVolume", name: "models", props: { name: "models", size: 10, dataCenterId: "eu-ro-1" } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-known-platform-values",
          message:
            'ServerlessEndpoint "api": dataCenterIds[1] = "AP-SG-1": is not a data center the platform knows (if the platform added it, list it in additionalDataCenterIds)',
        },
        {
          policy: "runpod-known-platform-values",
          message:
            'ServerlessEndpoint "cpu": cpuFlavorIds[0] = "cpu7c": is not a CPU flavor the platform knows (if the platform added it, list it in additionalCpuFlavorIds)',
        },
        {
          policy: "runpod-known-platform-values",
          message:
            'NetworkVolume "models": dataCenterId = "eu-ro-1": is not a data center the platform knows (did you mean "EU-RO-1"?) (if the platform added it, list it in additionalDataCenterIds)',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "worker-bounds-violations",
    description: "On a dev stack, idle workers are capped at 0 and workersMax at 2; idleTimeout above the range.",
    stack: "dev-alice",
    config: ORG_CONFIG,
    resources: [
      {
        type: "ServerlessEndpoint",
        name: "api",
        props: { templateId: "echo", gpuTypeIds: [L40S, L4], workersMin: 1, workersMax: 3, idleTimeout: 900 },
      },
      { type: "ServerlessEndpoint", name: "batch", props: { templateId: "echo", gpuTypeIds: [L40S, L4] } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-worker-bounds",
          message:
            'ServerlessEndpoint "api": workersMin = 1: exceeds the cap of 0 (workersMinCap from byStack "dev*" for stack "dev-alice"); minimum workers are billed even when idle',
        },
        {
          policy: "runpod-worker-bounds",
          message:
            'ServerlessEndpoint "api": workersMax = 3: exceeds the cap of 2 (workersMaxCap from byStack "dev*" for stack "dev-alice")',
        },
        {
          policy: "runpod-worker-bounds",
          message: 'ServerlessEndpoint "api": idleTimeout = 900: must be at most 600 seconds (idleTimeoutMax)',
        },
        {
          policy: "runpod-worker-bounds",
          message:
            'ServerlessEndpoint "batch": workersMax = unset (platform default 3): exceeds the cap of 2 (workersMaxCap from byStack "dev*" for stack "dev-alice")',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "stack-worker-budget-exceeded",
    description: "Two GPU endpoints together may hold 20 GPUs against a budget of 16 (advisory by default).",
    stack: "prod",
    config: ORG_CONFIG,
    resources: [
      {
        type: "ServerlessEndpoint",
        name: "train",
        props: { templateId: "echo", gpuTypeIds: [H100, L40S], gpuCount: 2, workersMax: 8 },
      },
      {
        type: "ServerlessEndpoint",
        name: "serve",
        props: { templateId: "echo", gpuTypeIds: [L40S, L4], workersMax: 4 },
      },
      {
        type: "ServerlessEndpoint",
        name: "cpu-jobs",
        props: { templateId: "echo", computeType: "CPU", workersMax: 10 },
      },
    ],
    expect: {
      mandatory: [],
      advisory: [
        {
          policy: "runpod-stack-worker-budget",
          message:
            'Stack "prod": workersMax × gpuCount summed over 2 GPU endpoints = 20 GPUs ("train" 8 × 2 = 16, "serve" 4 × 1 = 4): exceeds the budget of 16 GPUs (maxTotalGpus)',
        },
      ],
    },
  },
  {
    name: "volume-size-cap-exceeded",
    description: "One network volume above the per-volume cap of 500 GB.",
    stack: "prod",
    config: ORG_CONFIG,
    resources: [
      { type: "NetworkVolume", name: "datasets", props: { name: "datasets", size: 800, dataCenterId: "EU-RO-1" } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-volume-size-cap",
          message:
            'NetworkVolume "datasets": size = 800: exceeds the cap of 500 GB per volume (maxSizeGb); network volumes cannot shrink',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "stack-volume-size-cap-exceeded",
    description: "Three volumes within the per-volume cap that together exceed the per-stack cap of 1000 GB.",
    stack: "prod",
    config: ORG_CONFIG,
    resources: [
      { type: "NetworkVolume", name: "models", props: { name: "models", size: 500, dataCenterId: "EU-RO-1" } },
      { type: "NetworkVolume", name: "cache", props: { name: "cache", size: 300, dataCenterId: "EU-RO-1" } },
      { type: "NetworkVolume", name: "scratch", props: { name: "scratch", size: 400, dataCenterId: "US-TX-3" } },
    ],
    expect: {
      mandatory: [],
      advisory: [
        {
          policy: "runpod-stack-volume-size-cap",
          message:
            'Stack "prod": size summed over 3 network volumes = 1200 GB ("models" 500 GB, "scratch" 400 GB, "cache" 300 GB): exceeds the cap of 1000 GB per stack (maxTotalSizeGb)',
        },
      ],
    },
  },
];

/** Every scenario: compliant programs, and at least one program violating each policy. */
export const POLICY_SCENARIOS: readonly PolicyScenario[] = [
  ...SIZING_SCENARIOS,
  ...DEPLOYMENT_SCENARIOS,
  ...POD_SCENARIOS,
  ...CREDENTIAL_SCENARIOS,
];

/** The kinds of resource a scenario's program declares: it runs on the real engine once the package has them all. */
export function scenarioKinds(scenario: PolicyScenario): ResourceKind[] {
  return [...new Set(scenario.resources.map((r) => r.type))].sort();
}

import { A40, COST_CONFIG, H100, L4, L40S, RTX4090, workerTemplate } from "./deployment-fixtures";
import type { PolicyScenario } from "./types";

/** Scenarios of the contradictory-inputs, serverless-template and stack-cost-ceiling policies. */
export const RULE_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "contradictory-inputs-violations",
    description:
      "Both volume fields on one endpoint, GPU fields on a CPU endpoint and CPU fields on an endpoint left at the default GPU.",
    stack: "prod",
    resources: [
      { type: "NetworkVolume", name: "models", props: { name: "models", size: 100, dataCenterId: "EU-RO-1" } },
      {
        type: "ServerlessEndpoint",
        name: "two-volume-fields",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], dataCenterIds: ["EU-RO-1"] },
        refs: { networkVolumeId: "models", networkVolumeIds: ["models"] },
      },
      {
        type: "ServerlessEndpoint",
        name: "cpu-with-gpu-fields",
        props: { templateId: "echo", computeType: "CPU", gpuTypeIds: [L4], gpuCount: 2, minCudaVersion: "12.4" },
      },
      {
        type: "ServerlessEndpoint",
        name: "gpu-with-cpu-fields",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], cpuFlavorIds: ["cpu3c"], vcpuCount: 4 },
      },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-contradictory-inputs",
          message:
            'ServerlessEndpoint "two-volume-fields": networkVolumeIds = ["<unknown until pulumi up>"]: is set together with networkVolumeId = <unknown until pulumi up>; set only one: networkVolumeId for one volume, networkVolumeIds for a multi-region endpoint',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'ServerlessEndpoint "cpu-with-gpu-fields": gpuTypeIds = ["NVIDIA L4"]: is a GPU setting on a CPU endpoint (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'ServerlessEndpoint "cpu-with-gpu-fields": gpuCount = 2: is a GPU setting on a CPU endpoint (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'ServerlessEndpoint "cpu-with-gpu-fields": minCudaVersion = "12.4": is a GPU setting on a CPU endpoint (computeType = "CPU"), which the platform ignores; remove it, or set computeType to "GPU"',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'ServerlessEndpoint "gpu-with-cpu-fields": cpuFlavorIds = ["cpu3c"]: is a CPU setting on a GPU endpoint (computeType = unset (platform default "GPU")), which the platform ignores; remove it, or set computeType to "CPU"',
        },
        {
          policy: "runpod-contradictory-inputs",
          message:
            'ServerlessEndpoint "gpu-with-cpu-fields": vcpuCount = 4: is a CPU setting on a GPU endpoint (computeType = unset (platform default "GPU")), which the platform ignores; remove it, or set computeType to "CPU"',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "serverless-template-violations",
    description:
      "Endpoints on Pod templates of the stack, one with isServerless left at the platform default, and, with requireTemplateInStack, one on a template outside the stack; an endpoint on a serverless template passes.",
    stack: "prod",
    config: { "runpod-serverless-template": { requireTemplateInStack: true } },
    resources: [
      { type: "Template", name: "pod", props: { imageName: "ghcr.io/acme/pod:1.0" } },
      { type: "Template", name: "explicit-pod", props: { imageName: "ghcr.io/acme/pod:1.0", isServerless: false } },
      workerTemplate("worker"),
      { type: "ServerlessEndpoint", name: "a", props: { gpuTypeIds: [L4, A40] }, refs: { templateId: "pod" } },
      { type: "ServerlessEndpoint", name: "b", props: { gpuTypeIds: [L4, A40] }, refs: { templateId: "explicit-pod" } },
      { type: "ServerlessEndpoint", name: "c", props: { gpuTypeIds: [L4, A40] }, refs: { templateId: "worker" } },
      { type: "ServerlessEndpoint", name: "d", props: { templateId: "echo", gpuTypeIds: [L4, A40] } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-serverless-template",
          message:
            'ServerlessEndpoint "d": templateId = "echo": does not come from a Template of this stack (requireTemplateInStack); declare the template in the program and pass its id',
        },
        {
          policy: "runpod-serverless-template",
          message:
            'ServerlessEndpoint "a": templateId = Template "pod": is not a serverless template (isServerless = unset (platform default false)); set isServerless: true on the template, or run a serverless one',
        },
        {
          policy: "runpod-serverless-template",
          message:
            'ServerlessEndpoint "b": templateId = Template "explicit-pod": is not a serverless template (isServerless = false); set isServerless: true on the template, or run a serverless one',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "stack-cost-ceiling-exceeded",
    description:
      "GPU and CPU endpoints whose always-on and worst-case costs exceed the caps (advisory by default), and one endpoint that may rent an unpriced GPU type.",
    stack: "prod",
    config: COST_CONFIG,
    resources: [
      {
        type: "ServerlessEndpoint",
        name: "train",
        props: { templateId: "echo", gpuTypeIds: [H100, L40S], gpuCount: 2, workersMin: 1, workersMax: 4 },
      },
      {
        type: "ServerlessEndpoint",
        name: "serve",
        props: { templateId: "echo", gpuTypeIds: [L4, RTX4090], workersMin: 2, workersMax: 6 },
      },
      {
        type: "ServerlessEndpoint",
        name: "prep",
        props: {
          templateId: "echo",
          computeType: "CPU",
          cpuFlavorIds: ["cpu3c", "cpu5c"],
          vcpuCount: 4,
          workersMin: 1,
          workersMax: 10,
        },
      },
      {
        type: "ServerlessEndpoint",
        name: "exotic",
        props: { templateId: "echo", gpuTypeIds: [L4, "NVIDIA B200"], workersMax: 2 },
      },
    ],
    expect: {
      mandatory: [],
      advisory: [
        {
          policy: "runpod-stack-cost-ceiling",
          message:
            'ServerlessEndpoint "exotic": gpuTypeIds = ["NVIDIA L4","NVIDIA B200"]: "NVIDIA B200" has no price in gpuPricesPerHour, so the endpoint\'s cost has no bound; add a price for each GPU type it may rent, or remove the unpriced ones',
        },
        {
          policy: "runpod-stack-cost-ceiling",
          message:
            'Stack "prod": always-on cost (workersMin × units per worker × $/hour of the dearest type each may rent) summed over 3 endpoints = $7.16/hour ("train" 1 worker × 2 GPUs × $2.79 (NVIDIA H100 80GB HBM3) = $5.58, "serve" 2 workers × 1 GPU × $0.69 (NVIDIA GeForce RTX 4090) = $1.38, "prep" 1 worker × 4 vCPUs × $0.05 (cpu5c) = $0.20): exceeds the cap of $5.00/hour (maxAlwaysOnPerHour); 1 endpoint without prices not included (see its own message)',
        },
        {
          policy: "runpod-stack-cost-ceiling",
          message:
            'Stack "prod": worst-case cost (workersMax × units per worker × $/hour of the dearest type each may rent) summed over 3 endpoints = $28.46/hour ("train" 4 workers × 2 GPUs × $2.79 (NVIDIA H100 80GB HBM3) = $22.32, "serve" 6 workers × 1 GPU × $0.69 (NVIDIA GeForce RTX 4090) = $4.14, "prep" 10 workers × 4 vCPUs × $0.05 (cpu5c) = $2.00): exceeds the cap of $25.00/hour (maxWorstCasePerHour); 1 endpoint without prices not included (see its own message)',
        },
      ],
    },
  },
];

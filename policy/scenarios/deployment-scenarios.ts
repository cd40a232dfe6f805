import type { PolicyPackConfigFile, PolicyScenario } from "./types";

/**
 * Scenarios of the deployment-wide policies (issue 12): image pinning, volume locality,
 * contradictory inputs, serverless templates and the stack cost ceiling. Scenarios with a
 * `Template` or `ContainerRegistryAuth` run on the real engine once the package has those classes
 * (test/e2e/policy-pack.test.ts lists which scenarios it runs).
 */

const H100 = "NVIDIA H100 80GB HBM3";
const L40S = "NVIDIA L40S";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const L4 = "NVIDIA L4";
const A40 = "NVIDIA A40";
const DIGEST = "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945";

/** The image settings of `policy/examples/policy-config.json`. */
const IMAGE_CONFIG: PolicyPackConfigFile = {
  "runpod-image-pinning": {
    allowedRegistries: ["ghcr.io/acme", "registry.acme.internal:5000"],
    mutableTags: ["main", "stable"],
    byStack: { "dev*": { allowedMutableTags: ["latest", "main"] } },
  },
};

/** The price table and caps of `policy/examples/policy-config.json` (dollars per hour). */
const COST_CONFIG: PolicyPackConfigFile = {
  "runpod-stack-cost-ceiling": {
    gpuPricesPerHour: { [H100]: 2.79, [L40S]: 0.99, [RTX4090]: 0.69, [L4]: 0.48, [A40]: 0.44 },
    cpuPricesPerVcpuHour: { cpu3c: 0.03, cpu3g: 0.04, cpu5c: 0.05, cpu5g: 0.06 },
    maxAlwaysOnPerHour: 5,
    maxWorstCasePerHour: 25,
    byStack: { "dev*": { maxAlwaysOnPerHour: 0, maxWorstCasePerHour: 5 } },
  },
};

/** A serverless template with a pinned image. */
const workerTemplate = (name: string, tag = "1.4.2") => ({
  type: "Template" as const,
  name,
  props: { name, imageName: `ghcr.io/acme/${name}:${tag}`, isServerless: true },
});

/** The deployment-wide scenarios. */
export const DEPLOYMENT_SCENARIOS: readonly PolicyScenario[] = [
  {
    name: "compliant-deployment",
    description:
      "The whole deployment as code: registry credentials, a pinned serverless template, a volume and an endpoint in its data center, within the cost caps.",
    stack: "prod",
    config: { ...IMAGE_CONFIG, ...COST_CONFIG },
    resources: [
      {
        type: "ContainerRegistryAuth",
        name: "ghcr",
        props: { name: "ghcr", username: "acme-ci", password: "not-a-real-token" },
      },
      { ...workerTemplate("worker"), refs: { containerRegistryAuthId: "ghcr" } },
      { type: "NetworkVolume", name: "models", props: { name: "models", size: 100, dataCenterId: "EU-RO-1" } },
      {
        type: "ServerlessEndpoint",
        name: "api",
        props: { name: "api", gpuTypeIds: [L40S, L4], workersMin: 1, workersMax: 4, dataCenterIds: ["EU-RO-1"] },
        refs: { templateId: "worker", networkVolumeId: "models" },
      },
    ],
    expect: { mandatory: [], advisory: [] },
  },
  {
    name: "latest-image-refused",
    description: "Without any configuration, a template on the mutable `latest` tag is refused.",
    stack: "prod",
    resources: [
      { type: "Template", name: "worker", props: { imageName: "ghcr.io/acme/worker:latest", isServerless: true } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-image-pinning",
          message:
            'Template "worker": imageName = "ghcr.io/acme/worker:latest": uses the mutable tag "latest"; pin a version tag or a digest (image@sha256:<digest>)',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "image-pinning-violations",
    description:
      "No tag, a configured mutable tag and a registry outside the allowed ones are refused; a version tag on a registry with a port and a digest pass.",
    stack: "prod",
    config: IMAGE_CONFIG,
    resources: [
      { type: "Template", name: "untagged", props: { imageName: "ghcr.io/acme/worker", isServerless: true } },
      { type: "Template", name: "moving", props: { imageName: "ghcr.io/acme/worker:main", isServerless: true } },
      { type: "Template", name: "foreign", props: { imageName: "docker.io/someone/worker:1.0", isServerless: true } },
      {
        type: "Template",
        name: "internal",
        props: { imageName: "registry.acme.internal:5000/ml/worker:2.3.1", isServerless: true },
      },
      { type: "Template", name: "digest", props: { imageName: `ghcr.io/acme/worker@${DIGEST}`, isServerless: true } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-image-pinning",
          message:
            'Template "untagged": imageName = "ghcr.io/acme/worker": has no tag, so it pulls the mutable "latest"; pin a version tag or a digest (image@sha256:<digest>)',
        },
        {
          policy: "runpod-image-pinning",
          message:
            'Template "moving": imageName = "ghcr.io/acme/worker:main": uses the mutable tag "main" (mutableTags); pin a version tag or a digest (image@sha256:<digest>)',
        },
        {
          policy: "runpod-image-pinning",
          message:
            'Template "foreign": imageName = "docker.io/someone/worker:1.0": comes from docker.io/someone/worker, which is not under an allowed registry ["ghcr.io/acme","registry.acme.internal:5000"] (allowedRegistries)',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "image-pinning-dev-stack",
    description: "On a dev stack, byStack accepts latest and main; other mutable tags are still refused.",
    stack: "dev-bob",
    config: IMAGE_CONFIG,
    resources: [
      { type: "Template", name: "latest", props: { imageName: "ghcr.io/acme/worker:latest", isServerless: true } },
      { type: "Template", name: "main", props: { imageName: "ghcr.io/acme/worker:main", isServerless: true } },
      { type: "Template", name: "stable", props: { imageName: "ghcr.io/acme/worker:stable", isServerless: true } },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-image-pinning",
          message:
            'Template "stable": imageName = "ghcr.io/acme/worker:stable": uses the mutable tag "stable" (mutableTags); pin a version tag or a digest (image@sha256:<digest>)',
        },
      ],
      advisory: [],
    },
  },
  {
    name: "volume-locality-violations",
    description:
      "Endpoints that mount a volume but may run elsewhere: another data center, one too many, none set, a configured volume of another stack; a multi-region endpoint and a pinned one pass.",
    stack: "prod",
    config: { "runpod-volume-locality": { externalVolumeDataCenters: { agv6w2qcg7: "US-KS-2" } } },
    resources: [
      { type: "NetworkVolume", name: "models", props: { name: "models", size: 100, dataCenterId: "EU-RO-1" } },
      { type: "NetworkVolume", name: "cache", props: { name: "cache", size: 50, dataCenterId: "US-TX-3" } },
      {
        type: "ServerlessEndpoint",
        name: "elsewhere",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], dataCenterIds: ["US-TX-3"] },
        refs: { networkVolumeId: "models" },
      },
      {
        type: "ServerlessEndpoint",
        name: "spread",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], dataCenterIds: ["EU-RO-1", "US-TX-3"] },
        refs: { networkVolumeId: "models" },
      },
      {
        type: "ServerlessEndpoint",
        name: "anywhere",
        props: { templateId: "echo", gpuTypeIds: [L4, A40] },
        refs: { networkVolumeId: "models" },
      },
      {
        type: "ServerlessEndpoint",
        name: "shared",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], networkVolumeId: "agv6w2qcg7", dataCenterIds: ["EU-RO-1"] },
      },
      {
        type: "ServerlessEndpoint",
        name: "multi-region",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], dataCenterIds: ["US-TX-3", "EU-RO-1"] },
        refs: { networkVolumeIds: ["models", "cache"] },
      },
      {
        type: "ServerlessEndpoint",
        name: "pinned",
        props: { templateId: "echo", gpuTypeIds: [L4, A40], dataCenterIds: ["EU-RO-1"] },
        refs: { networkVolumeId: "models" },
      },
    ],
    expect: {
      mandatory: [
        {
          policy: "runpod-volume-locality",
          message:
            'ServerlessEndpoint "elsewhere": dataCenterIds = ["US-TX-3"]: leaves out EU-RO-1, so no worker mounts NetworkVolume "models", and lists US-TX-3, where workers start without the endpoint\'s network volume; set dataCenterIds to ["EU-RO-1"]',
        },
        {
          policy: "runpod-volume-locality",
          message:
            'ServerlessEndpoint "spread": dataCenterIds = ["EU-RO-1","US-TX-3"]: lists US-TX-3, where workers start without the endpoint\'s network volume; set dataCenterIds to ["EU-RO-1"]',
        },
        {
          policy: "runpod-volume-locality",
          message:
            'ServerlessEndpoint "anywhere": dataCenterIds = unset (platform default: every data center): lets workers start in data centers without the endpoint\'s network volume (NetworkVolume "models" in EU-RO-1); set dataCenterIds to ["EU-RO-1"] (requireExplicitDataCenters)',
        },
        {
          policy: "runpod-volume-locality",
          message:
            'ServerlessEndpoint "shared": dataCenterIds = ["EU-RO-1"]: leaves out US-KS-2, so no worker mounts network volume "agv6w2qcg7" (externalVolumeDataCenters), and lists EU-RO-1, where workers start without the endpoint\'s network volume; set dataCenterIds to ["US-KS-2"]',
        },
      ],
      advisory: [],
    },
  },
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

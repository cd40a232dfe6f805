import { RULE_SCENARIOS } from "./deployment-rule-scenarios";
import { COST_CONFIG, DIGEST, IMAGE_CONFIG, L4, L40S, A40, workerTemplate } from "./deployment-fixtures";
import type { PolicyScenario } from "./types";

/**
 * Scenarios of the deployment-wide policies: image pinning, volume locality,
 * contradictory inputs, serverless templates and the stack cost ceiling. Scenarios with a
 * `Template` or `ContainerRegistryAuth` run on the real engine once the package has those classes
 * (test/e2e/policy-pack.test.ts lists which scenarios it runs).
 */

/** Image pinning and volume locality. */
const PINNING_AND_LOCALITY: readonly PolicyScenario[] = [
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
];

/** The deployment-wide scenarios. */
export const DEPLOYMENT_SCENARIOS: readonly PolicyScenario[] = [...PINNING_AND_LOCALITY, ...RULE_SCENARIOS];

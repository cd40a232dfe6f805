// The schema's TypeScript examples (plugin/schema-gen reads each marked region into its resource's or
// function's description), run as one program through the plugin by
// test/e2e/languages/standalone-plugin.test.ts. Each region stands alone: with the header, it is a
// whole program.

// example-header
import * as pulumi from "@pulumi/pulumi";
import * as runpod from "runpod-iac/plugin";

const config = new pulumi.Config();
// end example-header

// example: NetworkVolume
// Persistent storage in one data center; it may only grow.
const models = new runpod.NetworkVolume("models", { size: 20, dataCenterId: "EU-RO-1" });
export const volumeId = models.id;
// end example

// example: Template
// The image and environment a serverless worker runs; API_TOKEN stays a secret.
const worker = new runpod.Template("worker", {
  imageName: "ghcr.io/acme/worker:1.4.2",
  isServerless: true,
  env: { MODEL: "llama-3-8b", API_TOKEN: config.requireSecret("apiToken") },
});
export const templateId = worker.id;
// end example

// example: ServerlessEndpoint
// A queue-based endpoint running a template on these cards, scaling to zero when idle.
const echo = new runpod.Template("echo", { imageName: "ghcr.io/acme/echo:1.0", isServerless: true });
const api = new runpod.ServerlessEndpoint("api", {
  templateId: echo.id,
  gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000"],
  workersMax: 2,
  idleTimeout: 5,
});
export const endpointUrl = api.url;
// end example

// example: ContainerRegistryAuth
// A private registry's credential, which a template names to pull its image.
const ghcr = new runpod.ContainerRegistryAuth("ghcr", {
  username: "deploy-bot",
  password: config.requireSecret("registryPassword"),
});
export const registryAuthId = ghcr.id;
// end example

// example: Pod
// A CPU pod of four memory-optimized vCPUs; desiredStatus "EXITED" stops it, "RUNNING" starts it again.
const prep = new runpod.Pod("prep", {
  imageName: "python:3.12-slim",
  computeType: "CPU",
  cpuFlavorIds: ["cpu3m"],
  vcpuCount: 4,
});
export const podId = prep.id;
// end example

// example: Cluster
// An instant cluster: two pods of one NVIDIA L4 each, placed together in one data center.
const train = new runpod.Cluster("train", {
  type: "TRAINING",
  gpuTypeId: "NVIDIA L4",
  gpuCountPerPod: 1,
  podCount: 2,
  imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
});
export const clusterId = train.id;
// end example

// example: Secret
// An account secret: env values refer to it by its reference, and the value never shows.
const hfToken = new runpod.Secret("hf-token", { value: config.requireSecret("hfToken") });
export const hfTokenReference = hfToken.reference;
// end example

// example: VolumeFiles
// Files on a volume, written through its S3-compatible API; an update sends only what changed.
// `hash` changes with any file: an endpoint's env holding it rolls the workers onto new files.
const data = new runpod.NetworkVolume("data", { size: 10, dataCenterId: "EU-RO-1" });
const tokenizer = new runpod.VolumeFiles("tokenizer", {
  networkVolumeId: data.id,
  volumeSizeGb: data.size,
  prefix: "models/tiny",
  files: new pulumi.asset.AssetArchive({ "config.json": new pulumi.asset.StringAsset('{"layers": 2}') }),
});
export const filesHash = tokenizer.hash;
// end example

// example: getGpuTypes
// The GPU types serverless endpoints can run on now: the package's own function, which reads the
// catalog in the program with the stack's runpod:* settings (or RUNPOD_API_KEY, RUNPOD_API_URL).
import { getGpuTypesOutput } from "runpod-iac";
export const gpuTypeIds = getGpuTypesOutput({ include: ["AVAILABILITY"], product: ["SERVERLESS"] }).apply((r) =>
  r.gpuTypes.map((g) => g.id),
);
// end example

// example: getCpuFlavors
// The CPU flavors of the catalog, with their vCPU range (the package's own function, as getGpuTypes).
import { getCpuFlavorsOutput } from "runpod-iac";
export const cpuFlavorIds = getCpuFlavorsOutput({}).apply((r) => r.cpuFlavors.map((f) => f.id));
// end example

// example: getDataCenters
// The data centers in Europe (the package's own function, as getGpuTypes).
import { getDataCentersOutput } from "runpod-iac";
export const dataCenterIds = getDataCentersOutput({ regions: ["EUROPE"] }).apply((r) => r.dataCenters.map((d) => d.id));
// end example

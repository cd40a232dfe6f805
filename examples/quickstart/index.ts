/**
 * Quickstart: a whole serverless deployment. A registry credential, the template that pulls the
 * worker image with it, a volume for model weights, and an endpoint that runs the template.
 * `npm start` deploys it against the local emulator (where the image `ghcr.io/acme/echo:1.0`
 * runs the built-in `echo` handler) and sends it a job; with your own Pulumi CLI and a RunPod
 * account, `pulumi up` deploys it for real (set `runpod:apiKey`, `quickstart:imageName` and the
 * registry credentials of your image).
 */
import * as pulumi from "@pulumi/pulumi";
import { ContainerRegistryAuth, NetworkVolume, ServerlessEndpoint, Template } from "runpod-iac";

const config = new pulumi.Config("quickstart");
const dataCenterId = config.get("dataCenterId") ?? "EU-RO-1";

// Credentials for the registry that holds the worker image. The password is always a secret.
const registry = new ContainerRegistryAuth("registry", {
  username: config.get("registryUser") ?? "deploy-bot",
  password: config.requireSecret("registryPassword"),
});

// The worker: image, environment (values may be secrets) and credentials. Bumping the image
// tag updates the template in place, and the endpoint is rolled onto it.
const worker = new Template("worker", {
  imageName: config.get("imageName") ?? "ghcr.io/acme/echo:1.0",
  isServerless: true,
  containerRegistryAuthId: registry.id,
  env: { GREETING: "hello", API_TOKEN: config.requireSecret("apiToken") },
});

// Persistent storage for model weights. Protect it in production: replacing a volume
// (e.g. by changing its data center) creates a new, empty one.
const models = new NetworkVolume("models", {
  size: config.getNumber("volumeSize") ?? 20,
  dataCenterId,
});

// A queue-based endpoint on exactly these cards: in priority order on management API v1, as the
// GPU pools holding them (no order) on v2, the default.
const api = new ServerlessEndpoint("api", {
  templateId: worker.id,
  gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090"],
  gpuCount: 1,
  workersMin: 0,
  workersMax: 2,
  idleTimeout: 5,
  networkVolumeId: models.id,
  dataCenterIds: [dataCenterId],
});

export const registryId = registry.id;
export const registryName = registry.name;
export const templateId = worker.id;
export const volumeId = models.id;
export const volumeSize = models.size;
export const endpointId = api.id;
export const endpointUrl = api.url;

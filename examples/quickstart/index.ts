/**
 * Quickstart: a network volume and a serverless endpoint with a GPU priority list.
 * `npm start` deploys it against the local emulator; with your own Pulumi CLI and a RunPod
 * account, `pulumi up` from the repository root deploys it for real (set `runpod:apiKey`).
 */
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, ServerlessEndpoint } from "pulumi-runpod";

const config = new pulumi.Config("quickstart");

// Persistent storage for model weights. Protect it in production: replacing a volume
// (e.g. by changing its data center) creates a new, empty one.
const models = new NetworkVolume("models", {
  size: config.getNumber("volumeSize") ?? 20,
  dataCenterId: config.get("dataCenterId") ?? "EU-RO-1",
});

// A queue-based endpoint. The first GPU type is rented when available, then the next ones.
const api = new ServerlessEndpoint("api", {
  templateId: config.get("templateId") ?? "echo",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090"],
  gpuCount: 1,
  workersMin: 0,
  workersMax: 2,
  idleTimeout: 5,
  networkVolumeId: models.id,
  dataCenterIds: [config.get("dataCenterId") ?? "EU-RO-1"],
});

export const volumeId = models.id;
export const volumeSize = models.size;
export const endpointId = api.id;
export const endpointUrl = api.url;

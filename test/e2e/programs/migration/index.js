// The whole deployment in what a program written for v1 holds: a registry credential, the template
// that pulls with it (a secret env value), a volume and an endpoint naming GPU types in an order
// that is not the catalog's, flash boot as v1's boolean, and two pods: a GPU pod on the volume with
// a secret env value and a CPU pod on a pod-only flavor. Deployed through one management API
// version, then previewed and refreshed through the other (docs/api-versions.md).
const pulumi = require("@pulumi/pulumi");
const { ContainerRegistryAuth, NetworkVolume, Pod, ServerlessEndpoint, Template } = require("runpod-iac");

const registry = new ContainerRegistryAuth("registry", {
  username: "deploy-bot",
  password: pulumi.secret("rpg_migration_password"),
});
const template = new Template("worker", {
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  containerRegistryAuthId: registry.id,
  containerDiskInGb: 20,
  env: { GREETING: "hello", API_TOKEN: pulumi.secret("tok_migration_secret") },
});
const volume = new NetworkVolume("models", { size: 20, dataCenterId: "EU-RO-1" });
const endpoint = new ServerlessEndpoint("api", {
  templateId: template.id,
  gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L4", "NVIDIA A40"],
  workersMin: 0,
  workersMax: 2,
  idleTimeout: 5,
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  flashboot: true,
  executionTimeoutMs: 600000,
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
});

const trainer = new Pod("trainer", {
  imageName: "pytorch/pytorch:2.4.0",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  gpuCount: 1,
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
  ports: ["8888/http", "22/tcp"],
  env: { RUN: "migration", HF_TOKEN: pulumi.secret("hf_migration_secret") },
});
const prep = new Pod("prep", { imageName: "ubuntu:24.04", computeType: "CPU", cpuFlavorIds: ["cpu3m"], vcpuCount: 2 });

exports.registryId = registry.id;
exports.templateId = template.id;
exports.volumeId = volume.id;
exports.endpointId = endpoint.id;
exports.endpointUrl = endpoint.url;
exports.healthUrl = endpoint.healthUrl;
exports.gpuTypeIds = endpoint.gpuTypeIds;
exports.trainerId = trainer.id;
exports.trainerCostPerHr = trainer.costPerHr;
exports.prepId = prep.id;

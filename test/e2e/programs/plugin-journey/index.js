// The whole deployment through the provider plugin: a registry credential, the template that pulls
// with it (a secret env value), a volume whose size comes from the stack config, the endpoint on
// it, and a GPU pod with placement filters and a secret env value. The same Args as the dynamic
// resources.
const pulumi = require("@pulumi/pulumi");
const { ContainerRegistryAuth, NetworkVolume, Pod, ServerlessEndpoint, Template } = require("runpod-iac/plugin");

const config = new pulumi.Config();
const registry = new ContainerRegistryAuth("registry", {
  username: "deploy-bot",
  password: config.requireSecret("registryPassword"),
});
const template = new Template("worker", {
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  containerRegistryAuthId: registry.id,
  env: { GREETING: "hello", API_TOKEN: config.requireSecret("apiToken") },
});
const volume = new NetworkVolume("models", { size: config.requireNumber("volumeSize"), dataCenterId: "EU-RO-1" });
const endpoint = new ServerlessEndpoint("api", {
  templateId: template.id,
  gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L4"],
  workersMin: 0,
  workersMax: 2,
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
});
const pod = new Pod("trainer", {
  imageName: "ubuntu:24.04",
  gpuTypeIds: ["NVIDIA L4"],
  minRamPerGpu: 100,
  minVcpuCountPerGpu: 12,
  env: { RUN: "plugin", HF_TOKEN: config.requireSecret("apiToken") },
});

exports.registryId = registry.id;
exports.templateId = template.id;
exports.volumeId = volume.id;
exports.volumeSize = volume.size;
exports.endpointId = endpoint.id;
exports.endpointUrl = endpoint.url;
exports.podId = pod.id;
exports.podCostPerHr = pod.costPerHr;
exports.podVcpus = pod.allocatedVcpuCount;
exports.podMemoryGb = pod.allocatedMemoryGb;

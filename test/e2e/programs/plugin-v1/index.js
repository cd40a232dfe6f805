// Through the provider plugin, on whatever management API version runpod-iac:apiUrl names (v1 in
// its test): a volume made outside Pulumi, taken over with adoptId and grown to the size declared
// here; the worker's template with a secret env value; and the endpoint that runs it on the volume.
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume, ServerlessEndpoint, Template } = require("runpod-iac/plugin");

const config = new pulumi.Config();
const volume = new NetworkVolume("models", {
  name: "console-models",
  size: config.requireNumber("volumeSize"),
  dataCenterId: "EU-RO-1",
  adoptId: config.require("adoptVolumeId"),
});
const template = new Template("worker", {
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  env: { GREETING: "hello", API_TOKEN: config.requireSecret("apiToken") },
});
const endpoint = new ServerlessEndpoint("api", {
  templateId: template.id,
  gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  workersMax: 1,
  idleTimeout: 5,
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
});

exports.volumeId = volume.id;
exports.volumeSize = volume.size;
exports.templateId = template.id;
exports.endpointId = endpoint.id;
exports.endpointUrl = endpoint.url;

// End-to-end program: what a user writes, shaped by stack config so tests can edit it.
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume, ServerlessEndpoint } = require("runpod-iac");

const config = new pulumi.Config("e2e");

const volume = new NetworkVolume("vol", {
  name: config.get("volumeName"),
  size: config.requireNumber("volumeSize"),
  dataCenterId: config.get("dataCenterId") ?? "EU-RO-1",
  type: config.get("volumeType"),
});

const endpoint = new ServerlessEndpoint("ep", {
  templateId: "echo",
  name: config.get("endpointName"),
  gpuTypeIds: config.getObject("gpuTypeIds") ?? ["NVIDIA L4", "NVIDIA A40"],
  workersMin: config.getNumber("workersMin") ?? 0,
  workersMax: config.getNumber("workersMax") ?? 2,
  networkVolumeId: volume.id,
  // Workers start only where the volume is (the policy pack's runpod-volume-locality asks this).
  dataCenterIds: [volume.dataCenterId],
});

const adoptId = config.get("adoptVolumeId");
const adopted = adoptId
  ? new NetworkVolume("adopted", { name: "adopted-volume", size: 30, dataCenterId: "EU-RO-1", adoptId })
  : undefined;

exports.volumeId = volume.id;
exports.volumeName = volume.name;
exports.volumeSize = volume.size;
exports.dataCenterId = volume.dataCenterId;
exports.endpointId = endpoint.id;
exports.endpointUrl = endpoint.url;
exports.gpuTypeIds = endpoint.gpuTypeIds;
exports.workersMax = endpoint.workersMax;
exports.adoptedId = adopted ? adopted.id : undefined;

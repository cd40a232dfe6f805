// Resilience test program: `fleet:count` network volumes and as many endpoints, each endpoint on its
// volume. Every resource is auto-named (logical name plus a stack-unique suffix), so a create
// whose answer was lost can be found again by name. `fleet:templateId` (default echo) lets a test
// make every endpoint create fail. `fleet:generation` grows every volume and endpoint (updates in
// place); `fleet:dcShift` moves every volume to another data center (replacements, and updates of
// the endpoints that use them). `fleet:region` puts every volume, and every endpoint's workers, in
// that one data center (a stack of a fleet deployed per region).
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume, ServerlessEndpoint } = require("runpod-iac");

const config = new pulumi.Config("fleet");
const count = config.getNumber("count") ?? 10;
const generation = config.getNumber("generation") ?? 0;
const dcShift = config.getNumber("dcShift") ?? 0;
const region = config.get("region");
const dataCenters = region ? [region] : ["EU-RO-1", "US-TX-3", "EU-SE-1"];

const volumes = [];
const endpoints = [];
for (let i = 0; i < count; i++) {
  const volume = new NetworkVolume(`vol-${i}`, {
    size: 10 + i + generation,
    dataCenterId: dataCenters[(i + dcShift) % dataCenters.length],
  });
  const endpoint = new ServerlessEndpoint(`ep-${i}`, {
    templateId: config.get("templateId") ?? "echo",
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    workersMin: 0,
    workersMax: 1 + (i % 3) + generation,
    networkVolumeId: volume.id,
    ...(region ? { dataCenterIds: [region] } : {}),
  });
  volumes.push(volume);
  endpoints.push(endpoint);
}

exports.volumeIds = volumes.map((v) => v.id);
exports.endpointIds = endpoints.map((e) => e.id);

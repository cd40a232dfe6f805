// Benchmark program (bench/pulumi-bench.ts): `bench:count` independent resources, half network
// volumes and half serverless endpoints, so the engine may run every operation in parallel.
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume, ServerlessEndpoint } = require("runpod-iac");

const count = new pulumi.Config("bench").requireNumber("count");

for (let i = 0; i < count / 2; i++) {
  new NetworkVolume(`vol-${i}`, { size: 10, dataCenterId: "EU-RO-1" });
  new ServerlessEndpoint(`ep-${i}`, {
    templateId: "echo",
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    workersMin: 0,
    workersMax: 1,
  });
}

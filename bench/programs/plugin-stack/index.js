// Benchmark program (bench/plugin-bench.ts): bench/programs/runpod-stack with its import line
// changed to the provider plugin's classes, so the two differ only in what serves the resources.
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume, ServerlessEndpoint } = require("runpod-iac/plugin");

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

// Benchmark program (bench/rollout-bench.ts): one template and `bench:count` endpoints made from
// it, each with one worker always up, so an image bump rolls every endpoint at once.
const pulumi = require("@pulumi/pulumi");
const { ServerlessEndpoint, Template } = require("runpod-iac");

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");

const worker = new Template("worker", { imageName: config.require("image"), isServerless: true });
for (let i = 0; i < count; i++) {
  new ServerlessEndpoint(`ep-${i}`, {
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: 1,
    workersMax: 1,
  });
}

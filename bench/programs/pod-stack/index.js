// Benchmark program (bench/pod-footprint.ts): `bench:count` independent GPU pods, each with what a
// training pod usually declares (an image, a GPU list, ports, an env var, a volume mount path).
const pulumi = require("@pulumi/pulumi");
const { Pod } = require("runpod-iac");

const count = new pulumi.Config("bench").requireNumber("count");

for (let i = 0; i < count; i++) {
  new Pod(`pod-${i}`, {
    imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40", "NVIDIA RTX A5000"],
    ports: ["8888/http", "22/tcp"],
    volumeMountPath: "/workspace",
    env: { WANDB_PROJECT: "bench" },
  });
}

// End-to-end program of pods: a network volume, a GPU pod on it and a CPU pod, shaped by stack
// config so tests can stop, start, reset and replace them.
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume, Pod } = require("runpod-iac");

const config = new pulumi.Config("e2e");
const desiredStatus = config.get("status") ?? "RUNNING";

const volume = new NetworkVolume("data", { size: 20, dataCenterId: "EU-RO-1" });

const gpu = new Pod("gpu", {
  name: config.get("gpuName"),
  imageName: config.get("image") ?? "pytorch/pytorch:2.4.0",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  gpuCount: config.getNumber("gpuCount") ?? 1,
  interruptible: config.getBoolean("interruptible"),
  startJupyter: config.getBoolean("jupyter"),
  minRamPerGpu: config.getNumber("minRamPerGpu"),
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
  env: { MODEL: "llama", HF_TOKEN: config.requireSecret("hfToken") },
  desiredStatus,
});

const cpu = new Pod("cpu", {
  imageName: "ubuntu:24.04",
  computeType: "CPU",
  cpuFlavorIds: ["cpu3m"],
  vcpuCount: 2,
  desiredStatus,
});

exports.volumeId = volume.id;
exports.gpuId = gpu.id;
exports.gpuName = gpu.name;
exports.gpuStatus = gpu.desiredStatus;
exports.gpuCostPerHr = gpu.costPerHr;
exports.gpuEnv = gpu.env;
exports.jupyterPassword = gpu.jupyterPassword;
exports.cpuId = cpu.id;
exports.cpuStatus = cpu.desiredStatus;

import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, Pod } from "runpod-iac";

const config = new pulumi.Config();
// The one line that stops and starts both pods: `pulumi config set running false`, then `pulumi up`.
// A stopped pod releases its GPUs and costs nothing; its volume and disks keep their data.
const desiredStatus = config.getBoolean("running") === false ? "EXITED" : "RUNNING";

// Datasets and checkpoints live on a network volume, which outlives any pod.
const datasets = new NetworkVolume("datasets", { size: 100, dataCenterId: "EU-RO-1" });

// A GPU pod that mounts the volume, so it is placed in the volume's data center, on a machine
// with at least 64 GB of RAM and 8 vCPUs per GPU: placement filters (management API v2), not a
// request. `allocatedMemoryGb` and `allocatedVcpuCount` say what it got, which may be more.
const trainer = new Pod("trainer", {
  imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpuTypeIds: ["NVIDIA A40", "NVIDIA L40S"],
  gpuCount: 1,
  minRamPerGpu: 64,
  minVcpuCountPerGpu: 8,
  networkVolumeId: datasets.id,
  dataCenterIds: [datasets.dataCenterId],
  volumeMountPath: "/workspace",
  ports: ["8888/http", "22/tcp"],
  env: { WANDB_PROJECT: "fine-tune", WANDB_API_KEY: config.requireSecret("wandbApiKey") },
  desiredStatus,
});

// A CPU pod for data preparation, on a memory-optimized flavor only pods rent.
const prep = new Pod("prep", {
  imageName: "python:3.12-slim",
  computeType: "CPU",
  cpuFlavorIds: ["cpu3m"],
  vcpuCount: 4,
  containerDiskInGb: 20,
  dockerStartCmd: ["sleep", "infinity"],
  desiredStatus,
});

export const volumeId = datasets.id;
export const trainerId = trainer.id;
export const trainerStatus = trainer.desiredStatus;
export const trainerCostPerHr = trainer.costPerHr;
export const trainerMemoryGb = trainer.allocatedMemoryGb;
export const trainerVcpus = trainer.allocatedVcpuCount;
export const prepId = prep.id;
export const prepStatus = prep.desiredStatus;

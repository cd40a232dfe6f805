/**
 * Model weights on a network volume as part of `pulumi up`, read by a serverless endpoint's
 * workers. The folder `./weights` is put under `models/tiny` on the volume; an update sends only
 * the files that changed, and `hash` (one hash of the whole set) in the template's env rolls the
 * workers onto new weights.
 */
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, ServerlessEndpoint, Template, VolumeFiles } from "runpod-iac";

const config = new pulumi.Config();
const dataCenterId = config.get("dataCenterId") ?? "EU-RO-1";

// 1. The volume the weights live on, in the data center the workers run in.
const volume = new NetworkVolume("models", { size: 20, dataCenterId });

// 2. The weights: every file of ./weights, under models/tiny on the volume. `volumeSizeGb` lets the
// preview refuse files that would not fit.
const weights = new VolumeFiles("weights", {
  networkVolumeId: volume.id,
  volumeSizeGb: volume.size,
  prefix: "models/tiny",
  files: new pulumi.asset.FileArchive("./weights"),
});

// 3. The worker reads them from /runpod-volume/models/tiny. WEIGHTS_HASH changes with any file, so
// new weights update the template, and the platform rolls its workers onto them.
const worker = new Template("worker", {
  imageName: config.get("image") ?? "ghcr.io/acme/read-weights:1.0",
  isServerless: true,
  env: { MODEL_DIR: "models/tiny", WEIGHTS_HASH: weights.hash },
});

// 4. The endpoint, with the volume mounted, in the volume's data center.
const api = new ServerlessEndpoint("api", {
  templateId: worker.id,
  gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000"],
  workersMax: 1,
  networkVolumeId: volume.id,
  dataCenterIds: [dataCenterId],
});

export const endpointId = api.id;
export const weightsHash = weights.hash;
export const weightsFiles = weights.fileCount;

// Benchmark 10's preview rows (bench/volume-files-preview.ts): one resource, by `bench:kind`:
// `volume-files`, a VolumeFiles of the folder `bench:folder` on the volume `bench:volumeId`;
// `noop`, a dynamic resource whose provider does nothing; `noop-archive`, the same given the
// folder as a FileArchive input (so the engine hashes the folder, as it does for VolumeFiles).
const pulumi = require("@pulumi/pulumi");
const { VolumeFiles } = require("runpod-iac");

const config = new pulumi.Config("bench");
const kind = config.require("kind");
const folder = config.require("folder");

// No read/update/delete: the dynamic provider's defaults keep the stored state and do nothing.
const noop = {
  async create(inputs) {
    return { id: "noop", outs: { kind: inputs.kind } };
  },
};

if (kind === "volume-files") {
  new VolumeFiles("weights", {
    networkVolumeId: config.require("volumeId"),
    files: new pulumi.asset.FileArchive(folder),
  });
} else if (kind === "noop-archive") {
  new pulumi.dynamic.Resource(noop, "weights", { kind, files: new pulumi.asset.FileArchive(folder) });
} else {
  new pulumi.dynamic.Resource(noop, "weights", { kind });
}

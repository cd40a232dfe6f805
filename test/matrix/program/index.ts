// A fresh program as a user writes it (docs/ci.md, "runtime matrix"): the GPU list comes from
// stack config as a plain string[], which must compile against the package's types (open value sets).
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, ServerlessEndpoint } from "runpod-iac";

const config = new pulumi.Config();
const gpuTypeIds: string[] = config.requireObject<string[]>("gpuTypeIds");

const dataCenterId = "EU-RO-1";
const models = new NetworkVolume("models", { size: config.requireNumber("volumeSize"), dataCenterId });

const api = new ServerlessEndpoint("api", {
  templateId: "echo",
  gpuTypeIds,
  workersMin: 0,
  workersMax: config.getNumber("workersMax") ?? 2,
  networkVolumeId: models.id,
  dataCenterIds: [dataCenterId], // workers start only where the volume is (runpod-volume-locality)
});

export const volumeId = models.id;
export const endpointId = api.id;
export const endpointUrl = api.url;

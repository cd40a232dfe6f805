/**
 * What the workflow in workflow.yml deploys: a volume for model weights and a queue-based
 * endpoint. The same program runs against the real platform (RUNPOD_API_KEY from a repository
 * secret) and, for pull requests from forks, against the emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, ServerlessEndpoint } from "runpod-iac";

const config = new pulumi.Config();
const dataCenterId = config.get("dataCenterId") ?? "EU-RO-1";

const models = new NetworkVolume("models", { size: config.getNumber("volumeSize") ?? 20, dataCenterId });

const api = new ServerlessEndpoint("api", {
  templateId: config.get("templateId") ?? "echo",
  gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000", "NVIDIA GeForce RTX 4090"],
  workersMin: 0,
  workersMax: config.getNumber("workersMax") ?? 2,
  idleTimeout: 5,
  networkVolumeId: models.id,
  dataCenterIds: [dataCenterId],
});

export const endpointId = api.id;
export const endpointUrl = api.url;

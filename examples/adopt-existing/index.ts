/**
 * Takes resources made by hand (in the console, with the API, by another tool) under management.
 * `pulumi import` does not work for dynamic resources, so each resource names the id to adopt:
 * the first `pulumi up` reads it, checks what cannot change (a volume's data center, a size that
 * cannot shrink, an endpoint's compute type) and converges the rest to the values below.
 */
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, ServerlessEndpoint } from "runpod-iac";

const config = new pulumi.Config();

// The volume holds data made outside Pulumi: `retainOnDelete` keeps it on the platform if it is
// ever removed from this program or the stack is destroyed.
const weights = new NetworkVolume(
  "weights",
  {
    adoptId: config.require("volumeId"),
    name: "weights",
    size: config.requireNumber("volumeSize"), // at least the volume's current size
    dataCenterId: config.require("dataCenterId"), // the volume's data center
  },
  { retainOnDelete: true },
);

const api = new ServerlessEndpoint("api", {
  adoptId: config.require("endpointId"),
  name: "api",
  templateId: config.require("templateId"),
  gpuTypeIds: ["NVIDIA L4", "NVIDIA RTX A5000"],
  workersMin: 0,
  workersMax: 2,
  networkVolumeId: weights.id,
});

export const volumeId = weights.id;
export const endpointId = api.id;
export const endpointUrl = api.url;

/**
 * One program deployed as several stacks: each stack's config sets the GPU list and worker
 * bounds, and the policy pack (policy-config.json) holds each stack to its own limits.
 */
import * as pulumi from "@pulumi/pulumi";
import { ServerlessEndpoint } from "runpod-iac";

const config = new pulumi.Config();

const api = new ServerlessEndpoint("api", {
  templateId: config.get("templateId") ?? "echo",
  gpuTypeIds: config.requireObject<string[]>("gpuTypeIds"), // GPU types newer than this release work too
  workersMin: config.requireNumber("workersMin"),
  workersMax: config.requireNumber("workersMax"),
  idleTimeout: 5,
});

export const endpointId = api.id;
export const endpointUrl = api.url;

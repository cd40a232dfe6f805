/**
 * A load-balancing serverless endpoint (management API v2): no queue, no jobs. Requests go
 * straight to the workers' own HTTP servers at the endpoint's `url`, and the platform scales the
 * workers on the number of requests in flight. The template's image runs the HTTP server; in the
 * emulator, the handler its image names (`handlers/greeter.mjs`) answers the requests.
 */
import * as pulumi from "@pulumi/pulumi";
import { ServerlessEndpoint, Template } from "runpod-iac";

const config = new pulumi.Config();

// The worker: an image whose HTTP server listens on port 8000. A load balancer needs no SSH or
// Jupyter in its workers, so both are off.
const server = new Template("server", {
  imageName: config.get("imageName") ?? "ghcr.io/acme/greeter:1.0",
  isServerless: true,
  ports: ["8000/http"],
  env: { GREETING: config.get("greeting") ?? "hello" },
  startSsh: false,
  startJupyter: false,
});

// `type: "LOAD_BALANCER"` (a change replaces the endpoint). It scales on REQUEST_COUNT, its
// default: a worker takes up to `scalerValue` requests at once before another starts.
const api = new ServerlessEndpoint("api", {
  type: "LOAD_BALANCER",
  templateId: server.id,
  gpuPools: ["AMPERE_24", "ADA_24"],
  excludedGpuTypes: ["NVIDIA GeForce RTX 3090"],
  workersMin: 0,
  workersMax: 3,
  scalerValue: 4,
  idleTimeout: 30,
  flashboot: "FLASHBOOT",
});

export const templateId = server.id;
export const endpointId = api.id;
/** The base address of the workers' HTTP servers: `curl -H "Authorization: Bearer $RUNPOD_API_KEY" $url/hello`. */
export const url = api.url;
/** 200 while a worker is up, 204 while none is. */
export const healthUrl = api.healthUrl;

// End-to-end program of rollouts: a template and an endpoint with a worker always up, whose image,
// and whether and how `pulumi up` waits for the endpoint to serve it, come from stack config.
const pulumi = require("@pulumi/pulumi");
const { ServerlessEndpoint, Template } = require("runpod-iac");

const config = new pulumi.Config("e2e");
const rollout = {
  waitForRollout: config.getBoolean("wait"),
  rolloutTimeoutSeconds: config.getNumber("timeout"),
};

const worker = new Template("worker", {
  imageName: config.get("image") ?? "ghcr.io/acme/echo:1",
  isServerless: true,
  ...rollout,
});

const api = new ServerlessEndpoint("api", {
  templateId: worker.id,
  gpuTypeIds: ["NVIDIA L4"],
  workersMin: 1,
  workersMax: 2,
  ...rollout,
});

exports.templateId = worker.id;
exports.endpointId = api.id;

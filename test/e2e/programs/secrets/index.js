// A Hugging Face token kept in an account secret (value from the stack's secret config), referred
// to from a serverless template's env by its reference, and an endpoint whose workers run the
// `env-echo` handler (test/integration/emulator/fixtures/handlers): a job asks for HF_TOKEN and
// gets the SHA-256 of what the worker's env holds. Config `secretName` renames the secret.
const pulumi = require("@pulumi/pulumi");
const { Secret, ServerlessEndpoint, Template } = require("runpod-iac");

const config = new pulumi.Config();
const token = new Secret("hf-token", {
  name: config.get("secretName"),
  value: config.requireSecret("hfToken"),
  description: "Hugging Face read token",
});
const template = new Template("worker", {
  imageName: "ghcr.io/acme/env-echo:1.0",
  isServerless: true,
  env: { HF_TOKEN: token.reference, MODEL: "llama" },
});
const endpoint = new ServerlessEndpoint("api", {
  templateId: template.id,
  gpuTypeIds: ["NVIDIA L4"],
  workersMin: 0,
  workersMax: 1,
  idleTimeout: 1,
});

exports.secretId = token.id;
exports.reference = token.reference;
exports.templateId = template.id;
exports.endpointId = endpoint.id;

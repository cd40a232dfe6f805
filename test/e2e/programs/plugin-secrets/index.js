// Through the provider plugin: a platform secret, a template whose env refers to it (never its
// value), and the catalog function getGpuTypes invoked by its token, as a YAML program's
// `fn::invoke: runpod-iac:index:getGpuTypes` calls it.
const pulumi = require("@pulumi/pulumi");
const { Secret, Template } = require("runpod-iac/plugin");

const config = new pulumi.Config();
const token = new Secret("hf", { name: "HF_TOKEN_E2E", value: config.requireSecret("hfToken") });
const template = new Template("worker", {
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  env: { GREETING: "hello", HF_TOKEN: token.reference },
});
const catalog = pulumi.runtime.invoke("runpod-iac:index:getGpuTypes", {});

exports.secretId = token.id;
exports.reference = token.reference;
exports.templateId = template.id;
exports.gpuTypeIds = pulumi.output(catalog).apply((r) => r.gpuTypes.map((g) => g.id));

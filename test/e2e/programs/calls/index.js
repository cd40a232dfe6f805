// End-to-end program of the management calls per operation (calls-per-operation.test.ts):
// `e2e:count` independent resources of each type, all auto-named, so `up` looks each type up once
// (the lookup that keeps creates idempotent) and a refresh reads each type with one list.
const pulumi = require("@pulumi/pulumi");
const { ContainerRegistryAuth, NetworkVolume, Pod, ServerlessEndpoint, Template } = require("runpod-iac");

const config = new pulumi.Config("e2e");
const count = config.requireNumber("count");

const ids = { volumes: [], endpoints: [], templates: [], auths: [], pods: [] };
for (let i = 0; i < count; i++) {
  ids.volumes.push(new NetworkVolume(`vol-${i}`, { size: 10, dataCenterId: "EU-RO-1" }).id);
  const endpoint = new ServerlessEndpoint(`ep-${i}`, {
    templateId: "echo",
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    workersMin: 0,
    workersMax: 1,
  });
  ids.endpoints.push(endpoint.id);
  ids.templates.push(new Template(`tpl-${i}`, { imageName: "ghcr.io/acme/worker:1.0.0", isServerless: true }).id);
  ids.auths.push(
    new ContainerRegistryAuth(`auth-${i}`, { username: "ci", password: config.requireSecret("password") }).id,
  );
  ids.pods.push(
    new Pod(`pod-${i}`, { imageName: "ubuntu:24.04", computeType: "CPU", cpuFlavorIds: ["cpu3m"], vcpuCount: 2 }).id,
  );
}

exports.ids = ids;

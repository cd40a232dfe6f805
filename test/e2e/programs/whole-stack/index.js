// End-to-end program with one resource of each type, so a test can give each type's stored
// provider an older text and see every provider key of `runpod-iac/impl` run from it.
const pulumi = require("@pulumi/pulumi");
const { ContainerRegistryAuth, NetworkVolume, ServerlessEndpoint, Template } = require("runpod-iac");

const auth = new ContainerRegistryAuth("registry", {
  username: "deploy-bot",
  password: pulumi.secret("rpg_upgrade_password"),
});
const template = new Template("worker", {
  // The emulator runs the handler its image names: echo.
  imageName: "ghcr.io/acme/echo:1.0",
  isServerless: true,
  containerRegistryAuthId: auth.id,
});
const volume = new NetworkVolume("vol", { size: 10, dataCenterId: "EU-RO-1" });
const endpoint = new ServerlessEndpoint("ep", {
  templateId: template.id,
  gpuTypeIds: ["NVIDIA L4"],
  networkVolumeId: volume.id,
  dataCenterIds: [volume.dataCenterId],
});

exports.endpointId = endpoint.id;

/**
 * The provider implementation, loaded by package name (`runpod-iac/impl`) inside the engine's
 * dynamic-provider process when a resource's serialized provider runs (see runpod-resource.ts).
 * Keeping it out of the serialized provider means `destroy` and `refresh` always run the installed
 * version, and the state holds no code.
 *
 * Each export is one resource's provider object (`configure`, `check`, `diff`, `create`, `read`,
 * `update`, `delete`). The names are part of the state format: resources serialized by earlier
 * versions call `volume.<method>`, `endpoint.<method>` and `configure` of this module.
 */
export { clusterProvider as cluster } from "./cluster-provider";
export { containerRegistryAuthProvider as registryAuth } from "./container-registry-auth-provider";
export { networkVolumeProvider as volume } from "./network-volume-provider";
export { podProvider as pod } from "./pod-provider";
export { configureProvider as configure } from "./provider-config";
export { secretProvider as secret } from "./secret-provider";
export { serverlessEndpointProvider as endpoint } from "./serverless-endpoint-provider";
export { templateProvider as template } from "./template-provider";
export { volumeFilesProvider as volumeFiles } from "./volume-files-provider";

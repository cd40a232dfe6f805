/**
 * The management API v2 wire schemas (zod), one source for the client, the emulator and the
 * provider, exported from `runpod-iac/sdk` as the namespace `V2` (`V2.NetworkVolumeSchema`,
 * `V2.NetworkVolume`). Names follow the OpenAPI's components.
 */
export * from "./common";
export * from "./network-volume";
export * from "./catalog";
export * from "./container-config";
export * from "./serverless";
export * from "./serverless-workers";
export * from "./template";
export * from "./registry";
export * from "./pod";
export * from "./cluster";
export * from "./billing";
export * from "./account";
export * from "./secret";

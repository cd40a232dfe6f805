export { RunpodClient } from "./client";
export * from "./config";
export * from "./errors";
export type { PollOptions, RunSyncOptions, StatusOptions } from "./jobs/endpoint-jobs";
export { EndpointJobs } from "./jobs/endpoint-jobs";
export type {
  ManagementResource,
  ReadQuery,
  ResourceDescription,
  UpdateMethodOptions,
} from "./management/management-resource";
export type * from "./management/neutral-api";
export { ContainerRegistryAuths } from "./management/v1/container-registry-auths";
export type { EndpointReadOptions, EndpointUpdateOptions } from "./management/v1/endpoints";
export { Endpoints } from "./management/v1/endpoints";
export { ManagementV1 } from "./management/v1/management-v1";
export type { VolumeUpdateOptions } from "./management/v1/network-volumes";
export { NetworkVolumes } from "./management/v1/network-volumes";
export type { TemplateReadOptions, TemplateUpdateOptions } from "./management/v1/templates";
export { Templates } from "./management/v1/templates";
export type { CpuCatalogOptions, DataCenterCatalogOptions, GpuCatalogOptions } from "./management/v2/catalog";
export { CatalogV2 } from "./management/v2/catalog";
export { ManagementV2 } from "./management/v2/management-v2";
export { NetworkVolumesV2 } from "./management/v2/network-volumes";
export { NetworkVolumesOnV2, volumeCreateToV2, volumeFromV2 } from "./management/v2-dialect/network-volumes";
export {
  parseRateLimit,
  parseRateLimitPolicy,
  type QuotaPolicyWindow,
  type QuotaReading,
} from "./rate-limit/rate-limit-headers";
export * from "./retry-policy";
export * from "./schemas";
/** The management API v2 wire schemas and types (`V2.NetworkVolumeSchema`, `V2.NetworkVolume`, ...). */
export * as V2 from "./schemas/v2";
export type { CallOptions, Transport, TransportRequest } from "./transport";

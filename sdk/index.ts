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
export { BillingV1, billingQuery } from "./management/v1/billing";
export { Pods } from "./management/v1/pods";
export type { VolumeUpdateOptions } from "./management/v1/network-volumes";
export { NetworkVolumes } from "./management/v1/network-volumes";
export type { TemplateReadOptions, TemplateUpdateOptions } from "./management/v1/templates";
export { Templates } from "./management/v1/templates";
export type { CpuCatalogOptions, DataCenterCatalogOptions, GpuCatalogOptions } from "./management/v2/catalog";
export { CatalogV2 } from "./management/v2/catalog";
export { ManagementV2 } from "./management/v2/management-v2";
export { NetworkVolumesV2 } from "./management/v2/network-volumes";
export { NetworkVolumesOnV2, volumeCreateToV2, volumeFromV2 } from "./management/v2-dialect/network-volumes";
export { AccountV2, SshKeysV2 } from "./management/v2/account";
export type {
  ClusterBillingQueryV2,
  NetworkVolumeBillingQueryV2,
  PodBillingQueryV2,
  ServerlessBillingQueryV2,
} from "./management/v2/billing";
export { BillingV2 } from "./management/v2/billing";
export { ClustersV2 } from "./management/v2/clusters";
export type { PodListOptionsV2, PodLogOptions } from "./management/v2/pods";
export { PodsV2 } from "./management/v2/pods";
export {
  BillingOnV2,
  endpointBillingFromV2,
  podBillingFromV2,
  volumeBillingFromV2,
} from "./management/v2-dialect/billing";
export {
  checkV2Body,
  desiredStatusFromV2,
  podCreateToV2,
  podFromV2,
  podUpdateToV2,
  v1FieldName,
} from "./management/v2-dialect/pod-translation";
export { PodsOnV2, podMatchesFilters } from "./management/v2-dialect/pods";
export * from "./retry-policy";
export * from "./schemas";
/** The management API v2 wire schemas and types (`V2.NetworkVolumeSchema`, `V2.NetworkVolume`, ...). */
export * as V2 from "./schemas/v2";
export type { CallOptions, Transport, TransportRequest } from "./transport";

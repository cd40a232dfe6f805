export { RunpodClient } from "./client";
export * from "./config";
export * from "./deprecated-names";
export * from "./errors";
export type { BatchOutcome, SubmitManyOptions } from "./jobs/batch-options";
export type { PacedOperation, RateLimitOverride, RateLimitOverrides } from "./jobs/endpoint-pacers";
export type { PollOptions, RunSyncOptions, StatusOptions } from "./jobs/endpoint-jobs";
export type { BatchInputs } from "./jobs/submit-many";
export { EndpointJobs } from "./jobs/endpoint-jobs";
export type {
  ManagementResource,
  ReadQuery,
  ResourceDescription,
  UpdateMethodOptions,
} from "./management/management-resource";
export type * from "./management/neutral/api";
export { ContainerRegistryAuthsV1 } from "./management/v1/container-registry-auths";
export type { EndpointReadOptions, EndpointUpdateOptions } from "./management/v1/endpoints";
export { EndpointsV1 } from "./management/v1/endpoints";
export { ManagementV1 } from "./management/v1/management-v1";
export { BillingV1, billingQuery } from "./management/v1/billing";
export { PodsV1 } from "./management/v1/pods";
export type { VolumeUpdateOptions } from "./management/v1/network-volumes";
export { NetworkVolumesV1 } from "./management/v1/network-volumes";
export type { TemplateReadOptions, TemplateUpdateOptions } from "./management/v1/templates";
export { TemplatesV1 } from "./management/v1/templates";
export type { CpuCatalogOptions, DataCenterCatalogOptions, GpuCatalogOptions } from "./management/v2/catalog";
export { CatalogV2 } from "./management/v2/catalog";
export { ManagementV2 } from "./management/v2/management-v2";
export { NetworkVolumesV2 } from "./management/v2/network-volumes";
export {
  NeutralNetworkVolumesOverV2,
  volumeCreateToV2,
  volumeFromV2,
} from "./management/neutral/over-v2/network-volumes";
export type { TemplateCatalogOptions } from "./management/v2/catalog";
export type { WorkerLogOptions } from "./management/v2/serverless";
export { ServerlessV2 } from "./management/v2/serverless";
export { TemplatesV2 } from "./management/v2/templates";
export { EcrDelegationsV2, RegistriesV2 } from "./management/v2/registries";
export { endpointBodyV1 } from "./management/v1/endpoints";
export {
  endpointCreateToV2,
  endpointFromV2,
  NeutralEndpointsOverV2,
  endpointUpdateToV2,
  flashbootFromV2,
  flashbootToV2,
} from "./management/neutral/over-v2/endpoints";
export { GPU_CATALOG_TTL_MS, GpuCatalogCache } from "./management/neutral/over-v2/gpu-catalog-cache";
export { neutralField } from "./management/neutral/over-v2/neutral-fields";
export {
  templateCreateToV2,
  templateFromV2,
  NeutralTemplatesOverV2,
  templateUpdateToV2,
} from "./management/neutral/over-v2/templates";
export {
  NeutralContainerRegistryAuthsOverV2,
  registryAuthCreateToV2,
  registryAuthFromV2,
} from "./management/neutral/over-v2/registry-auths";
export type { ServerSentEvent } from "./event-stream";
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
  NeutralBillingOverV2,
  endpointBillingFromV2,
  podBillingFromV2,
  volumeBillingFromV2,
} from "./management/neutral/over-v2/billing";
export {
  checkV2Body,
  desiredStatusFromV2,
  podCreateToV2,
  podFromV2,
  podUpdateToV2,
  v1FieldName,
} from "./management/neutral/over-v2/pod-translation";
export { NeutralPodsOverV2, podMatchesFilters } from "./management/neutral/over-v2/pods";
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

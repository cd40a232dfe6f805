/**
 * `runpod-iac/sdk`: what a program constructs, calls, catches or validates with. The client
 * (`RunpodClient`, and `VolumeS3Client` for volumes' files), its errors, the schemas of the
 * records and inputs it takes and answers, waiting for a rollout, the configuration constants and
 * the platform's tables. The classes reached through the client (`client.v1.*`, `client.v2.*`,
 * the version-neutral operations, `client.jobs(id)`) are exported as types only, so a program can
 * name them without constructing them. Everything else (the translation between the
 * version-neutral records and v2's wire, the retry policy, the rate-limit header parsers, the
 * validation helpers, the schemas the client parses answers with) is sdk/internal.ts, which
 * package.json's `exports` does not reach.
 */

// The client.
export { RunpodClient } from "./client";
export type { CallOptions, Transport, TransportRequest } from "./transport";
export type { ServerSentEvent } from "./event-stream";
// Network volumes' S3-compatible API (the volume-sync library behind it is internal).
export { VolumeS3Client } from "./s3/volume-s3-client";
export type { VolumeObject, VolumeUpload } from "./s3/volume-s3-client";
export type { VolumeRef } from "./s3/s3-connections";
export type { PutOptions, PutResult } from "./s3/file-upload";
export type { VolumeS3ClientOptions } from "./s3/s3-settings";

// The job API of an endpoint (`client.jobs(id)`) and its options.
export type {
  EndpointJobs,
  OpenAiFetchOptions,
  PollOptions,
  RunSyncOptions,
  StatusOptions,
} from "./jobs/endpoint-jobs";
export type { BatchOutcome, SubmitManyOptions, SubmitProgress } from "./jobs/batch-options";
export type { PacedOperation, RateLimitOverride, RateLimitOverrides } from "./jobs/endpoint-pacers";
export type { BatchInputs } from "./jobs/submit-many";
export type { BatchPageOptions, BatchWaitOptions, EndpointBatches } from "./jobs/endpoint-batches";
export type { AffinityRefusal, PinMode, PinnedFetch, PinnedFetchOptions } from "./jobs/pinned-fetch";
export type { BatchAck, BatchChild, BatchChildPage, BatchListItem, BatchStatus, BatchSummary } from "./schemas/batch";
export type {
  ManagementResource,
  ReadQuery,
  ResourceDescription,
  UpdateMethodOptions,
} from "./management/management-resource";
export type { ListPage, PageOptions, PagesOptions } from "./management/paged-list";
export type { PagedResourceV2 } from "./management/v2/paged-resource";

// The version-neutral API (v1's field names on either version) and its implementation over v2
// (`client.endpoints`, `client.pods`, ...).
export type * from "./management/neutral/api";
export type { NeutralBillingOverV2 } from "./management/neutral/over-v2/billing";
export type { NeutralEndpointsOverV2 } from "./management/neutral/over-v2/endpoints";
export type { NeutralNetworkVolumesOverV2 } from "./management/neutral/over-v2/network-volumes";
export type { NeutralPodsOverV2 } from "./management/neutral/over-v2/pods";
export type { NeutralContainerRegistryAuthsOverV2 } from "./management/neutral/over-v2/registry-auths";
export type { NeutralTemplatesOverV2 } from "./management/neutral/over-v2/templates";

// Management API v1's own operations (`client.v1`).
export type { ManagementV1 } from "./management/v1/management-v1";
export type { BillingV1 } from "./management/v1/billing";
export type { ContainerRegistryAuthsV1 } from "./management/v1/container-registry-auths";
export type { EndpointReadOptions, EndpointsV1, EndpointUpdateOptions } from "./management/v1/endpoints";
export type { NetworkVolumesV1, VolumeUpdateOptions } from "./management/v1/network-volumes";
export type { PodsV1 } from "./management/v1/pods";
export type { TemplateReadOptions, TemplatesV1, TemplateUpdateOptions } from "./management/v1/templates";

// Management API v2's own operations (`client.v2`).
export type { ManagementV2 } from "./management/v2/management-v2";
export type { AccountV2, SshKeysV2 } from "./management/v2/account";
export type { SecretsV2 } from "./management/v2/secrets";
export type {
  BillingV2,
  ClusterBillingQueryV2,
  NetworkVolumeBillingQueryV2,
  PodBillingQueryV2,
  ServerlessBillingQueryV2,
} from "./management/v2/billing";
export type {
  CatalogV2,
  CpuCatalogOptions,
  DataCenterCatalogOptions,
  GpuCatalogOptions,
  TemplateCatalogOptions,
} from "./management/v2/catalog";
export type { ClustersV2 } from "./management/v2/clusters";
export type { NetworkVolumesV2 } from "./management/v2/network-volumes";
export type { PodListOptionsV2, PodLogOptions, PodsV2 } from "./management/v2/pods";
export type { EcrDelegationsV2, RegistriesV2 } from "./management/v2/registries";
export type { ServerlessV2, WorkerLogOptions } from "./management/v2/serverless";
export type { TemplatesV2 } from "./management/v2/templates";

// Configuration and errors.
export { API_VERSIONS, DEFAULT_API_URL, DEFAULT_QUEUE_URL, V1_API_URL } from "./config";
export type { ApiVersion, ResolvedClientConfig, RunpodClientOptions } from "./config";
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExhaustedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  RunpodError,
  TimeoutError,
  UnsupportedOperationError,
} from "./errors";
export type { ForbiddenError, ProblemDetails, RequestInfo, RunpodErrorCode } from "./errors";
export { S3Error } from "./s3/s3-errors";
export type { S3RequestInfo } from "./s3/s3-errors";

// Waiting for an endpoint to serve its new configuration (what `pulumi up` waits for).
export { readRollout, type RolloutSnapshot } from "./rollout/rollout-snapshot";
export { RolloutFailedError, waitForRollout, type WaitForRolloutOptions } from "./rollout/wait-for-rollout";

// The schemas of the records and inputs of the version-neutral API (the same zod schemas as the
// emulator and the provider use), and the types of the rest.
export { EndpointCreateInputSchema, EndpointSchema, EndpointUpdateInputSchema } from "./schemas/endpoint";
export type { Endpoint, EndpointCreateInput, EndpointUpdateInput, FlashbootSetting } from "./schemas/endpoint";
export { TemplateCreateInputSchema, TemplateSchema, TemplateUpdateInputSchema } from "./schemas/template";
export type { Template, TemplateCreateInput, TemplateUpdateInput } from "./schemas/template";
export {
  NetworkVolumeCreateInputSchema,
  NetworkVolumeSchema,
  NetworkVolumeUpdateInputSchema,
} from "./schemas/network-volume";
export type { NetworkVolume, NetworkVolumeCreateInput, NetworkVolumeUpdateInput } from "./schemas/network-volume";
export { PodCreateInputSchema, PodSchema, PodUpdateInPlaceInputSchema, PodUpdateInputSchema } from "./schemas/pod";
export type { PlacementPriority, Pod, PodCreateInput, PodUpdateInPlaceInput, PodUpdateInput } from "./schemas/pod";
export { ContainerRegistryAuthCreateInputSchema, ContainerRegistryAuthSchema } from "./schemas/container-registry-auth";
export type { ContainerRegistryAuth, ContainerRegistryAuthCreateInput } from "./schemas/container-registry-auth";
export { JobRecordSchema, JobRequestSchema } from "./schemas/job";
export type {
  Health,
  JobAck,
  JobPolicy,
  JobRecord,
  JobRequest,
  JobStatus,
  PurgeResult,
  RecentRequest,
  RecentRequests,
  S3Config,
  StreamChunk,
} from "./schemas/job";
export type {
  BillingBucketSize,
  BillingRecord,
  EndpointBillingQuery,
  NetworkVolumeBillingQuery,
  NetworkVolumeBillingRecord,
  PodBillingQuery,
} from "./schemas/billing";
export type { ImageReference, ImageReferenceParse } from "./schemas/image-reference";
export type { FieldProblem } from "./schemas/validation";
/** The management API v2 wire schemas and types (`V2.NetworkVolumeSchema`, `V2.NetworkVolume`, ...). */
export * as V2 from "./schemas/v2";

// The platform's tables: bounds, defaults, this release's catalog, and the value types.
export { LIMITS } from "./schemas/limits";
export { ENDPOINT_DEFAULTS_BY_VERSION } from "./schemas/endpoint-defaults";
export type { EndpointDefaults } from "./schemas/endpoint-defaults";
export { CPU_CATALOG, DATA_CENTER_CATALOG, GPU_CATALOG } from "./schemas/platform-catalog";
export type { CpuCatalogEntry, DataCenterCatalogEntry, GpuCatalogEntry } from "./schemas/platform-catalog";
export type {
  ClusterType,
  ComputeType,
  CpuFlavorId,
  CudaVersion,
  DataCenterId,
  EndpointType,
  FlashBootMode,
  GpuPoolId,
  GpuTypeId,
  KnownClusterType,
  KnownCpuFlavorId,
  KnownCudaVersion,
  KnownDataCenterId,
  KnownGpuPoolId,
  KnownGpuTypeId,
  KnownNetworkVolumeType,
  NetworkVolumeType,
  PodCpuFlavorId,
  ScalerType,
  TemplateCategory,
} from "./schemas/platform-enums";
export type { RateLimit, RateLimitedOperation } from "./schemas/rate-limits";
export type { AdditionalPlatformValues, PlatformValueKind } from "./schemas/known-values";
export type { VersionOnlyField } from "./schemas/api-version-fields";

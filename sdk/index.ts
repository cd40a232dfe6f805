/**
 * `runpod-iac/sdk`: what programs call. The client and the classes reached through it, its
 * errors, the platform's schemas, types and tables, the configuration and the option types.
 * How the client is built (the translation between the version-neutral records and v2's wire,
 * the retry policy, the rate-limit header parsers, validation helpers) is not part of it: that is
 * sdk/internal.ts, which package.json's `exports` does not reach.
 */

// The client and the classes reached through it.
export { RunpodClient } from "./client";
export type { CallOptions, Transport, TransportRequest } from "./transport";
export type { ServerSentEvent } from "./event-stream";
export { EndpointJobs } from "./jobs/endpoint-jobs";
// Network volumes' S3-compatible API (the volume-sync library behind it is internal).
export { VolumeS3Client } from "./s3/volume-s3-client";
export type { VolumeObject, VolumeUpload } from "./s3/volume-s3-client";
export type { VolumeRef } from "./s3/s3-connections";
export type { PutOptions, PutResult } from "./s3/file-upload";
export type { VolumeS3ClientOptions } from "./s3/s3-settings";
export { S3Error } from "./s3/s3-errors";
export type { S3RequestInfo } from "./s3/s3-errors";
export type { OpenAiFetchOptions, PollOptions, RunSyncOptions, StatusOptions } from "./jobs/endpoint-jobs";
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

// The version-neutral API (v1's field names on either version) and its implementation over v2.
export type * from "./management/neutral/api";
export { NeutralBillingOverV2 } from "./management/neutral/over-v2/billing";
export { NeutralEndpointsOverV2 } from "./management/neutral/over-v2/endpoints";
export { NeutralNetworkVolumesOverV2 } from "./management/neutral/over-v2/network-volumes";
export { NeutralPodsOverV2 } from "./management/neutral/over-v2/pods";
export { NeutralContainerRegistryAuthsOverV2 } from "./management/neutral/over-v2/registry-auths";
export { NeutralTemplatesOverV2 } from "./management/neutral/over-v2/templates";

// Management API v1's own operations (`client.v1`).
export { ManagementV1 } from "./management/v1/management-v1";
export { BillingV1 } from "./management/v1/billing";
export { ContainerRegistryAuthsV1 } from "./management/v1/container-registry-auths";
export { EndpointsV1 } from "./management/v1/endpoints";
export type { EndpointReadOptions, EndpointUpdateOptions } from "./management/v1/endpoints";
export { NetworkVolumesV1 } from "./management/v1/network-volumes";
export type { VolumeUpdateOptions } from "./management/v1/network-volumes";
export { PodsV1 } from "./management/v1/pods";
export { TemplatesV1 } from "./management/v1/templates";
export type { TemplateReadOptions, TemplateUpdateOptions } from "./management/v1/templates";

// Management API v2's own operations (`client.v2`).
export { ManagementV2 } from "./management/v2/management-v2";
export { AccountV2, SshKeysV2 } from "./management/v2/account";
export { SecretsV2 } from "./management/v2/secrets";
export { BillingV2 } from "./management/v2/billing";
export type {
  ClusterBillingQueryV2,
  NetworkVolumeBillingQueryV2,
  PodBillingQueryV2,
  ServerlessBillingQueryV2,
} from "./management/v2/billing";
export { CatalogV2 } from "./management/v2/catalog";
export type {
  CpuCatalogOptions,
  DataCenterCatalogOptions,
  GpuCatalogOptions,
  TemplateCatalogOptions,
} from "./management/v2/catalog";
export { ClustersV2 } from "./management/v2/clusters";
export { NetworkVolumesV2 } from "./management/v2/network-volumes";
export { PodsV2 } from "./management/v2/pods";
export type { PodListOptionsV2, PodLogOptions } from "./management/v2/pods";
export { EcrDelegationsV2, RegistriesV2 } from "./management/v2/registries";
export { ServerlessV2 } from "./management/v2/serverless";
export type { WorkerLogOptions } from "./management/v2/serverless";
export { TemplatesV2 } from "./management/v2/templates";

// Names from before every version-specific class ended in its version.
export * from "./deprecated-names";

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

// The platform's schemas, types and tables (the same zod schemas as the emulator and the provider).
export * from "./schemas/container-registry-auth";
export * from "./schemas/endpoint";
export * from "./schemas/job";
export * from "./schemas/limits";
export { ENDPOINT_DEFAULTS, ENDPOINT_DEFAULTS_BY_VERSION } from "./schemas/endpoint-defaults";
export type { EndpointDefaults } from "./schemas/endpoint-defaults";
export * from "./schemas/platform-enums";
export * from "./schemas/rate-limits";
export * from "./schemas/template";
export { VERSION_ONLY_FIELDS } from "./schemas/api-version-fields";
export type { VersionOnlyField } from "./schemas/api-version-fields";
export {
  BILLING_BUCKET_SIZES,
  BillingRecordListSchema,
  BillingRecordSchema,
  EndpointBillingQuerySchema,
  NetworkVolumeBillingQuerySchema,
  NetworkVolumeBillingRecordListSchema,
  NetworkVolumeBillingRecordSchema,
  PodBillingQuerySchema,
} from "./schemas/billing";
export type {
  BillingBucketSize,
  BillingRecord,
  EndpointBillingQuery,
  NetworkVolumeBillingQuery,
  NetworkVolumeBillingRecord,
  PodBillingQuery,
} from "./schemas/billing";
export { DOCKER_HUB, parseImageReference } from "./schemas/image-reference";
export type { ImageReference, ImageReferenceParse } from "./schemas/image-reference";
export {
  KNOWN_PLATFORM_VALUES,
  PLATFORM_VALUE_FIELDS,
  PLATFORM_VALUE_KINDS,
  PLATFORM_VALUE_LABELS,
  RESOURCE_KNOWN_VALUES,
} from "./schemas/known-values";
export type { AdditionalPlatformValues, PlatformValueKind } from "./schemas/known-values";
export {
  NetworkVolumeCreateInputSchema,
  NetworkVolumeListSchema,
  NetworkVolumeSchema,
  NetworkVolumeUpdateInputSchema,
} from "./schemas/network-volume";
export type { NetworkVolume, NetworkVolumeCreateInput, NetworkVolumeUpdateInput } from "./schemas/network-volume";
export {
  CPU_CATALOG,
  DATA_CENTER_CATALOG,
  GPU_CATALOG,
  HOURS_PER_MONTH,
  INTERRUPTIBLE_PRICE_FACTOR,
  VOLUME_PRICE_PER_GB_MONTH,
} from "./schemas/platform-catalog";
export type { CpuCatalogEntry, DataCenterCatalogEntry, GpuCatalogEntry } from "./schemas/platform-catalog";
export {
  CLOUD_TYPES,
  PLACEMENT_PRIORITIES,
  POD_DEFAULTS,
  POD_DESIRED_STATUSES,
  POD_IN_PLACE_FIELDS,
  POD_NAME_MAX_LENGTH,
  PodCreateInputSchema,
  PodListSchema,
  PodSchema,
  PodUpdateInPlaceInputSchema,
  PodUpdateInputSchema,
} from "./schemas/pod";
export type { PlacementPriority, Pod, PodCreateInput, PodUpdateInPlaceInput, PodUpdateInput } from "./schemas/pod";
export type { FieldProblem } from "./schemas/validation";
/** The management API v2 wire schemas and types (`V2.NetworkVolumeSchema`, `V2.NetworkVolume`, ...). */
export * as V2 from "./schemas/v2";

// Waiting for an endpoint to serve its new configuration (what `pulumi up` waits for).
export { readRollout, type RolloutSnapshot } from "./rollout/rollout-snapshot";
export { judgeRollout, type RolloutJudgement, UNHEALTHY_POLLS_TO_FAIL } from "./rollout/rollout-judgement";
export {
  DEFAULT_ROLLOUT_POLL_MS,
  RolloutFailedError,
  waitForRollout,
  type WaitForRolloutOptions,
} from "./rollout/wait-for-rollout";

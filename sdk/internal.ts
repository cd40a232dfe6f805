/**
 * How the client is built, for the tests: the translation between the version-neutral records
 * and v2's wire, the GPU catalog cache, the retry policy, the rate-limit header parsers, the
 * configuration resolver and the schemas' validation helpers. None of it is public: package.json's
 * `exports` has no path to this module, so a program that installs the package cannot import it,
 * and any of it may change in any release. `runpod-iac/sdk` (sdk/index.ts) is what programs call.
 */

// The version-neutral API over v2: translation to and from v2's wire.
export { endpointBillingFromV2, podBillingFromV2, volumeBillingFromV2 } from "./management/neutral/over-v2/billing";
export {
  endpointCreateToV2,
  endpointFromV2,
  endpointUpdateToV2,
  flashbootFromV2,
  flashbootToV2,
} from "./management/neutral/over-v2/endpoint-translation";
export { GPU_CATALOG_TTL_MS, GpuCatalogCache } from "./management/neutral/over-v2/gpu-catalog-cache";
export { volumeCreateToV2, volumeFromV2 } from "./management/neutral/over-v2/network-volumes";
export { neutralField } from "./management/neutral/over-v2/neutral-fields";
export {
  checkV2Body,
  desiredStatusFromV2,
  podCreateToV2,
  podFromV2,
  podUpdateToV2,
  v1FieldName,
} from "./management/neutral/over-v2/pod-translation";
export { podMatchesFilters } from "./management/neutral/over-v2/pods";
export { registryAuthCreateToV2, registryAuthFromV2 } from "./management/neutral/over-v2/registry-auths";
export { templateCreateToV2, templateFromV2, templateUpdateToV2 } from "./management/neutral/over-v2/templates";
export {
  allPools,
  type GpuPoolEntry,
  gpuTypesToPools,
  type PoolMapping,
  poolsToGpuTypes,
  type PoolSelection,
} from "./schemas/gpu-pools";
export { argsFromWords, wordsFromArgs } from "./schemas/container-args";
export { argsToStartCommand, startCommandToArgs } from "./schemas/pod";

// v1's request bodies and queries.
export { billingQuery } from "./management/v1/billing";
export { endpointBodyV1 } from "./management/v1/endpoints";

// The transport: configuration, error codes, retries and rate-limit headers.
export { apiVersionOf, requireApiKey, resolveClientConfig } from "./config";
export { apiErrorCode } from "./errors";
export {
  type AttemptOutcome,
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  type RetryDecision,
  retryDecision,
  type RetryLimits,
  type RetryState,
} from "./retry-policy";
export {
  parseRateLimit,
  parseRateLimitPolicy,
  type QuotaPolicyWindow,
  type QuotaReading,
} from "./rate-limit/rate-limit-headers";

// Validation helpers behind the schemas and the resources' checks.
export { versionFieldProblems } from "./schemas/api-version-fields";
export { workersInOrder, workersOrderRule } from "./schemas/endpoint-defaults";
export { type InputBound, VERSION_BOUNDS, type VersionBounds, versionBoundProblems } from "./schemas/version-bounds";
export { dateTime } from "./schemas/billing";
export { repositoryUnder } from "./schemas/image-reference";
export {
  knownValueSet,
  nearKnownValues,
  nearValues,
  suggestionText,
  type UnknownPlatformValue,
  unknownPlatformValues,
} from "./schemas/known-values";
export { volumeSizeChangeProblem } from "./schemas/network-volume";
export { gpuCatalogEntry, serverlessPools } from "./schemas/platform-catalog";
export { cudaVersion, distinctList, platformId } from "./schemas/platform-values";
export { describeProblems, fieldProblems, renderValue } from "./schemas/validation";

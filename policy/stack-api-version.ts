import { type ApiVersion, apiVersionOf, DEFAULT_API_URL } from "../sdk/config";
import { ENDPOINT_DEFAULTS_BY_VERSION, type EndpointDefaults } from "../sdk/schemas/endpoint-defaults";
import { formatSetting } from "./format";

/*
 * Which management API version the checked stack's resources talk, decided as the provider
 * decides it: the stack config's API URL (`runpod:apiUrl` for the dynamic resources,
 * `runpod-iac:apiUrl` for the plugin's), then `RUNPOD_API_URL`, then v2. The engine passes the stack
 * config to a policy pack's process as the JSON of `PULUMI_CONFIG`; only the two URL keys are read
 * from it (it holds the stack's secrets too). Rules that fill in a platform default read that
 * version's (`ENDPOINT_DEFAULTS_BY_VERSION`): an endpoint left without `idleTimeout` idles 5 s on v1
 * and 10 s on v2.
 */

/** The stack config keys of the management API URL: the dynamic resources', then the plugin's. */
const URL_KEYS = ["runpod:apiUrl", "runpod-iac:apiUrl"] as const;

/** The API URL of the stack config the engine passed (`PULUMI_CONFIG`), if one is set. */
function configuredUrl(config: string | undefined): string | undefined {
  if (!config) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(config);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object") return undefined;
  for (const key of URL_KEYS) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/**
 * The management API version the stack's config (`PULUMI_CONFIG`) or `RUNPOD_API_URL` names, or
 * undefined when neither names one: then the stack talks the default, v2 ({@link versionOf}). A
 * URL that names no version is the provider's preview error, and the default here.
 */
export function stackApiVersion(env: NodeJS.ProcessEnv = process.env): ApiVersion | undefined {
  const url = configuredUrl(env.PULUMI_CONFIG) ?? env.RUNPOD_API_URL?.trim();
  if (!url) return undefined;
  try {
    return apiVersionOf(url.replace(/\/+$/, ""));
  } catch {
    return undefined;
  }
}

/** What a rule knows of the stack's version: none in a rule called without a stack (then v2, the default). */
export interface ApiVersionContext {
  readonly apiVersion?: ApiVersion | undefined;
}

/** The version of `context`'s stack (v2 when not known). */
export function versionOf(context: ApiVersionContext): ApiVersion {
  return context.apiVersion ?? apiVersionOf(DEFAULT_API_URL);
}

/** The endpoint defaults the platform applies on the stack's version. */
export function endpointDefaults(context: ApiVersionContext): EndpointDefaults {
  return ENDPOINT_DEFAULTS_BY_VERSION[versionOf(context)];
}

/**
 * An endpoint setting that may be unset, shown with the default the stack's version applies:
 * `unset (platform default 3)`, naming the version where the two versions' defaults differ
 * (`unset (platform default 10 on management API v2)`).
 */
export function formatEndpointSetting(
  value: unknown,
  field: keyof EndpointDefaults,
  context: ApiVersionContext,
): string {
  const version = versionOf(context);
  const differs = ENDPOINT_DEFAULTS_BY_VERSION.v1[field] !== ENDPOINT_DEFAULTS_BY_VERSION.v2[field];
  return formatSetting(value, ENDPOINT_DEFAULTS_BY_VERSION[version][field], differs ? version : undefined);
}

import { type ApiVersion, apiVersionOf, DEFAULT_API_URL } from "../sdk/config";
import { ENDPOINT_DEFAULTS_BY_VERSION, type EndpointDefaults } from "../sdk/schemas/endpoint-defaults";
import { formatSetting } from "./format";

/*
 * Which management API version the checked stack's resources talk, for the rules that fill in a
 * platform default (`ENDPOINT_DEFAULTS_BY_VERSION`: an endpoint left without `idleTimeout` idles
 * 5 s on v1 and 10 s on v2) or judge a range the versions state differently. The pack does not see
 * the stack's config (the engine's `ConfigureStack` call gives @pulumi/policy the stack's tags
 * only, and the CLI starts a Node.js pack without `PULUMI_CONFIG`), so it reads `RUNPOD_API_URL`
 * from the environment `pulumi preview` runs in, as the provider does after `runpod:apiUrl`; without
 * it, it takes v2, the provider's default, and a message showing a default the two versions differ
 * on names the version it took.
 */

/**
 * The management API version `RUNPOD_API_URL` names, or undefined when it is unset or names none:
 * then the stack is taken to talk the default, v2 ({@link versionOf}). A URL that names no version
 * is the provider's preview error.
 */
export function stackApiVersion(env: NodeJS.ProcessEnv = process.env): ApiVersion | undefined {
  const url = env.RUNPOD_API_URL?.trim();
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

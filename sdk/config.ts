import { ConfigurationError } from "./errors";
import { DEFAULT_S3_URL } from "./schemas/volume-files";

/**
 * Default management API base (docs/configuration.md): v2, since the platform retired v1 on 2026-11-15
 * (`https://rest.runpod.io/v1`, {@link V1_API_URL}, still selects v1).
 */
export const DEFAULT_API_URL = "https://api.runpod.io/v2";
/** The platform's management API v1 base, for accounts and tools that still use it. */
export const V1_API_URL = "https://rest.runpod.io/v1";

/**
 * A version of the management API. The base URL's last path segment selects it (`.../v1`,
 * `.../v2`); the job API (`queueUrl`) is the same for both.
 */
export type ApiVersion = "v1" | "v2";

/** The management API versions this client speaks, oldest first. */
export const API_VERSIONS: readonly ApiVersion[] = ["v1", "v2"];
/** Default job API base (docs/configuration.md). */
export const DEFAULT_QUEUE_URL = "https://api.runpod.ai/v2";

/** Options of {@link RunpodClient}. Each falls back to an environment variable, then a default. */
export interface RunpodClientOptions {
  /** API key. Default: `RUNPOD_API_KEY`. A missing key is an error at the first request, not here. */
  apiKey?: string | undefined;
  /**
   * Management base URL; its last path segment (`/v1` or `/v2`) selects the API version. Default:
   * `RUNPOD_API_URL`, else `https://api.runpod.io/v2`.
   */
  apiUrl?: string | undefined;
  /** Job base URL ending in `/v2`. Default: `RUNPOD_QUEUE_URL`, else `https://api.runpod.ai/v2`. */
  queueUrl?: string | undefined;
  /**
   * Per-attempt timeout in ms: the longest wait for the answer's headers, and between pieces of
   * its body. Enforced by undici's timers, whose resolution is about one second. Default 30000.
   */
  timeoutMs?: number | undefined;
  /** Attempts per request, first one included. Default 4 (so up to 3 retries). `1` disables retries. */
  maxAttempts?: number | undefined;
  /** Total time a request may spend across attempts and backoff, in ms. Default 60000. */
  retryBudgetMs?: number | undefined;
  /** First backoff step in ms; later steps double, with full jitter. Default 250. */
  retryBaseDelayMs?: number | undefined;
  /** Largest backoff step (and largest honoured `Retry-After`) in ms. Default 20000. */
  retryMaxDelayMs?: number | undefined;
  /** Keep-alive connections per origin. Default 64. */
  connections?: number | undefined;
  /**
   * Source of the retry jitter, uniform in [0, 1). Default `Math.random`; pass a seeded generator
   * to make a run's retry delays replayable.
   */
  random?: (() => number) | undefined;
  /**
   * Pace management requests on API v2 by the account's rate limit (the `RateLimit` headers of
   * every answer), so a burst waits for a window to reset instead of running into 429s. Default
   * true; `false` sends at once and relies on retrying 429s.
   */
  pacing?: boolean | undefined;
  /**
   * The access key id of an S3 API key, for network volumes' S3-compatible API (made in the
   * console under Settings, S3 API Keys; it is your user id, `user_...`). Default:
   * `RUNPOD_S3_ACCESS_KEY_ID`.
   */
  s3AccessKeyId?: string | undefined;
  /**
   * The secret of that S3 API key (`rps_...`, shown once when the key is made; not the RunPod API
   * key). Default: `RUNPOD_S3_SECRET_ACCESS_KEY`.
   */
  s3SecretAccessKey?: string | undefined;
  /**
   * The S3-compatible API's URL, in which `{dc}` stands for a data center id in lower case.
   * Default: `RUNPOD_S3_URL`, else `https://s3api-{dc}.runpod.io`; against the emulator
   * `http://127.0.0.1:8787/s3api-{dc}`.
   */
  s3Url?: string | undefined;
}

/** Options after defaults are applied. */
export interface ResolvedClientConfig {
  apiKey: string | undefined;
  apiUrl: string;
  /** The management API version `apiUrl` names. */
  apiVersion: ApiVersion;
  queueUrl: string;
  timeoutMs: number;
  maxAttempts: number;
  retryBudgetMs: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  connections: number;
  /** Source of the retry jitter, uniform in [0, 1). */
  random: () => number;
  /** Whether management requests on v2 are paced by the account's rate limit. */
  pacing: boolean;
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  /** The S3 URL template when one is set (option or environment); the S3 client defaults it to `https://s3api-{dc}.runpod.io`. */
  s3Url: string | undefined;
}

/** The S3 settings of a client's options: option, then environment (the URL checked, not defaulted). */
export function resolveS3Connection(
  options: Pick<RunpodClientOptions, "s3AccessKeyId" | "s3SecretAccessKey" | "s3Url">,
  env: NodeJS.ProcessEnv = process.env,
  urlName = "s3Url",
): Pick<ResolvedClientConfig, "s3AccessKeyId" | "s3SecretAccessKey" | "s3Url"> {
  const url = nonEmpty(options.s3Url) ?? nonEmpty(env.RUNPOD_S3_URL);
  return {
    s3AccessKeyId: nonEmpty(options.s3AccessKeyId) ?? nonEmpty(env.RUNPOD_S3_ACCESS_KEY_ID),
    s3SecretAccessKey: nonEmpty(options.s3SecretAccessKey) ?? nonEmpty(env.RUNPOD_S3_SECRET_ACCESS_KEY),
    s3Url: url === undefined ? undefined : s3UrlTemplate(url, nonEmpty(options.s3Url) ? urlName : "RUNPOD_S3_URL"),
  };
}

/** An S3 URL template checked: http(s), no credentials in it; `{dc}` may appear anywhere. */
function s3UrlTemplate(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value.replaceAll("{dc}", "dc"));
  } catch {
    throw new ConfigurationError(`${name} = ${JSON.stringify(value)} is not a valid URL (e.g. ${DEFAULT_S3_URL})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`${name} = ${JSON.stringify(value)} must be an http(s) URL`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`${name} must not carry credentials; set the S3 access key id and secret instead`);
  }
  return value.replace(/\/+$/, "");
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v.trim() : undefined;
}

function baseUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${name} = ${JSON.stringify(value)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`${name} = ${JSON.stringify(value)} must be an http(s) URL`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`${name} must not carry credentials; use apiKey`);
  }
  return value.replace(/\/+$/, "");
}

/**
 * The management API version a base URL names: its last path segment, `v1` or `v2`
 * (`https://api.runpod.io/v2`, `http://127.0.0.1:8787/v1`). Anything else is a
 * `ConfigurationError` naming the URL and the rule.
 */
export function apiVersionOf(apiUrl: string, name = "apiUrl"): ApiVersion {
  const segment = new URL(apiUrl).pathname.replace(/\/+$/, "").split("/").pop();
  if (segment === "v1" || segment === "v2") return segment;
  throw new ConfigurationError(
    `${name} = ${JSON.stringify(apiUrl)} must end in /v1 or /v2, the management API version (default ${DEFAULT_API_URL})`,
  );
}

/** Resolves options: explicit option, then environment, then the defaults above. */
export function resolveClientConfig(
  options: RunpodClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedClientConfig {
  const apiUrl = baseUrl(nonEmpty(options.apiUrl) ?? nonEmpty(env.RUNPOD_API_URL) ?? DEFAULT_API_URL, "apiUrl");
  return {
    apiKey: nonEmpty(options.apiKey) ?? nonEmpty(env.RUNPOD_API_KEY),
    apiUrl,
    apiVersion: apiVersionOf(apiUrl),
    queueUrl: baseUrl(nonEmpty(options.queueUrl) ?? nonEmpty(env.RUNPOD_QUEUE_URL) ?? DEFAULT_QUEUE_URL, "queueUrl"),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxAttempts: Math.max(1, options.maxAttempts ?? 4),
    retryBudgetMs: options.retryBudgetMs ?? 60_000,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
    retryMaxDelayMs: options.retryMaxDelayMs ?? 20_000,
    connections: options.connections ?? 64,
    random: options.random ?? Math.random,
    pacing: options.pacing ?? true,
    ...resolveS3Connection(options, env),
  };
}

/**
 * The error of a missing API key, naming every place it can come from. A client's caller may pass
 * `{ apiKey }`; a Pulumi provider reads its stack config key (`runpod:apiKey` for the dynamic
 * resources, `runpod-iac:apiKey` for the provider plugin, `stackConfigKey`), which is all its user
 * can set, so a provider's message names only that key and the environment variable.
 */
export function missingApiKeyError(stackConfigKey = "runpod:apiKey", fromProvider = false): ConfigurationError {
  const client = fromProvider ? "" : "pass { apiKey } to the client, ";
  return new ConfigurationError(
    `No RunPod API key: ${client}set the stack config \`${stackConfigKey}\` (as a secret), or set RUNPOD_API_KEY`,
  );
}

/** The key, or a clear error naming every place it can come from. */
export function requireApiKey(config: ResolvedClientConfig): string {
  if (config.apiKey) return config.apiKey;
  throw missingApiKeyError();
}

import { ConfigurationError } from "./errors";

/** Default management API base (DESIGN.md). */
export const DEFAULT_API_URL = "https://rest.runpod.io/v1";
/** Default job API base (DESIGN.md). */
export const DEFAULT_QUEUE_URL = "https://api.runpod.ai/v2";

/** Options of {@link RunpodClient}. Each falls back to an environment variable, then a default. */
export interface RunpodClientOptions {
  /** API key. Default: `RUNPOD_API_KEY`. A missing key is an error at the first request, not here. */
  apiKey?: string | undefined;
  /** Management base URL ending in `/v1`. Default: `RUNPOD_API_URL`, else `https://rest.runpod.io/v1`. */
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
}

/** Options after defaults are applied. */
export interface ResolvedClientConfig {
  apiKey: string | undefined;
  apiUrl: string;
  queueUrl: string;
  timeoutMs: number;
  maxAttempts: number;
  retryBudgetMs: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  connections: number;
  /** Source of the retry jitter, uniform in [0, 1). */
  random: () => number;
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

/** Resolves options: explicit option, then environment, then DESIGN.md's defaults. */
export function resolveClientConfig(
  options: RunpodClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedClientConfig {
  return {
    apiKey: nonEmpty(options.apiKey) ?? nonEmpty(env.RUNPOD_API_KEY),
    apiUrl: baseUrl(nonEmpty(options.apiUrl) ?? nonEmpty(env.RUNPOD_API_URL) ?? DEFAULT_API_URL, "apiUrl"),
    queueUrl: baseUrl(nonEmpty(options.queueUrl) ?? nonEmpty(env.RUNPOD_QUEUE_URL) ?? DEFAULT_QUEUE_URL, "queueUrl"),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxAttempts: Math.max(1, options.maxAttempts ?? 4),
    retryBudgetMs: options.retryBudgetMs ?? 60_000,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
    retryMaxDelayMs: options.retryMaxDelayMs ?? 20_000,
    connections: options.connections ?? 64,
    random: options.random ?? Math.random,
  };
}

/** The key, or a clear error naming every place it can come from. */
export function requireApiKey(config: ResolvedClientConfig): string {
  if (config.apiKey) return config.apiKey;
  throw new ConfigurationError(
    "No RunPod API key: pass { apiKey } to the client, set the stack config `runpod:apiKey` (as a secret), or set RUNPOD_API_KEY",
  );
}

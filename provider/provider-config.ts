import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import {
  type ApiVersion,
  apiVersionOf,
  DEFAULT_API_URL,
  missingApiKeyError,
  type RunpodClientOptions,
} from "../sdk/config";
import { isSeed, seededRandom } from "../sdk/seeded-random";
import {
  requireS3Credentials,
  type ResolvedS3Settings,
  resolveS3Settings,
  type S3SettingNames,
} from "../sdk/s3/s3-settings";
import { VolumeS3Client } from "../sdk/s3/volume-s3-client";
import { forgetListings } from "./listings";

/**
 * Where the provider's credentials and addresses come from, in this order (docs/configuration.md):
 * stack config `runpod:apiKey` (secret), `runpod:apiUrl`, `runpod:queueUrl`; then `RUNPOD_API_KEY`,
 * `RUNPOD_API_URL`, `RUNPOD_QUEUE_URL`; then the client's defaults. Read at run time in the
 * provider process only: nothing here is ever an input, an output or part of the serialized
 * provider.
 */
export interface ConfigSource {
  get(key: string): string | undefined;
}

let configured: RunpodClientOptions = {};
/**
 * The namespace of the stack config keys the configuration came from, for messages that name
 * them: `runpod` for the dynamic resources; the provider plugin reads `runpod-iac:*`.
 */
let configNamespace = "runpod";
/**
 * Clients by configuration. The engine calls `configure` once per serialized provider (one per
 * resource type), possibly while another resource's create is mid-request, so a client is never
 * closed or replaced under a caller; an identical configuration reuses the same client.
 */
const clients = new Map<string, Promise<RunpodClient>>();

/** The stack config key of setting `key` (`runpod:apiUrl`, or the plugin's `runpod-iac:apiUrl`), for messages. */
export function configSettingName(key: string): string {
  return `${configNamespace}:${key}`;
}

/** Makes messages name the provider plugin's config keys (`runpod-iac:*`): called by the plugin's process. */
export function useConfigNamespace(namespace: string): void {
  configNamespace = namespace;
}

/** Records the stack config handed to the dynamic provider's `configure`. */
export function configureFromStack(config: ConfigSource | undefined): void {
  configure(optionsFromStack(config));
}

/**
 * The client options of a stack config: `runpod:apiKey`, `runpod:apiUrl`, `runpod:queueUrl`, and
 * the volumes' S3 settings `runpod:s3AccessKeyId`, `runpod:s3SecretAccessKey` (secret),
 * `runpod:s3Url`; a key not set is left to the client, which reads the environment, then its
 * defaults. What the provider records at `configure`, and what the catalog functions read in the
 * program's process.
 */
export function optionsFromStack(config: ConfigSource | undefined): RunpodClientOptions {
  const read = (key: string) => {
    const v = config?.get(`runpod:${key}`);
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  return {
    apiKey: read("apiKey"),
    apiUrl: read("apiUrl"),
    queueUrl: read("queueUrl"),
    s3AccessKeyId: read("s3AccessKeyId"),
    s3SecretAccessKey: read("s3SecretAccessKey"),
    s3Url: read("s3Url"),
  };
}

/** `configure` of every provider object: the engine hands each one the stack config once per process. */
export async function configureProvider(req: ConfigureRequest): Promise<void> {
  configureFromStack(req.config);
}

/**
 * The management API version the provider talks: the last path segment of the configured URL
 * (`runpod:apiUrl`, then `RUNPOD_API_URL`, then the default, v2). Read by `check` at preview,
 * without building a client or sending anything; a URL that names no version is a
 * `ConfigurationError` naming it.
 */
export function configuredApiVersion(): ApiVersion {
  const url = configured.apiUrl ?? (process.env.RUNPOD_API_URL?.trim() || DEFAULT_API_URL);
  return apiVersionOf(url.replace(/\/+$/, ""), configured.apiUrl ? configSettingName("apiUrl") : "RUNPOD_API_URL");
}

/** Overrides the configuration directly (tests and in-process use). */
export function configureDirect(options: RunpodClientOptions): void {
  configure({ ...options });
}

/**
 * Takes `next` as the configuration. A different one forgets every listing (listings.ts): they
 * were taken with the previous key and URL, maybe of another account. The engine configures each
 * resource type's provider with the same stack config, which keeps them.
 */
function configure(next: RunpodClientOptions): void {
  if (JSON.stringify(next) !== JSON.stringify(configured)) forgetListings();
  configured = next;
}

/**
 * The retry jitter's source: seeded by `RUNPOD_RETRY_SEED` (a whole number), so a test run of the
 * engine can replay its retry delays (docs/reliability.md, "Seeds and replay"); `Math.random`
 * otherwise. Not a secret, not state.
 */
function retryRandom(): (() => number) | undefined {
  const raw = process.env.RUNPOD_RETRY_SEED;
  const seed = raw === undefined || raw === "" ? undefined : Number(raw);
  return isSeed(seed) ? seededRandom(seed) : undefined;
}

/**
 * How long one request of the provider may take, waits included: 15 minutes. Most of it is for
 * v2's per-user quota (60 requests a minute by default): a `pulumi up` or `destroy` that changes
 * many resources at once queues their requests in the client's pacer, and the k-th waits about
 * k / 60 minutes for its turn, so 500 changes need about 8.5 minutes and 15 minutes covers about
 * 900. A request whose turn would come later (a spent hour window, say) fails at once, unsent,
 * naming the window. Failed attempts stay bounded by `maxAttempts` (6), whatever the budget.
 */
export const PROVIDER_RETRY_BUDGET_MS = 15 * 60_000;

/**
 * The process-wide client, built on first use from stack config, then the environment (`source`:
 * the configuration `configure` recorded, unless the caller read its own with {@link optionsFromStack}).
 * Without an API key in either, a `ConfigurationError` naming the stack config key of the provider
 * asking (`runpod:apiKey`, or the plugin's `runpod-iac:apiKey`) and `RUNPOD_API_KEY`: the client's
 * own message names `runpod:apiKey`, which a plugin's user setting it would find ignored.
 */
export function providerClient(source: RunpodClientOptions = configured): Promise<RunpodClient> {
  if (!(source.apiKey?.trim() || process.env.RUNPOD_API_KEY?.trim())) {
    return Promise.reject(missingApiKeyError(configSettingName("apiKey"), true));
  }
  const key = JSON.stringify(source);
  let client = clients.get(key);
  if (!client) {
    const options: RunpodClientOptions = {
      ...source,
      // A `pulumi up` should ride out a bad minute of the platform, but every wait stays bounded
      // (customTimeouts do not apply to dynamic resources). The budget is also how long a request
      // may wait its turn under v2's quota (PROVIDER_RETRY_BUDGET_MS).
      maxAttempts: source.maxAttempts ?? 6,
      retryBudgetMs: source.retryBudgetMs ?? PROVIDER_RETRY_BUDGET_MS,
      random: source.random ?? retryRandom(),
    };
    // Loaded on first use, not at the top: `check` and `diff` (all a preview runs) never need it.
    client = import("../sdk/client.js").then(({ RunpodClient }) => new RunpodClient(options));
    clients.set(key, client);
  }
  return client;
}

/** The S3 settings as the provider's users set them: its stack config keys (`runpod:s3AccessKeyId`, or the plugin's). */
export function providerS3SettingNames(): S3SettingNames {
  return {
    accessKeyId: `the stack config \`${configSettingName("s3AccessKeyId")}\``,
    secretAccessKey: `the stack config \`${configSettingName("s3SecretAccessKey")}\``,
    url: configSettingName("s3Url"),
  };
}

/**
 * The volumes' S3 settings (stack config, then `RUNPOD_S3_ACCESS_KEY_ID`,
 * `RUNPOD_S3_SECRET_ACCESS_KEY`, `RUNPOD_S3_URL`, then the defaults), with the credentials
 * required: a `ConfigurationError` names each missing setting and its environment variable, never
 * a value. What a resource that writes volume files checks at preview, sending nothing.
 */
export function providerS3Settings(): ResolvedS3Settings {
  const { s3AccessKeyId, s3SecretAccessKey, s3Url } = configured;
  const names = providerS3SettingNames();
  const settings = resolveS3Settings({ s3AccessKeyId, s3SecretAccessKey, s3Url }, process.env, names);
  requireS3Credentials(settings, names);
  return settings;
}

const s3Clients = new Map<string, VolumeS3Client>();

/**
 * The process-wide client of the volumes' S3-compatible API for the recorded configuration
 * ({@link providerS3Settings}'s errors when the credentials are missing), one per configuration.
 */
export function providerS3Client(): VolumeS3Client {
  const settings = providerS3Settings();
  const key = JSON.stringify([settings.accessKeyId, settings.secretAccessKey, settings.url]);
  let client = s3Clients.get(key);
  if (!client) {
    client = new VolumeS3Client({
      s3AccessKeyId: settings.accessKeyId,
      s3SecretAccessKey: settings.secretAccessKey,
      s3Url: settings.url,
      random: retryRandom(),
    });
    s3Clients.set(key, client);
  }
  return client;
}

import { resolveS3Connection, type RunpodClientOptions } from "../config";
import { ConfigurationError } from "../errors";
import { DEFAULT_S3_URL, VOLUME_FILE_LIMITS } from "../schemas/volume-files";

/** Options of {@link VolumeS3Client}. Credentials and URL fall back to the environment, then a default. */
export interface VolumeS3ClientOptions extends Pick<
  RunpodClientOptions,
  "s3AccessKeyId" | "s3SecretAccessKey" | "s3Url"
> {
  /**
   * Files smaller than this go in one PutObject, larger ones multipart. Default `RUNPOD_S3_PUT_LIMIT`
   * (bytes: for an emulator started with a smaller `--s3-put-limit`), else the platform's 500 MB.
   */
  putObjectLimit?: number | undefined;
  /**
   * Size of a multipart part. Default the smaller of 64 MiB and `putObjectLimit`, raised when a
   * file would need more than 10,000 parts; never above the platform's 500 MB.
   */
  partSize?: number | undefined;
  /** Files uploaded at once by a sync (small files gain from many at once; each streams). Default 16. */
  concurrency?: number | undefined;
  /** Parts of one file uploaded at once. Default 4. */
  partConcurrency?: number | undefined;
  /** Attempts per request, the first included (the platform advises 10 for its 502s). Default 10. */
  maxAttempts?: number | undefined;
  /** The longest wait for an answer (or between its pieces), in ms. Default 120000. */
  requestTimeoutMs?: number | undefined;
  /** The same for CompleteMultipartUpload, which the platform may take long over. Default 7200000 (2 hours). */
  completeTimeoutMs?: number | undefined;
  /** First backoff step in ms; later steps double, with full jitter. Default 250. */
  retryBaseDelayMs?: number | undefined;
  /** Largest backoff step in ms. Default 20000. */
  retryMaxDelayMs?: number | undefined;
  /** Source of the retry jitter, uniform in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
}

/** The options after defaults; the credentials may still be missing (an error at the first request). */
export interface ResolvedS3Settings {
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  url: string;
  putObjectLimit: number;
  partSize: number;
  concurrency: number;
  partConcurrency: number;
  maxAttempts: number;
  requestTimeoutMs: number;
  completeTimeoutMs: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  random: () => number;
}

/**
 * Where a setting comes from, for messages: the client's option name, or a provider's stack config
 * key (`runpod:s3AccessKeyId`, the plugin's `runpod-iac:s3AccessKeyId`).
 */
export interface S3SettingNames {
  accessKeyId: string;
  secretAccessKey: string;
  url: string;
}

/** The client's own option names. */
export const CLIENT_S3_SETTING_NAMES: S3SettingNames = {
  accessKeyId: "the client's s3AccessKeyId option",
  secretAccessKey: "the client's s3SecretAccessKey option",
  url: "s3Url",
};

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value > 0)) {
    throw new ConfigurationError(`${name} = ${String(value)}: must be a whole number above 0`);
  }
  return value;
}

/** Resolves options: explicit option, then environment, then the defaults above. */
export function resolveS3Settings(
  options: VolumeS3ClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  names: S3SettingNames = CLIENT_S3_SETTING_NAMES,
): ResolvedS3Settings {
  const fromEnv = env.RUNPOD_S3_PUT_LIMIT?.trim();
  if (options.putObjectLimit === undefined && fromEnv && !/^[1-9]\d*$/.test(fromEnv)) {
    throw new ConfigurationError(
      `RUNPOD_S3_PUT_LIMIT = ${JSON.stringify(fromEnv)}: must be a whole number of bytes above 0`,
    );
  }
  const putObjectLimit = positive(
    "putObjectLimit",
    options.putObjectLimit ?? (fromEnv ? Number(fromEnv) : undefined),
    VOLUME_FILE_LIMITS.putObjectBytes,
  );
  const partSize = positive("partSize", options.partSize, Math.min(64 * 2 ** 20, putObjectLimit));
  if (partSize > VOLUME_FILE_LIMITS.partBytes) {
    throw new ConfigurationError(
      `partSize = ${partSize}: must be at most ${VOLUME_FILE_LIMITS.partBytes} bytes, the platform's largest part`,
    );
  }
  const connection = resolveS3Connection(options, env, names.url);
  const settings: ResolvedS3Settings = {
    accessKeyId: connection.s3AccessKeyId,
    secretAccessKey: undefined,
    url: connection.s3Url ?? DEFAULT_S3_URL,
    putObjectLimit,
    partSize,
    concurrency: positive("concurrency", options.concurrency, 16),
    partConcurrency: positive("partConcurrency", options.partConcurrency, 4),
    maxAttempts: positive("maxAttempts", options.maxAttempts, 10),
    requestTimeoutMs: positive("requestTimeoutMs", options.requestTimeoutMs, 120_000),
    completeTimeoutMs: positive("completeTimeoutMs", options.completeTimeoutMs, 7_200_000),
    retryBaseDelayMs: positive("retryBaseDelayMs", options.retryBaseDelayMs, 250),
    retryMaxDelayMs: positive("retryMaxDelayMs", options.retryMaxDelayMs, 20_000),
    random: options.random ?? Math.random,
  };
  // Kept out of JSON.stringify, console.log and spreads of the settings (and of a client holding them).
  Object.defineProperty(settings, "secretAccessKey", { value: connection.s3SecretAccessKey, enumerable: false });
  return settings;
}

/**
 * The credentials, or a `ConfigurationError` naming each missing setting and where to set it
 * (never a value). An S3 API key is made in the console (Settings, S3 API Keys) and is not the
 * RunPod API key.
 */
export function requireS3Credentials(
  settings: ResolvedS3Settings,
  names: S3SettingNames = CLIENT_S3_SETTING_NAMES,
): { accessKeyId: string; secretAccessKey: string } {
  const missing = [
    ...(settings.accessKeyId ? [] : [`${names.accessKeyId} or RUNPOD_S3_ACCESS_KEY_ID`]),
    ...(settings.secretAccessKey ? [] : [`${names.secretAccessKey} (as a secret) or RUNPOD_S3_SECRET_ACCESS_KEY`]),
  ];
  if (missing.length > 0) {
    throw new ConfigurationError(
      `No S3 API key for the volumes' S3-compatible API: set ${missing.join(", and ")}. An S3 API key is made in the console (Settings, S3 API Keys): the access key id is your user id (user_...), the secret starts with rps_; it is not the RunPod API key`,
    );
  }
  return { accessKeyId: settings.accessKeyId!, secretAccessKey: settings.secretAccessKey! };
}

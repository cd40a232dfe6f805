import { DEFAULT_API_URL, DEFAULT_QUEUE_URL } from "../sdk/config";

/** A configuration key of the plugin (`runpod-iac:<key>`). */
export interface PluginConfigKey {
  /** The environment variable read when the key is not set, as for the dynamic resources. */
  env: string;
  /** Whether the value is a credential (kept secret in config and state). */
  secret?: boolean;
  /** The value when neither the key nor the variable is set. */
  default?: string;
}

/**
 * The plugin's configuration: `runpod-iac:apiKey`, `runpod-iac:apiUrl`, `runpod-iac:queueUrl` and
 * the volumes' S3 settings (`runpod-iac:s3AccessKeyId`, `runpod-iac:s3SecretAccessKey`, `runpod-iac:s3Url`),
 * the same settings as the dynamic resources' `runpod:*` keys, each falling back to the same
 * environment variable and default (`resolveClientConfig` in sdk/config.ts reads them; a test
 * holds the two together). The schema's `config` is generated from it.
 */
export const PLUGIN_CONFIG = {
  apiKey: { env: "RUNPOD_API_KEY", secret: true },
  apiUrl: { env: "RUNPOD_API_URL", default: DEFAULT_API_URL },
  queueUrl: { env: "RUNPOD_QUEUE_URL", default: DEFAULT_QUEUE_URL },
  // Network volumes' S3-compatible API (the URL's default, https://s3api-{dc}.runpod.io, is applied
  // by the S3 client, as for the dynamic resources).
  s3AccessKeyId: { env: "RUNPOD_S3_ACCESS_KEY_ID" },
  s3SecretAccessKey: { env: "RUNPOD_S3_SECRET_ACCESS_KEY", secret: true },
  s3Url: { env: "RUNPOD_S3_URL" },
} as const satisfies Record<string, PluginConfigKey>;

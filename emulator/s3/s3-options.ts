import { VOLUME_FILE_LIMITS } from "../../sdk/schemas/volume-files";

/**
 * The S3 key pair the default account gets when no `--s3-key` is given (documented in
 * docs/emulator.md; use your own outside local tests). On the platform the access key id is the
 * user id (`user_...`) and the secret starts with `rps_`; these follow that shape.
 */
export const DEFAULT_S3_ACCESS_KEY_ID = "user_emulator";
/** The default pair's secret (see {@link DEFAULT_S3_ACCESS_KEY_ID}). */
export const DEFAULT_S3_SECRET_ACCESS_KEY = "rps_emulator_secret";

/** One S3 key of an account: `--s3-key API_KEY=ACCESS_KEY_ID:SECRET`. */
export interface S3KeyOption {
  /** The API key of the account the S3 key belongs to (one of `apiKeys`). */
  apiKey: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The S3-compatible API's options of `startEmulator` (`--s3-key`, `--s3-put-limit`). */
export interface S3EmulatorOptions {
  /**
   * S3 keys per account. Default: the documented pair (access key id `user_emulator`, secret
   * `rps_emulator_secret`: docs/emulator.md, "Volume files") for the first API key's account.
   */
  keys?: readonly S3KeyOption[];
  /** PutObject bodies must be smaller than this many bytes. Default the platform's 500 MB. */
  putObjectLimit?: number;
  /**
   * Where the volumes' files live. Default: `<state file>.volumes` beside the state file, or a
   * temporary directory (removed at close) without one.
   */
  volumesDir?: string;
  /**
   * How far a request's signing time may be from the emulator's time, in ms (the platform: one
   * hour). The emulator's time is the real clock, which clients sign with, not the platform clock.
   */
  maxClockSkewMs?: number;
  /** The real clock, for tests of the skew rule. Default `Date.now`. */
  now?: () => number;
  /**
   * Bytes in one GB of a volume's size, for tests that fill a volume with little data. Default
   * 1,000,000,000 (what the client's plans assume too).
   */
  bytesPerGb?: number;
}

/** The options with their defaults. */
export interface S3Settings {
  keys: readonly S3KeyOption[];
  putObjectLimit: number;
  volumesDir: string | undefined;
  maxClockSkewMs: number;
  now: () => number;
  bytesPerGb: number;
}

const SPEC_RULE = "must be API_KEY=ACCESS_KEY_ID:SECRET, e.g. emulator-key=user_ci:rps_ci_secret";

/**
 * `--s3-key API_KEY=ACCESS_KEY_ID:SECRET` as an option; an error naming the rule when malformed.
 * The message never repeats the secret.
 */
export function parseS3KeySpec(spec: string): S3KeyOption {
  const eq = spec.indexOf("=");
  const colon = spec.indexOf(":", eq + 1);
  const apiKey = eq > 0 ? spec.slice(0, eq).trim() : "";
  const accessKeyId = colon > eq ? spec.slice(eq + 1, colon).trim() : "";
  const secretAccessKey = colon > eq ? spec.slice(colon + 1) : "";
  if (apiKey === "" || accessKeyId === "" || secretAccessKey === "") {
    throw new Error(`--s3-key ${apiKey || "(no API key)"}=...: ${SPEC_RULE}`);
  }
  return { apiKey, accessKeyId, secretAccessKey };
}

/** The settings of `options`, checked against the accounts' API keys; errors never show a secret. */
export function s3Settings(options: S3EmulatorOptions, apiKeys: readonly string[]): S3Settings {
  const keys = options.keys?.length
    ? options.keys
    : [{ apiKey: apiKeys[0]!, accessKeyId: DEFAULT_S3_ACCESS_KEY_ID, secretAccessKey: DEFAULT_S3_SECRET_ACCESS_KEY }];
  const seen = new Set<string>();
  for (const key of keys) {
    if (!apiKeys.includes(key.apiKey)) {
      throw new Error(`s3 key ${key.accessKeyId}: its API key is not one of the emulator's API keys`);
    }
    if (/[\s:]/.test(key.accessKeyId) || key.secretAccessKey === "" || /\s/.test(key.secretAccessKey)) {
      throw new Error(
        `s3 key ${JSON.stringify(key.accessKeyId)}: the id and the secret must be non-empty, without spaces (and the id without ":")`,
      );
    }
    if (seen.has(key.accessKeyId))
      throw new Error(`s3 key ${key.accessKeyId}: given twice; each access key id is one key`);
    seen.add(key.accessKeyId);
  }
  const limit = options.putObjectLimit ?? VOLUME_FILE_LIMITS.putObjectBytes;
  if (!(Number.isInteger(limit) && limit > 0)) {
    throw new Error(`putObjectLimit ${String(limit)}: must be a whole number of bytes above 0`);
  }
  return {
    keys,
    putObjectLimit: limit,
    volumesDir: options.volumesDir,
    maxClockSkewMs: options.maxClockSkewMs ?? 60 * 60_000,
    now: options.now ?? Date.now,
    bytesPerGb: options.bytesPerGb ?? VOLUME_FILE_LIMITS.bytesPerGb,
  };
}

/** `8MiB`, `500MB`, `1048576`: a byte count of the `--s3-put-limit` flag, or undefined when malformed. */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+)\s*(B|KB|MB|GB|KiB|MiB|GiB)?\s*$/.exec(text);
  if (!m) return undefined;
  const unit = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 }[m[2] ?? "B"]!;
  const n = Number(m[1]) * unit;
  return n > 0 && Number.isSafeInteger(n) ? n : undefined;
}

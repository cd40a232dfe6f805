import type { AdditionalValueOptions } from "./platform/platform-options";
import type { EmulatorClock } from "./clock/clock";
import type { FaultRule } from "./faults/fault-rules";
import type { CapacitySettings } from "./capacity/capacity";
import type { QuotaWindow } from "./limits/management-quota";
import type { RateLimitSettings } from "./limits/rate-limiter";
import type { S3EmulatorOptions } from "./s3/s3-options";

/** The API key accepted when none is configured (documented; use your own outside local tests). */
export const DEFAULT_API_KEY = "emulator-key";
/** Default listening port of the CLI and of `startEmulator`. */
export const DEFAULT_PORT = 8787;
/**
 * How long (platform ms) a serverless worker takes to pull its image and boot by default: a
 * cached image's cold start, short enough that a test's first job is not held up long; a real
 * pull of a large image takes minutes (`--worker-boot-ms`, scaled by `--time-scale`).
 */
export const DEFAULT_WORKER_BOOT_MS = 2000;
/** Default listening address: loopback only, so the emulator is not reachable from other machines unless asked. */
export const DEFAULT_HOST = "127.0.0.1";

/** Options of `startEmulator` (the CLI flags map onto them one to one). */
export interface EmulatorOptions {
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; 0 picks a free one. Default 8787. */
  port?: number;
  /** Accepted bearer keys, each its own account. Default `["emulator-key"]`. */
  apiKeys?: readonly string[];
  /**
   * Persist volumes, endpoints, templates, registry auths, pods, clusters, SSH keys and billed
   * usage here (atomic writes; registry passwords only as hashes); jobs are not persisted.
   * Default: none.
   */
  stateFile?: string;
  /** Directory of handler files `NAME.js` / `NAME.mjs` adding templates `NAME`. */
  handlersDir?: string;
  /** One real ms counts as this many platform ms; 0 means a manual clock. Default 1. Ignored with `clock`. */
  timeScale?: number;
  /** A clock to use instead, e.g. `new ManualClock()` for deterministic tests. */
  clock?: EmulatorClock;
  /** The platform's rate limits: `false` turns them off; an object tunes them. Default on, as on the platform. */
  rateLimits?: boolean | Partial<RateLimitSettings>;
  /**
   * Management API v2's per-user quota (`RateLimit` / `RateLimit-Policy` on every authenticated
   * v2 management answer, 429 above it): `false` turns it off; a list of windows replaces the
   * default, the OpenAPI's example policy (60 a minute, 3,000 an hour, 50,000 a day).
   */
  managementQuota?: boolean | readonly QuotaWindow[];
  /** Fault rules every account starts with (runtime changes go through `/_emulator/faults`). */
  faults?: readonly FaultRule[];
  /**
   * Seed of every random choice of fault injection (which request fails, how long its jitter),
   * a whole number in [0, 2^31). Each account draws from its own stream derived from it, restarted
   * when its fault rules are set, so the same requests in the same order meet the same faults.
   * Default: a fresh seed, shown as `RunningEmulator.seed` (and printed by the CLI) for replay.
   */
  seed?: number;
  /**
   * Items per page of management API v2's lists when a request gives no `limit` (1 to 1000).
   * Default 1000, the platform's; a small one makes paging observable without thousands of items.
   */
  pageSize?: number;
  /**
   * How long (platform ms) a new serverless worker is INITIALIZING, pulling its image and booting,
   * before it takes work (`--worker-boot-ms`). Default 2000 (`DEFAULT_WORKER_BOOT_MS`); 0: ready at once.
   */
  workerBootMs?: number;
  /** Log every request (fastify logger). Default false. */
  log?: boolean;
  /** Base URL the emulator advertises in `image_url` (default: the URL it listens on). */
  publicUrl?: string;
  /** Real-time limit of one webhook call, in ms. Default 10000. */
  webhookTimeoutMs?: number;
  /**
   * GPU types the emulated platform sells besides this release's snapshot (`GPU_TYPE_IDS`), e.g. one
   * the real platform added after this release. Default none: an unknown GPU type is a 400.
   */
  additionalGpuTypeIds?: readonly string[];
  /** Data centers besides the snapshot (`DATA_CENTER_IDS`); they join an endpoint's default list too. */
  additionalDataCenterIds?: readonly string[];
  /** CUDA versions besides the snapshot (`CUDA_VERSIONS`), written `major.minor`. */
  additionalCudaVersions?: readonly string[];
  /** CPU flavors besides the snapshot (`CPU_FLAVOR_IDS`). */
  additionalCpuFlavorIds?: readonly string[];
  /**
   * The serverless GPU pool of GPU types, by id (`--gpu-pool ID=POOL`): an added type joins a pool
   * (otherwise serverless cannot rent it), or a known type moves to another one.
   */
  gpuPools?: Readonly<Record<string, string>>;
  /**
   * The machines' stock: GPUs per type and vCPUs per flavor in each data center (`--gpu-stock`,
   * `--cpu-stock`), and the share of GPUs in large machines (`--large-machine-share`). Default:
   * 16 GPUs, a quarter of them in large machines, 512 vCPUs. Pods and clusters take from it.
   */
  capacity?: Partial<CapacitySettings>;
  /**
   * Chance, per platform hour, that a running interruptible pod is preempted (0 to 1), drawn once
   * a platform minute from each account's seeded stream (`--preemption-rate`). Default 0: only
   * `POST /_emulator/pods/{id}/preempt` preempts.
   */
  preemptionRate?: number;
  /**
   * Each data center's S3-compatible API over the volumes' files (`/s3api-<dc>`): S3 keys per
   * account (`--s3-key`), the PutObject limit (`--s3-put-limit`), where the files live.
   */
  s3?: S3EmulatorOptions;
  /**
   * What `/stream` answers: `"object"` (default), `{ status, stream: [...] }` as the official SDKs
   * read it; `"array"`, the bare array of chunks the platform's documentation shows
   * (`--stream-shape`). Clients should read both.
   */
  streamShape?: "object" | "array";
}

// Fails to compile when an option platform-options.ts names is not one of the options above.
type _AdditionalValueOptionsExist = Pick<EmulatorOptions, keyof AdditionalValueOptions>;

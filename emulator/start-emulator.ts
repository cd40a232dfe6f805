import type { AddressInfo } from "node:net";
import path from "node:path";
import { freshSeed, isSeed } from "../sdk/seeded-random";
import { type EmulatorClock, ManualClock, ScaledClock } from "./clock/clock";
import { Scheduler } from "./clock/scheduler";
import { compileFaultRule } from "./faults/fault-rules";
import { loadHandlerFiles, TemplateRegistry } from "./handlers/template-registry";
import { DEFAULT_QUOTA_WINDOWS, ManagementQuota } from "./limits/management-quota";
import { DEFAULT_RATE_LIMIT_SETTINGS, RateLimiter, type RateLimitSettings } from "./limits/rate-limiter";
import { Capacity, DEFAULT_CAPACITY } from "./capacity/capacity";
import { PlatformCatalog } from "./platform/platform-catalog";
import { additionalPlatformValues } from "./platform/platform-options";
import { IMAGE_MODEL_IDS, ImageStore, imageModelTemplate } from "./models/image-model";
import { DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_WORKER_BOOT_MS, type EmulatorOptions } from "./options";
import { registerRouteTrees } from "./api/route-trees";
import { buildServer } from "./server/build-server";
import { ListPager } from "./server/list-pages";
import type { ServerContext } from "./server/server-context";
import { EmulatorStore } from "./store/emulator-store";
import { StateFile } from "./store/state-file";
import { SecretBox } from "./secrets/secret-box";
import { s3Settings } from "./s3/s3-options";
import { S3Service } from "./server/s3-service";
import { VolumeFiles } from "./s3/volume-files";

/** A running emulator. */
export interface RunningEmulator {
  /** Origin, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /**
   * Management base URL of the default API version, v2 (`url + "/v2"`), for `RUNPOD_API_URL`;
   * `apiUrlV1` pins v1.
   */
  apiUrl: string;
  /** Management API v1's base URL, `url + "/v1"`. */
  apiUrlV1: string;
  /** Management API v2's base URL, `url + "/v2"` (the same as `queueUrl`: one base serves both). */
  apiUrlV2: string;
  /** Job operations base URL (`url + "/v2"`), for `RUNPOD_QUEUE_URL`. */
  queueUrl: string;
  /**
   * The S3-compatible API's URL template (`url + "/s3api-{dc}"`), for `RUNPOD_S3_URL`: `{dc}` is
   * a data center id in lower case.
   */
  s3Url: string;
  /** Where the volumes' files are: `<volumesDir>/<user id>/<volume id>/` is one volume. */
  volumesDir: string;
  port: number;
  host: string;
  /** The platform clock (a `ManualClock` when one was passed or `timeScale` was 0). */
  clock: EmulatorClock;
  /** Every deadline of the emulator. */
  scheduler: Scheduler;
  /** Accounts and their state, for tests that look inside. */
  store: EmulatorStore;
  /** Seed of the fault injection's random choices (the one given, or the fresh one picked): replay with `seed`. */
  seed: number;
  /** Known template ids. */
  templates: readonly string[];
  /** Stops listening, stops workers and timers, and waits for the state file. Idempotent. */
  close(): Promise<void>;
}

function rateLimitSettings(option: EmulatorOptions["rateLimits"]): RateLimitSettings {
  if (option === false) return { ...DEFAULT_RATE_LIMIT_SETTINGS, enabled: false };
  if (option === true || option === undefined) return { ...DEFAULT_RATE_LIMIT_SETTINGS };
  return { ...DEFAULT_RATE_LIMIT_SETTINGS, ...option };
}

function workerBootMs(ms: number | undefined): number {
  if (ms === undefined) return DEFAULT_WORKER_BOOT_MS;
  if (!(Number.isFinite(ms) && ms >= 0)) throw new Error(`workerBootMs ${String(ms)}: must be a number of ms >= 0`);
  return ms;
}

function preemptionRate(rate: number | undefined): number {
  if (rate === undefined) return 0;
  if (!(rate >= 0 && rate <= 1)) throw new Error(`preemptionRate ${String(rate)}: must be a number from 0 to 1`);
  return rate;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

function checkKeys(keys: readonly string[]): string[] {
  for (const key of keys) {
    if (typeof key !== "string" || key.length === 0 || /\s/.test(key)) {
      throw new Error("API keys must be non-empty strings without spaces");
    }
  }
  return [...new Set(keys)];
}

/** Starts the emulator's HTTP server in this process (what `npx runpod-iac emulator` runs). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  if (options.seed !== undefined && !isSeed(options.seed)) {
    throw new Error(`seed ${String(options.seed)}: must be a whole number between 0 and 2147483647`);
  }
  const seed = options.seed ?? freshSeed();
  const pages = new ListPager(options.pageSize);
  const apiKeys = checkKeys(options.apiKeys?.length ? options.apiKeys : [DEFAULT_API_KEY]);
  const catalog = new PlatformCatalog(additionalPlatformValues(options), options.gpuPools);
  const capacity = new Capacity({ ...DEFAULT_CAPACITY, ...options.capacity });
  const clock =
    options.clock ?? (options.timeScale === 0 ? new ManualClock() : new ScaledClock(options.timeScale ?? 1));
  const templates = new TemplateRegistry(options.handlersDir ? await loadHandlerFiles(options.handlersDir) : []);
  const faults = (options.faults ?? []).map(compileFaultRule);
  const scheduler = new Scheduler(clock);
  const images = new ImageStore();
  let baseUrl = "";
  const models = new Map(IMAGE_MODEL_IDS.map((id) => [id, imageModelTemplate(id, images, () => baseUrl)]));
  const stateFile = options.stateFile ? path.resolve(options.stateFile) : undefined;
  // Secret values are sealed at rest under a key kept beside the state file, never in it.
  const secretBox = stateFile ? await SecretBox.fromKeyFile(`${stateFile}.key`) : SecretBox.ephemeral();
  const s3 = s3Settings(options.s3 ?? {}, apiKeys);
  // The volumes' bytes live on disk beside the state file (never in it), or in a temporary folder.
  const volumeFiles = await VolumeFiles.open(s3.volumesDir ?? (stateFile ? `${stateFile}.volumes` : undefined));
  const store = new EmulatorStore(
    apiKeys,
    {
      scheduler,
      templates,
      models,
      defaultFaults: faults,
      webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
      workerBootMs: workerBootMs(options.workerBootMs),
      seed,
      capacity,
      catalog,
      secretBox,
      volumeFiles,
    },
    stateFile ? new StateFile(stateFile) : undefined,
  );
  const limiter = new RateLimiter(clock, rateLimitSettings(options.rateLimits));
  const quotaOption = options.managementQuota;
  const quota = new ManagementQuota(clock, {
    enabled: quotaOption !== false,
    windows: Array.isArray(quotaOption) ? quotaOption : DEFAULT_QUOTA_WINDOWS,
  });
  const ctx: ServerContext = {
    store,
    scheduler,
    limiter,
    quota,
    templates,
    images,
    catalog,
    capacity,
    s3: new S3Service(s3, volumeFiles, store),
    preemption: { ratePerHour: preemptionRate(options.preemptionRate), seed },
    pages,
    log: options.log ?? false,
    streamShape: options.streamShape,
    origin: () => baseUrl,
  };
  const app = buildServer(ctx, (server, problems) => registerRouteTrees(server, ctx, problems));
  const host = options.host ?? DEFAULT_HOST;
  try {
    await store.load();
    for (const account of store.accounts.values()) account.vault.assertReadable();
    await volumeFiles.sweep((userId, volumeId) => store.accounts.get(userId)?.networkVolumes.has(volumeId) === true);
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
  } catch (error) {
    store.dispose();
    scheduler.dispose();
    await app.close();
    await volumeFiles.close();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${port}`;
  baseUrl = options.publicUrl?.replace(/\/+$/, "") ?? url;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // Disposing first releases requests waiting on jobs (/runsync, /stream), so close() does not hang.
      store.dispose();
      await app.close();
      scheduler.dispose();
      await store.flush();
      await volumeFiles.close();
    })();
    return closing;
  };
  return {
    url,
    apiUrl: `${url}/v2`,
    apiUrlV1: `${url}/v1`,
    apiUrlV2: `${url}/v2`,
    queueUrl: `${url}/v2`,
    s3Url: `${url}/s3api-{dc}`,
    volumesDir: volumeFiles.root,
    port,
    host,
    clock,
    scheduler,
    store,
    seed,
    templates: templates.ids(),
    close,
  };
}

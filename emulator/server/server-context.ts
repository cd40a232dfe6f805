import type { FastifyInstance } from "fastify";
import type { Capacity } from "../capacity/capacity";
import type { Scheduler } from "../clock/scheduler";
import type { TemplateRegistry } from "../handlers/template-registry";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { ManagementQuota } from "../limits/management-quota";
import type { RateLimiter } from "../limits/rate-limiter";
import type { ImageStore } from "../models/image-model";
import type { PreemptionSettings } from "../pods/preemption";
import type { S3Service } from "./s3-service";
import type { EmulatorStore } from "../store/emulator-store";
import type { ListPager } from "./list-pages";
import "./fastify-types";

/**
 * What every route works on. It lives apart from `build-server.ts` (which imports the routes) so
 * that route files import this module and never the server that wires them: no import circle.
 */
export interface ServerContext {
  store: EmulatorStore;
  scheduler: Scheduler;
  limiter: RateLimiter;
  /** Management API v2's per-user quota. */
  quota: ManagementQuota;
  templates: TemplateRegistry;
  images: ImageStore;
  /** GPU types, data centers, CUDA versions and CPU flavors the emulated platform knows. */
  catalog: PlatformCatalog;
  /** The machines: GPUs and vCPUs per data center, and what of them is in use. */
  capacity: Capacity;
  /** Preemption of interruptible pods by chance (none when absent or at rate 0). */
  preemption?: PreemptionSettings;
  /** Each data center's S3-compatible API over the volumes' files (emulator/s3/). */
  s3: S3Service;
  /** Pages management API v2's lists (`limit`, `cursor`, `pagination`). */
  pages: ListPager;
  /** What `/stream` answers: `{ status, stream }` (default) or the bare array of chunks. */
  streamShape?: "object" | "array";
  /** Log every request (fastify's logger); off by default, the hot path stays quiet. */
  log: boolean;
  /** The origin clients reach the emulator at (`publicUrl`, else the listening address): for addresses in answers. */
  origin(): string;
}

/** A module's routes: `build-server.ts` calls each registrar once, in order. */
export type RegisterRoutes = (app: FastifyInstance, ctx: ServerContext) => void;

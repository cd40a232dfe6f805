import { ENDPOINT_DEFAULTS } from "../../sdk/schemas";
import type { Scheduler } from "../clock/scheduler";
import type { Template } from "../handlers/handler-types";
import type { EndpointRecord } from "../endpoints/endpoint-record";
import type { WebhookSender } from "./webhooks";
import type { ScalingSettings, WorkerBoot } from "./worker-pool";

/*
 * What an endpoint's runtime (endpoint-runtime.ts) is given: its endpoint's settings, which change
 * with the endpoint, and the services every runtime shares.
 */

/** How an endpoint runs jobs: its scaling bounds, default execution timeout and template. */
export interface RuntimeSettings extends ScalingSettings {
  /** Endpoint `executionTimeoutMs`; a job's `policy.executionTimeout` overrides it. */
  executionTimeoutMs: number;
  templateId: string;
  /** The endpoint's own image (set through management v2): its handler runs instead of the template's. */
  image?: string | undefined;
}

/** Shared services of every runtime. */
export interface RuntimeServices {
  scheduler: Scheduler;
  template(id: string): Template | undefined;
  /** What an image runs (emulator/handlers/image-handler.ts). */
  image(name: string): Template;
  webhooks: WebhookSender;
  newJobId(): string;
  newWorkerId(): string;
  /**
   * The environment of an endpoint's workers, looked up when each job starts (a template's new
   * env reaches new jobs, as a release would), its secret placeholders holding the values of
   * `secrets` (what the worker started with); undefined where none is known (pre-deployed models).
   */
  env?(endpointId: string, secrets?: ReadonlyMap<string, string>): Readonly<Record<string, string>> | undefined;
  /** Starts a worker's container: the account secrets its env refers to, or why it cannot start. */
  bootWorker?(endpointId: string): WorkerBoot;
  /** Told when a worker of an endpoint starts or stops (billing counts its seconds). */
  onWorker?(endpointId: string, workerId: string, event: "start" | "stop"): void;
}

/** The fields of an endpoint record its runtime reads. */
type RuntimeFields = "workers" | "timeout" | "templateId" | "image" | "releases" | "version";

/**
 * How an endpoint record runs jobs (OpenAPI defaults where a field is absent; `idleTimeout` is in
 * seconds): with its template's handler, or with the handler of its own image (set through v2).
 */
export function runtimeSettingsOf(
  endpoint: Pick<EndpointRecord, "id"> & Partial<Pick<EndpointRecord, RuntimeFields>>,
): RuntimeSettings {
  return {
    workersMin: endpoint.workers?.min ?? ENDPOINT_DEFAULTS.workersMin,
    workersMax: endpoint.workers?.max ?? ENDPOINT_DEFAULTS.workersMax,
    idleTimeoutMs: (endpoint.workers?.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout) * 1000,
    executionTimeoutMs: endpoint.timeout ?? ENDPOINT_DEFAULTS.executionTimeoutMs,
    templateId: endpoint.templateId ?? "",
    image: endpoint.image,
    version: endpoint.releases?.at(-1)?.version ?? endpoint.version ?? 0,
  };
}

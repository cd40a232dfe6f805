import type { Scheduler } from "../clock/scheduler";
import type { Template } from "../handlers/handler-types";
import type { WebhookSender } from "./webhooks";
import type { ScalingSettings } from "./worker-pool";

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
   * env reaches new jobs, as a release would); undefined where none is known (pre-deployed models).
   */
  env?(endpointId: string): Readonly<Record<string, string>> | undefined;
  /** Told when a worker of an endpoint starts or stops (billing counts its seconds). */
  onWorker?(endpointId: string, workerId: string, event: "start" | "stop"): void;
}

import type { S3Config, StreamChunk } from "../../sdk/schemas";
import { executeTemplate } from "./execute-template";
import type { RuntimeServices, RuntimeSettings } from "./runtime-settings";
import type { Worker } from "./worker";

/** What a handler is given of one job: a `/run` job or a batch's request. */
export interface HandlerJob {
  id: string;
  input: Record<string, unknown>;
  s3Config?: S3Config | undefined;
}

/**
 * Runs an endpoint's handler for one job on one of its workers: the handler and environment its
 * container was started with (a release reaches the endpoint's work by replacing its workers);
 * for a worker started with none fixed (a pre-deployed model), the endpoint's image's handler or
 * its template's, looked up now. Resolves to the output; rejects with what failed.
 */
export function runHandler(
  endpointId: string,
  settings: RuntimeSettings,
  services: RuntimeServices,
  worker: Worker,
  job: HandlerJob,
  signal: AbortSignal,
  emit: (chunk: StreamChunk) => boolean,
): Promise<unknown> {
  // What the worker's container was started with (a release reaches it only by replacing it);
  // looked up now only where nothing was fixed at its start (pre-deployed models).
  const template =
    worker.runs !== undefined
      ? worker.runs.template
      : settings.image !== undefined
        ? services.image(settings.image)
        : services.template(settings.templateId);
  if (!template) return Promise.reject(new Error(`template ${settings.templateId} is not available in this emulator`));
  const env = worker.runs !== undefined ? worker.runs.env : services.env?.(endpointId, worker.secrets);
  const ctx = {
    id: job.id,
    input: job.input,
    ...(env ? { env } : {}),
    ...(job.s3Config ? { s3Config: job.s3Config } : {}),
    signal,
    sleep: (ms: number) => services.scheduler.sleep(ms, signal),
  };
  return Promise.resolve().then(() => executeTemplate(template, ctx, emit));
}

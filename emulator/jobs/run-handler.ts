import type { S3Config, StreamChunk } from "../../sdk/schemas";
import { executeTemplate } from "./execute-template";
import type { RuntimeServices, RuntimeSettings } from "./runtime-settings";
import type { Worker } from "./worker-pool";

/** What a handler is given of one job: a `/run` job or a batch's request. */
export interface HandlerJob {
  id: string;
  input: Record<string, unknown>;
  s3Config?: S3Config | undefined;
}

/**
 * Runs an endpoint's handler for one job on one of its workers: the handler of the endpoint's own
 * image (set through v2), else its template's, looked up now (so a template update reaches the
 * next job), with the worker's environment. Resolves to the output; rejects with what failed.
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
  const template =
    settings.image !== undefined ? services.image(settings.image) : services.template(settings.templateId);
  if (!template) return Promise.reject(new Error(`template ${settings.templateId} is not available in this emulator`));
  const env = services.env?.(endpointId, worker.secrets);
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

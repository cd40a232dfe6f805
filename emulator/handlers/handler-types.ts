import type { S3Config } from "../../sdk/schemas";

/** What a handler receives for one job. */
export interface JobContext {
  /** The job id. */
  id: string;
  /** The job's `input` object, as submitted. */
  input: Record<string, unknown>;
  /** The job's `s3Config`, when the request carried one. */
  s3Config?: S3Config;
  /** Aborts when the job is cancelled, times out or expires; a handler should stop then. */
  signal: AbortSignal;
  /** Waits `ms` milliseconds on the emulator clock (honours `--time-scale` and manual clocks). */
  sleep(ms: number): Promise<void>;
  /**
   * The worker container's environment, as the platform sets it: the endpoint's env over its
   * template's (an endpoint created through v2 holds a copy of its template's). Given on every
   * endpoint, queue-based and load-balancing; absent on pre-deployed models.
   */
  env?: Readonly<Record<string, string>>;
}

/**
 * A handler: an async function returning the job's output, or an (async) generator whose yielded
 * values are streamed as chunk outputs. Throwing fails the job with the error's message.
 */
export type JobHandler = (job: JobContext) => unknown;

/** A template: the handler a worker of an endpoint with this `templateId` runs. */
export interface Template {
  /** The template id (the name of the handler file, or of the built-in). */
  id: string;
  handler: JobHandler;
  /** True when the handler yields complete stream chunks `{ output, metrics }` rather than bare outputs. */
  yieldsChunks?: boolean;
  /** `builtin`, `model`, or the handler file's path. */
  source: string;
  /**
   * Set when loading the handler file threw: an image whose container exits at start (its
   * workers are unhealthy and retry), with what it printed, the error's first line.
   */
  startError?: string;
}

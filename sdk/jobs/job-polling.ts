import { AbortError, TimeoutError } from "../errors";
import { pollDelays, sleepUnlessAborted } from "../polling";
import { type JobRecord, type StreamChunk, StreamResponseSchema, TERMINAL_JOB_STATUSES } from "../schemas";
import type { Transport } from "../transport";
import type { PollOptions } from "./job-options";

/*
 * The polling operations of `EndpointJobs` (endpoint-jobs.ts): following `/stream` and waiting
 * on `/status`, each under a deadline, with backoff while nothing is new.
 */

/**
 * Follows `/stream/<id>` at `path`: yields each chunk once, in order, and ends when the job is
 * terminal. Both shapes of the answer are read (`StreamResponseSchema`): `{ status, stream }`
 * says the job's state itself; a bare array of chunks does not, so after an empty one the job's
 * state is read (`readStatus`, `/status`), and once it is terminal one more `/stream` read takes
 * the chunks made before its end.
 */
export async function* streamJob<O>(
  transport: Transport,
  path: string,
  options: PollOptions | undefined,
  readStatus: (signal: AbortSignal | undefined) => Promise<JobRecord>,
): AsyncGenerator<StreamChunk<O>, void, undefined> {
  const timeoutMs = options?.timeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  const delays = pollDelays(options);
  const read = () =>
    transport.send({
      method: "GET",
      base: transport.config.queueUrl,
      path,
      idempotent: true,
      schema: StreamResponseSchema,
      options: { signal: options?.signal },
    });
  for (;;) {
    const res = await read();
    for (const chunk of res.stream) yield chunk as StreamChunk<O>;
    if (res.status !== undefined && TERMINAL_JOB_STATUSES.has(res.status)) return;
    if (res.stream.length > 0) {
      delays.reset();
      continue;
    }
    if (res.status === undefined && TERMINAL_JOB_STATUSES.has((await readStatus(options?.signal)).status)) {
      for (const chunk of (await read()).stream) yield chunk as StreamChunk<O>;
      return;
    }
    await pause(delays.next(), deadline, timeoutMs, { method: "GET", path }, options?.signal);
  }
}

/** Reads the job (`read`) until it is terminal, with backoff, under a deadline. */
export async function waitForJob<O>(
  path: string,
  options: PollOptions | undefined,
  read: (signal: AbortSignal | undefined) => Promise<JobRecord<O>>,
): Promise<JobRecord<O>> {
  const timeoutMs = options?.timeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  const delays = pollDelays(options);
  for (;;) {
    const record = await read(options?.signal);
    if (TERMINAL_JOB_STATUSES.has(record.status)) return record;
    await pause(delays.next(), deadline, timeoutMs, { method: "GET", path }, options?.signal);
  }
}

/** Waits between polls; throws when the deadline passes or the caller aborts. */
async function pause(
  delay: number,
  deadline: number,
  timeoutMs: number,
  request: { method: string; path: string },
  signal: AbortSignal | undefined,
): Promise<void> {
  const left = deadline - Date.now();
  if (left <= 0) throw new TimeoutError(request, timeoutMs);
  if (!(await sleepUnlessAborted(Math.min(delay, left), signal))) throw new AbortError(request);
}

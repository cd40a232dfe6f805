import type { RunpodError } from "../errors";
import { serializeWithinLimit, validateRequest } from "../request-validation";
import { type JobPolicy, type JobRequest, JobRequestSchema, LIMITS } from "../schemas";

/** What the caller may pass as the inputs of `submitMany`. */
export type BatchInputs<I> = Iterable<JobRequest<I>> | AsyncIterable<JobRequest<I>>;

/** One input of a batch while it is in progress. */
export interface BatchEntry {
  /** Position in the inputs, from 0. */
  readonly index: number;
  /** The `/run` body, serialized once; dropped once the job is submitted. */
  body: string | undefined;
  /** The job's id once `/run` answered. */
  jobId: string | undefined;
  /** When `/run` answered (ms since the epoch). */
  submittedAt: number;
  /** Set once its outcome is out: guards "exactly one outcome per input". */
  reported: boolean;
}

/** Reads inputs one at a time from an iterable or async iterable (never two reads at once). */
export class InputReader<I> {
  private readonly iterator: Iterator<JobRequest<I>> | AsyncIterator<JobRequest<I>>;
  private next = 0;
  /** True once the inputs are exhausted, or reading was stopped. */
  done = false;

  constructor(inputs: Iterable<JobRequest<I>> | AsyncIterable<JobRequest<I>>) {
    this.iterator =
      Symbol.asyncIterator in inputs
        ? (inputs as AsyncIterable<JobRequest<I>>)[Symbol.asyncIterator]()
        : (inputs as Iterable<JobRequest<I>>)[Symbol.iterator]();
  }

  /** The next input with its index, or undefined at the end. An error of the caller's iterator propagates. */
  async read(): Promise<{ index: number; request: JobRequest<I> } | undefined> {
    if (this.done) return undefined;
    const step = await this.iterator.next();
    if (step.done) {
      this.done = true;
      return undefined;
    }
    return { index: this.next++, request: step.value };
  }

  /** Stops reading and lets the caller's iterator clean up (close a file, say). */
  async stop(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.iterator.return?.();
  }
}

/**
 * The `/run` body of an input: the batch's default `policy` and `webhook` where the request has
 * none, validated and serialized as `run` does. A RunpodError names the input and the field.
 */
export function runBody(
  request: JobRequest<unknown>,
  index: number,
  defaults: { policy: JobPolicy | undefined; webhook: string | undefined },
  endpointId: string,
): string | RunpodError {
  const context = `input ${index} of submitMany on ${endpointId}`;
  try {
    // Not an object at all: the schema says so, naming the input.
    const withDefaults =
      typeof request === "object" && request !== null
        ? { ...request, policy: request.policy ?? defaults.policy, webhook: request.webhook ?? defaults.webhook }
        : request;
    const valid = validateRequest(JobRequestSchema, withDefaults, context);
    return serializeWithinLimit(valid, LIMITS.runPayloadBytes, context);
  } catch (error) {
    return error as RunpodError;
  }
}

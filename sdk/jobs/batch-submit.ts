import type { RunpodError } from "../errors";
import { backoffDelay } from "../retry-policy";
import { JobAckSchema } from "../schemas";
import { classifySubmitFailure, retryAfterOf } from "./batch-failures";
import type { BatchEntry } from "./batch-inputs";
import type { BatchControl } from "./batch-results";

/** Refusals (429, 502-504, a connection that never opened) of one request before its input is reported as an error. */
const MAX_REFUSALS = 20;
/** With at-least-once delivery: resends of one input after lost answers before it is reported `unknown`. */
const MAX_RESENDS = 5;
/** Backoff between attempts when the platform gave no `Retry-After`. */
const BACKOFF = { baseDelayMs: 250, maxDelayMs: 20_000 };

/**
 * Sends one batch entry's `/run` until the platform accepts it (true, with `entry.jobId` set), or
 * finishes the entry (false). Each attempt waits for the `/run` pacer; a refusal (429, a gateway
 * error, a connection that never opened) is sent again after `Retry-After` or a backoff; an answer
 * that was lost is reported `unknown` and never sent again, unless the batch delivers at least
 * once; a fatal error (a bad key) stops the whole batch.
 */
export async function submitEntry<O>(b: BatchControl<O>, entry: BatchEntry): Promise<boolean> {
  let refusals = 0;
  let resends = 0;
  for (;;) {
    if (!(await b.pacers.run.acquire(b.stopSignal))) return b.finishStopped(entry, "run");
    let ack: { id: string };
    try {
      // No abort signal: a `/run` once sent is left to answer, so its job id is never lost to an abort.
      ack = await b.transport.send({
        method: "POST",
        base: b.transport.config.queueUrl,
        path: `${b.prefix}run`,
        body: entry.body,
        idempotent: false,
        schema: JobAckSchema,
      });
    } catch (error) {
      const kind = classifySubmitFailure(error);
      const retryAfterMs = retryAfterOf(error);
      b.pacers.run.release(kind === "rate-limited" ? { refused: true, retryAfterMs } : { refused: false });
      const failure = error as RunpodError;
      if (kind === "fatal") b.halt(failure);
      if (kind === "fatal" || kind === "rejected") return b.fail(entry, failure);
      if (kind === "maybe-delivered") {
        if (!b.options.atLeastOnce || ++resends > MAX_RESENDS) {
          b.finish(entry, { kind: "unknown", index: entry.index, error: failure });
          return false;
        }
      } else if (++refusals > MAX_REFUSALS) return b.fail(entry, failure);
      const delay = retryAfterMs ?? backoffDelay(refusals + resends, BACKOFF);
      if (!(await b.sleep(delay))) return b.finishStopped(entry, "run");
      continue;
    }
    b.pacers.run.release({ refused: false });
    entry.jobId = ack.id;
    entry.body = undefined;
    entry.submittedAt = Date.now();
    return true;
  }
}

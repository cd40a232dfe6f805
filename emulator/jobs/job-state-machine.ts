import { type JobStatus, TERMINAL_JOB_STATUSES } from "../../sdk/schemas";

/**
 * What can happen to a job. `expire` (TTL or retention) and `purge` delete the job rather than
 * move it to a state, so they are guarded here but carry no target state.
 */
export type JobEvent = "start" | "complete" | "fail" | "timeOut" | "cancel" | "retry" | "purge" | "expire";

interface Transition {
  readonly from: readonly JobStatus[] | "any";
  /** The new state, or `deleted` when the job leaves the store. */
  readonly to: JobStatus | "deleted";
}

/**
 * The job lifecycle (docs/platform.md "States and transitions"). Rows the platform's documentation
 * shows are cited; the worker rows (start, complete, fail, timeOut) are the ones the platform's
 * documentation mentions but does not show.
 */
export const JOB_TRANSITIONS: Readonly<Record<JobEvent, Transition>> = {
  // A worker picks the job up (not shown in the platform's table, implied by IN_PROGRESS).
  start: { from: ["IN_QUEUE"], to: "IN_PROGRESS" },
  // The handler returned (not shown): COMPLETED.
  complete: { from: ["IN_PROGRESS"], to: "COMPLETED" },
  // The handler threw, or rejected its input (docs/platform.md "States and transitions").
  fail: { from: ["IN_PROGRESS"], to: "FAILED" },
  // executionTimeout is enforced only while a worker is executing the job.
  timeOut: { from: ["IN_PROGRESS"], to: "TIMED_OUT" },
  // Table rows 2 and 3: a queued job is removed before it starts; a running job is stopped.
  cancel: { from: ["IN_QUEUE", "IN_PROGRESS"], to: "CANCELLED" },
  // Table row 4 and rules 1-2: only FAILED or TIMED_OUT, while results have not expired.
  retry: { from: ["FAILED", "TIMED_OUT"], to: "IN_QUEUE" },
  // Table row 6: purge removes pending jobs only; running jobs continue.
  purge: { from: ["IN_QUEUE"], to: "deleted" },
  // Table row 5: TTL expiry deletes the job in any state, even while it runs (and so does retention).
  expire: { from: "any", to: "deleted" },
};

/** The state `event` leads to from `status`, or `undefined` when the event is not allowed there. */
export function nextStatus(status: JobStatus, event: JobEvent): JobStatus | "deleted" | undefined {
  const t = JOB_TRANSITIONS[event];
  return t.from === "any" || t.from.includes(status) ? t.to : undefined;
}

/** True for states a job leaves only through `retry` or deletion. */
export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.has(status);
}

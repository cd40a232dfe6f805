import type { RolloutSnapshot } from "./rollout-snapshot";

/*
 * When an endpoint serves its new configuration, as a pure function of what the platform says
 * (docs/resources.md "When an endpoint is deployed"). Kept apart from the polling so the table of
 * cases is tested without a clock.
 */

/** Consecutive polls in which every worker of the new configuration is unhealthy before the rollout is failed. */
export const UNHEALTHY_POLLS_TO_FAIL = 3;

/** What a poll concludes. */
export type RolloutJudgement = { state: "done" } | { state: "waiting" } | { state: "failed"; reason: string };

/**
 * Done when no worker runs an older configuration and at least `workersMin` workers of the new one
 * have started (at least one, when the endpoint has any worker: a new worker that never starts is
 * no deployment); zero workers with `workersMin` 0 is done at once. Failed, without waiting for the
 * timeout, when the new configuration has workers, every one of them unhealthy and none starting
 * or started, for {@link UNHEALTHY_POLLS_TO_FAIL} polls in a row (`unhealthyPolls` counts them,
 * this one included): the platform restarts a crashing container a few times first.
 */
export function judgeRollout(s: RolloutSnapshot, workersMin: number, unhealthyPolls: number): RolloutJudgement {
  const needed = Math.max(workersMin, s.total > 0 ? 1 : 0);
  if (s.stale === 0 && s.ready >= needed) return { state: "done" };
  if (allUnhealthy(s) && unhealthyPolls >= UNHEALTHY_POLLS_TO_FAIL) {
    const n = s.unhealthy.length;
    return {
      state: "failed",
      reason: `${n === 1 ? "its one worker" : `all ${n} workers`} of the new configuration cannot start`,
    };
  }
  return { state: "waiting" };
}

/** Whether every worker of the new configuration is unhealthy (and it has some). */
export function allUnhealthy(s: RolloutSnapshot): boolean {
  return s.unhealthy.length > 0 && s.ready === 0 && s.starting === 0;
}

/** One line of progress: workers of the new configuration started, of those wanted, and the rest. */
export function progressLine(s: RolloutSnapshot, workersMin: number): string {
  const version = s.version === undefined ? "the new configuration" : `configuration version ${s.version}`;
  const wanted = Math.max(workersMin, s.total - s.stale, s.total > 0 ? 1 : 0);
  const rest = [
    s.starting > 0 ? `${s.starting} starting` : "",
    s.unhealthy.length > 0 ? `${s.unhealthy.length} unable to start` : "",
    s.stale > 0 ? `${s.stale} still on an older configuration` : "",
  ].filter(Boolean);
  return `rolling out ${version}: ${s.ready} of ${wanted} worker(s) serving it${rest.length ? ` (${rest.join(", ")})` : ""}`;
}

import type { RunpodClient } from "../sdk/client";
import { RolloutFailedError, waitForRollout } from "../sdk/rollout/wait-for-rollout";
import { progressOnResource } from "./engine-notice";
import type { RolloutPlan } from "./rollout-settings";

/*
 * Waiting, inside a `pulumi up` step, until the endpoints a change rolled serve it: their progress
 * shown under the resource, their failures gathered into one error that says what was done about
 * them (docs/resources.md "When an endpoint is deployed").
 */

/** An endpoint rolled by a step, and how many workers it must have serving. */
export interface RolledEndpoint {
  id: string;
  workersMin: number;
}

/**
 * Waits for every endpoint at once; resolves with the failed rollouts (none: all serve). Each
 * progress line goes to the engine under the step's resource (`plan.urn`).
 */
export async function awaitRollouts(
  client: RunpodClient,
  plan: RolloutPlan,
  endpoints: readonly RolledEndpoint[],
): Promise<RolloutFailedError[]> {
  const several = endpoints.length > 1;
  const outcomes = await Promise.allSettled(
    endpoints.map((e) =>
      waitForRollout(client, e.id, {
        workersMin: e.workersMin,
        timeoutMs: plan.timeoutMs,
        onProgress: (line) => {
          if (plan.urn) void progressOnResource(plan.urn, several ? `endpoint ${e.id}: ${line}` : line);
        },
      }),
    ),
  );
  const failures: RolloutFailedError[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === "fulfilled") continue;
    if (outcome.reason instanceof RolloutFailedError) failures.push(outcome.reason);
    else throw outcome.reason;
  }
  return failures;
}

/**
 * The error of a step whose rollouts failed: each failure's words, then what happened after
 * (`aftermath`: rolled back, or left as it is), and that the next `pulumi up` tries again.
 */
export function rolloutError(failures: readonly RolloutFailedError[], aftermath: string): Error {
  const what = failures.map((f) => f.message).join("; ");
  return new Error(`${what}. ${aftermath}`, { cause: failures[0] });
}

/** The workers an endpoint must have serving, from its inputs or its answer (`workersMin`, default 0). */
export function workersMinOf(value: unknown): number {
  return typeof value === "number" && value > 0 ? value : 0;
}

import type * as dynamic from "@pulumi/pulumi/dynamic";
import { isUnknown } from "./property-values";
import { stepContext } from "./step-context";

/*
 * The inputs that say whether and how a step waits until an endpoint serves what it changed
 * (docs/resources.md "When an endpoint is deployed"). They are bookkeeping: never sent to the
 * platform, never a diff or a replacement on their own.
 */

/** The rollout inputs' names. */
export const ROLLOUT_INPUTS = ["waitForRollout", "rollbackOnFailure", "rolloutTimeoutSeconds"] as const;
/** A rollout input's name. */
export type RolloutInput = (typeof ROLLOUT_INPUTS)[number];

/** The default of `rolloutTimeoutSeconds`. */
export const DEFAULT_ROLLOUT_TIMEOUT_SECONDS = 1800;
/** The longest `rolloutTimeoutSeconds` (a day). */
export const MAX_ROLLOUT_TIMEOUT_SECONDS = 86_400;

/** What a step does about rollouts. */
export interface RolloutPlan {
  wait: boolean;
  rollback: boolean;
  timeoutMs: number;
  /** The resource's URN, for progress under it, when known. */
  urn: string | undefined;
}

/** The plan of a step from its inputs and context: the engine's timeout bounds the wait too. */
export function rolloutPlan(inputs: Record<string, unknown>): RolloutPlan {
  const context = stepContext(inputs);
  const wait = inputs.waitForRollout !== false;
  const own = typeof inputs.rolloutTimeoutSeconds === "number" ? inputs.rolloutTimeoutSeconds : undefined;
  const engine = context.timeoutSeconds && context.timeoutSeconds > 0 ? context.timeoutSeconds : undefined;
  const seconds = Math.min(own ?? DEFAULT_ROLLOUT_TIMEOUT_SECONDS, engine ?? Infinity);
  return { wait, rollback: wait && inputs.rollbackOnFailure !== false, timeoutMs: seconds * 1000, urn: context.urn };
}

/** A value given and known at preview (an unknown one is judged at `up`). */
const known = (v: unknown) => v !== undefined && !isUnknown(v);

/**
 * Check's refusals of rollout inputs that make no sense, each naming the field, the value and the
 * rule. `rollsEndpoints` is false where nothing rolls (a pod template): waiting or rolling back
 * there is refused.
 */
export function rolloutFailures(news: Record<string, unknown>, rollsEndpoints = true): dynamic.CheckFailure[] {
  const failures: dynamic.CheckFailure[] = [];
  const { waitForRollout: wait, rollbackOnFailure: rollback, rolloutTimeoutSeconds: timeout } = news;
  for (const [name, value] of [
    ["waitForRollout", wait],
    ["rollbackOnFailure", rollback],
  ] as const) {
    if (known(value) && typeof value !== "boolean") {
      failures.push({ property: name, reason: `${name} = ${JSON.stringify(value)}: must be true or false` });
    }
  }
  if (known(timeout)) {
    const ok = typeof timeout === "number" && Number.isInteger(timeout) && timeout >= 1;
    if (!ok || timeout > MAX_ROLLOUT_TIMEOUT_SECONDS) {
      failures.push({
        property: "rolloutTimeoutSeconds",
        reason: `rolloutTimeoutSeconds = ${JSON.stringify(timeout)}: must be a whole number of seconds from 1 to ${MAX_ROLLOUT_TIMEOUT_SECONDS}`,
      });
    }
  }
  if (wait === false && rollback === true) {
    failures.push({
      property: "rollbackOnFailure",
      reason: "rollbackOnFailure = true: needs waitForRollout (a rollout not waited for cannot be seen to fail)",
    });
  }
  if (wait === false && known(timeout)) {
    failures.push({
      property: "rolloutTimeoutSeconds",
      reason: `rolloutTimeoutSeconds = ${JSON.stringify(timeout)}: needs waitForRollout (nothing waits with it false)`,
    });
  }
  if (!rollsEndpoints) {
    for (const [name, value] of [
      ["waitForRollout", wait],
      ["rollbackOnFailure", rollback],
    ] as const) {
      if (value === true) {
        failures.push({
          property: name,
          reason: `${name} = true: a template with isServerless false runs no endpoint, so nothing rolls out or back`,
        });
      }
    }
  }
  return failures;
}

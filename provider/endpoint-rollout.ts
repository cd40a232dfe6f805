import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import type { Endpoint } from "../sdk/schemas";
import { PartialCreateError } from "./errors";
import { rolloutPlan } from "./rollout-settings";
import { awaitRollouts, rolloutError, workersMinOf } from "./rollout-wait";

/*
 * An endpoint's own create and update, waited on until the endpoint serves them
 * (docs/resources.md "When an endpoint is deployed").
 */

/**
 * The endpoint inputs whose change restarts its workers (a release on the platform): the template
 * (what the container runs), the GPUs or CPUs, the volumes and the data centers. A rename, the
 * worker bounds, the scaler, timeouts and flash boot apply at once and roll nothing.
 */
export const ROLLING_ENDPOINT_INPUTS: ReadonlySet<string> = new Set([
  "templateId",
  "gpuTypeIds",
  "gpuPools",
  "excludedGpuTypes",
  "gpuCount",
  "allowedCudaVersions",
  "minCudaVersion",
  "cpuFlavorIds",
  "vcpuCount",
  "networkVolumeId",
  "networkVolumeIds",
  "dataCenterIds",
]);

/**
 * After a create: waits until the new endpoint's `workersMin` workers serve (none to wait for with
 * `workersMin` 0). A rollout that fails leaves the endpoint in the stack (nothing served before,
 * nothing to roll back to; deleting it would lose what was made): the step fails as a partial
 * create, so the next `pulumi up` updates it, which waits again.
 */
export async function servedAfterCreate(
  client: RunpodClient,
  inputs: Record<string, unknown>,
  result: dynamic.CreateResult,
): Promise<dynamic.CreateResult> {
  const plan = rolloutPlan(inputs);
  const workersMin = workersMinOf(inputs.workersMin);
  if (!plan.wait || workersMin === 0) return result;
  const failures = await awaitRollouts(client, plan, [{ id: result.id, workersMin }]);
  if (failures.length === 0) return result;
  const aftermath =
    "The endpoint is kept in the stack with nothing served before to roll back to; fix its template and run pulumi up again, which waits for it again";
  throw new PartialCreateError(result.id, result.outs ?? {}, rolloutError(failures, aftermath));
}

/**
 * An update that may roll the workers: sends it (`send` of the inputs), then, when a rolling input
 * changed (or nothing did: the engine retrying a step that failed before), waits until the
 * endpoint serves it. A failed rollout is undone by sending the previous values of what changed
 * (`rollbackOnFailure`), and the step fails, so the state keeps what it had and the next
 * `pulumi up` tries the change again.
 */
export async function servedUpdate(
  client: RunpodClient,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  changed: readonly string[],
  send: (inputs: Record<string, unknown>) => Promise<Endpoint>,
): Promise<Endpoint> {
  const endpoint = await send(news);
  const plan = rolloutPlan(news);
  const rolls = changed.length === 0 || changed.some((k) => ROLLING_ENDPOINT_INPUTS.has(k));
  if (!plan.wait || !rolls) return endpoint;
  const failures = await awaitRollouts(client, plan, [{ id, workersMin: workersMinOf(news.workersMin) }]);
  if (failures.length === 0) return endpoint;
  if (!plan.rollback || changed.length === 0) {
    throw rolloutError(
      failures,
      "The endpoint was left as it is (rollbackOnFailure is false or nothing changed); the stack keeps its previous state and the next pulumi up tries again",
    );
  }
  await send(olds);
  throw rolloutError(
    failures,
    `Rolled back: endpoint ${id} was put back to the configuration it served before (${changed.join(", ")}); the stack keeps its previous state and the next pulumi up tries the change again`,
  );
}

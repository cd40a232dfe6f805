import type { RunpodClient } from "../sdk/client";
import type { Endpoint, Template } from "../sdk/schemas";
import { rolloutPlan } from "./rollout-settings";
import { awaitRollouts, rolloutError, workersMinOf } from "./rollout-wait";
import { containerOfTemplate, reapplyTemplate, settingsDiffer, type ContainerSettings } from "./template-rollout";

/*
 * A template's update, waited on until the endpoints it rolled serve it (docs/resources.md
 * "When an endpoint is deployed"): on v1 the platform rolls the endpoints linked to the template;
 * on v2 the provider re-applies the template to the endpoints made from it (template-rollout.ts).
 */

/** The template inputs whose change restarts the workers of its endpoints: what the container runs. */
export const ROLLING_TEMPLATE_INPUTS: ReadonlySet<string> = new Set([
  "imageName",
  "env",
  "args",
  "dockerStartCmd",
  "dockerEntrypoint",
  "containerDiskInGb",
  "ports",
  "containerRegistryAuthId",
]);

/** What a template update needs: sending a body, and the settings before and after. */
export interface TemplateUpdateStep {
  id: string;
  /** Inputs changed (field names). */
  changed: readonly string[];
  /** The settings the endpoints ran before (v2's re-apply finds them by these). */
  previous: ContainerSettings;
  /** Sends the update to the values of `inputs`; resolves with the template after it. */
  send(inputs: Record<string, unknown>): Promise<Template>;
}

/**
 * Sends a template update, rolls its endpoints (v2: re-applies it), and waits until they serve it.
 * A failed rollout is undone by sending the previous values (and, on v2, re-applying them to the
 * endpoints), and the step fails so the state keeps what it had; the next `pulumi up` tries again.
 */
export async function servedTemplateUpdate(
  client: RunpodClient,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  step: TemplateUpdateStep,
): Promise<Template> {
  const updated = await step.send(news);
  const plan = rolloutPlan(news);
  const waits = plan.wait && step.changed.some((k) => ROLLING_TEMPLATE_INPUTS.has(k));
  // v2's re-apply is the update itself; v1's linked endpoints are looked up only to wait on them.
  const rolled = await rollEndpoints(client, step.id, step.previous, updated, waits);
  if (!waits || rolled.length === 0) return updated;
  const endpoints = rolled.map((e) => ({ id: e.id, workersMin: workersMinOf(e.workersMin) }));
  const failures = await awaitRollouts(client, plan, endpoints);
  if (failures.length === 0) return updated;
  if (!plan.rollback) {
    throw rolloutError(
      failures,
      "Left as it is (rollbackOnFailure is false): the stack keeps its previous state and the next pulumi up tries again",
    );
  }
  const restored = await step.send(olds);
  await rollEndpoints(client, step.id, containerOfTemplate(updated), restored, false);
  const ids = endpoints.map((e) => e.id).join(", ");
  throw rolloutError(
    failures,
    `Rolled back: template ${step.id} and endpoint(s) ${ids} were put back to the configuration they served before; the stack keeps its previous state and the next pulumi up tries the change again`,
  );
}

/**
 * The endpoints an update of the template rolls: v2's, re-applied here (the platform keeps no
 * link); v1's linked ones, which the platform rolls, listed only when `listLinked` (to wait on them).
 */
async function rollEndpoints(
  client: RunpodClient,
  id: string,
  previous: ContainerSettings,
  updated: Template,
  listLinked: boolean,
): Promise<Endpoint[]> {
  if (client.apiVersion === "v2") {
    return settingsDiffer(previous, containerOfTemplate(updated)) ? reapplyTemplate(client, id, previous) : [];
  }
  return listLinked ? (await client.endpoints.list()).filter((e) => e.templateId === id) : [];
}

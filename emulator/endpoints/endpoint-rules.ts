import { type FieldProblem, renderValue, workersInOrder, workersOrderRule } from "../../sdk/schemas";
import type { TemplateRegistry } from "../handlers/template-registry";
import type { RecordLookup } from "../records/collection";
import type { TemplateRecord } from "../templates/template-record";
import type { EndpointRecord } from "./endpoint-record";

/**
 * Rules that need the account's state, checked on the record as it would be stored (a write
 * through either version): the template is one of the account's serverless templates or a
 * handler (an unknown `templateId` is a 400; the platform runs endpoints from serverless templates
 * only, never from Pod templates), attached volumes exist, and `workers.min <= workers.max` after
 * defaults and merging. Fields are named as v1 names them (v2's route checks its own names first).
 */
export function endpointProblems(
  e: EndpointRecord,
  account: { templates: RecordLookup<TemplateRecord>; networkVolumes: RecordLookup<{ id: string }> },
  templates: TemplateRegistry,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, value: unknown, rule: string) =>
    problems.push({ field, value: renderValue(value, field), rule });
  const own = e.templateId ? account.templates.get(e.templateId) : undefined;
  if (e.image !== undefined) {
    // Its own container settings (set through v2): no template to check.
  } else if (own?.serverless === false) {
    add(
      "templateId",
      e.templateId,
      "is a Pod template (isServerless false); endpoints run serverless templates: create one with isServerless: true",
    );
  } else if (!own && (!e.templateId || !templates.get(e.templateId))) {
    add(
      "templateId",
      e.templateId,
      `is not a known template (neither a template of this account nor a handler: ${templates.ids().join(", ")})`,
    );
  }
  const single = e.v1?.networkVolumeId;
  if (single !== undefined && !account.networkVolumes.has(single)) {
    add("networkVolumeId", single, "is not a network volume of this account");
  }
  e.networkVolumes?.forEach((id, i) => {
    if (!account.networkVolumes.has(id)) add(`networkVolumeIds.${i}`, id, "is not a network volume of this account");
  });
  const { min, max } = e.workers;
  if (!workersInOrder(min, max)) add("workersMin", min, `workersMin ${workersOrderRule("workersMax")} (${max})`);
  // OpenAPI v2: a load-balancing endpoint scales on REQUEST_COUNT (a v1 update cannot change that either).
  if (e.type === "LOAD_BALANCER" && e.scaling.type === "QUEUE_DELAY") {
    add("scalerType", e.scaling.type, "a LOAD_BALANCER endpoint has no queue: it scales on REQUEST_COUNT");
  }
  return problems;
}

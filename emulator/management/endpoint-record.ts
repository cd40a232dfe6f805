import {
  DATA_CENTER_IDS,
  ENDPOINT_DEFAULTS,
  type Endpoint,
  type EndpointCreateInput,
  type EndpointUpdateInput,
  type FieldProblem,
  renderValue,
} from "../../sdk/schemas";
import type { TemplateRegistry } from "../handlers/template-registry";
import type { Account } from "../store/account";
import { givenFields } from "./record-rules";

/**
 * A new endpoint record: the input plus the OpenAPI defaults (`ENDPOINT_DEFAULTS`; `dataCenterIds`
 * defaults to every data center the platform knows, `platform.dataCenterIds`; `gpuCount` applies
 * to GPU endpoints, `vcpuCount` to CPU ones). `name` defaults to the endpoint id.
 */
export function createEndpointRecord(
  input: EndpointCreateInput,
  id: string,
  userId: string,
  createdAt: string,
  platform: { dataCenterIds: readonly string[] } = { dataCenterIds: DATA_CENTER_IDS },
): Endpoint {
  const d = ENDPOINT_DEFAULTS;
  const computeType = input.computeType ?? d.computeType;
  return {
    id,
    name: input.name ?? id,
    computeType,
    ...givenFields(input),
    ...(computeType === "GPU"
      ? { gpuCount: input.gpuCount ?? d.gpuCount }
      : { vcpuCount: input.vcpuCount ?? d.vcpuCount }),
    templateId: input.templateId,
    workersMin: input.workersMin ?? d.workersMin,
    workersMax: input.workersMax ?? d.workersMax,
    idleTimeout: input.idleTimeout ?? d.idleTimeout,
    scalerType: input.scalerType ?? d.scalerType,
    scalerValue: input.scalerValue ?? d.scalerValue,
    executionTimeoutMs: input.executionTimeoutMs ?? d.executionTimeoutMs,
    flashboot: input.flashboot ?? d.flashboot,
    dataCenterIds: input.dataCenterIds ?? [...platform.dataCenterIds],
    env: {},
    createdAt,
    userId,
    version: 0,
  };
}

/**
 * The record after an update. `version` grows by one when anything changed (the OpenAPI bumps it
 * on template changes; the emulator on any change, so clients can see an update happened).
 */
export function updateEndpointRecord(current: Endpoint, input: EndpointUpdateInput): Endpoint {
  const next = { ...current, ...givenFields(input) };
  const changed = Object.keys(input).some(
    (k) => JSON.stringify(next[k as keyof Endpoint]) !== JSON.stringify(current[k as keyof Endpoint]),
  );
  return changed ? { ...next, version: (current.version ?? 0) + 1 } : current;
}

/**
 * Rules that need the account's state, checked on the record as it would be stored: the template
 * is one of the account's serverless templates or a handler (DESIGN.md: unknown `templateId` is a
 * 400; the platform runs endpoints from serverless templates only, never from Pod templates),
 * attached volumes exist, and `workersMin <= workersMax` after defaults and merging.
 */
export function endpointProblems(e: Endpoint, account: Account, templates: TemplateRegistry): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, value: unknown, rule: string) =>
    problems.push({ field, value: renderValue(value, field), rule });
  const own = e.templateId ? account.templates.get(e.templateId) : undefined;
  if (own?.isServerless === false) {
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
  if (e.networkVolumeId !== undefined && !account.networkVolumes.has(e.networkVolumeId)) {
    add("networkVolumeId", e.networkVolumeId, "is not a network volume of this account");
  }
  e.networkVolumeIds?.forEach((id, i) => {
    if (!account.networkVolumes.has(id)) add(`networkVolumeIds.${i}`, id, "is not a network volume of this account");
  });
  const min = e.workersMin ?? 0;
  const max = e.workersMax ?? ENDPOINT_DEFAULTS.workersMax;
  if (min > max) add("workersMin", min, `workersMin must not exceed workersMax (${max})`);
  return problems;
}

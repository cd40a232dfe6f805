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
import type { RecordLookup } from "../records/collection";
import type { TemplateRecord } from "../templates/template-record";
import type { EndpointRecord } from "./endpoint-record";
import { withRelease } from "./endpoint-releases";
import { givenFields } from "../platform/record-rules";

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
 * The record after a v1 update. `version` grows by one when anything changed (the OpenAPI bumps it
 * on template changes; the emulator on any change, so clients can see an update happened). A
 * record holds one form of what v2 also writes: `gpuTypeIds` replace v2's pools, v1's CPU fields
 * replace v2's per-flavor configurations, and a `templateId` links the endpoint to that template
 * again (its own container settings, from v2, are dropped), which is a new release.
 */
export function updateEndpointRecord(current: EndpointRecord, input: EndpointUpdateInput, at: string): EndpointRecord {
  const next: EndpointRecord = { ...current, ...givenFields(input) };
  const changed = Object.keys(input).some(
    (k) => JSON.stringify(next[k as keyof Endpoint]) !== JSON.stringify(current[k as keyof Endpoint]),
  );
  if (!changed) return current;
  if (input.gpuTypeIds !== undefined) {
    delete next.gpuPools;
    delete next.excludedGpuTypes;
  }
  if (input.cpuFlavorIds !== undefined || input.vcpuCount !== undefined) delete next.cpu;
  const relinked =
    input.templateId !== undefined && (input.templateId !== current.templateId || current.image !== undefined);
  if (relinked) {
    for (const own of ["image", "args", "disk", "ports", "registry"] as const) delete next[own];
  }
  const version = (current.version ?? 0) + 1;
  const bumped = { ...next, version };
  return relinked ? withRelease(current, bumped, at) : bumped;
}

/**
 * Rules that need the account's state, checked on the record as it would be stored: the template
 * is one of the account's serverless templates or a handler (an unknown `templateId` is a
 * 400; the platform runs endpoints from serverless templates only, never from Pod templates),
 * attached volumes exist, and `workersMin <= workersMax` after defaults and merging.
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
  } else if (own?.isServerless === false) {
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
  // OpenAPI v2: a load-balancing endpoint scales on REQUEST_COUNT (a v1 update cannot change that either).
  if (e.type === "LOAD_BALANCER" && e.scalerType === "QUEUE_DELAY") {
    add("scalerType", e.scalerType, "a LOAD_BALANCER endpoint has no queue: it scales on REQUEST_COUNT");
  }
  return problems;
}

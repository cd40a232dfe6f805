import { isDeepStrictEqual } from "node:util";
import {
  ENDPOINT_DEFAULTS_BY_VERSION,
  type FieldProblem,
  renderValue,
  workersInOrder,
  workersOrderRule,
} from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import type { EndpointRecord } from "./endpoint-record";
import { withRelease } from "./endpoint-releases";
import { type ContainerSettings, containerOf, containerOfTemplate } from "./endpoint-render";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { TemplateRecord } from "../templates/template-record";

/*
 * Endpoint records written through management API v2 (`POST` and `PATCH /v2/serverless`): the
 * body's fields are the record's own (endpoint-record.ts), and what v1 wrote that a v2 write
 * replaces (its GPU types, its single network volume, its CPU settings) goes with it.
 */

/** Defaults of a v2 create (OpenAPI v2 `CreateEndpointRequest`), in the record's field names. */
const DEFAULTS = ENDPOINT_DEFAULTS_BY_VERSION.v2;

/** What a write needs besides the body. */
export interface V2WriteContext {
  catalog: PlatformCatalog;
  /** The template named by `templateId` (already checked to exist and be serverless). */
  template: TemplateRecord | undefined;
  /** The template a v1-created record is linked to (its container settings are copied on a v2 change). */
  linked: TemplateRecord | undefined;
  /** Now, as an ISO date-time. */
  at: string;
}

/** v2's container fields of a body over a base: body fields win; with a template applied, `env` merges per key (body wins). */
function applyContainer(
  base: ContainerSettings,
  body: Pick<V2.UpdateEndpointRequest, "image" | "args" | "disk" | "ports" | "env" | "registry">,
  fromTemplate: boolean,
): ContainerSettings {
  return {
    image: body.image ?? base.image,
    args: body.args ?? base.args,
    disk: body.disk ?? base.disk,
    ports: body.ports ?? base.ports,
    env: fromTemplate ? { ...base.env, ...(body.env ?? {}) } : (body.env ?? base.env),
    registry: body.registry === undefined ? base.registry : body.registry,
  };
}

/** The record's own container fields of v2 settings (no template link: v2 keeps none). */
function containerFields(
  c: ContainerSettings,
): Pick<EndpointRecord, "image" | "args" | "ports" | "env"> & Partial<Pick<EndpointRecord, "disk" | "registry">> {
  const fields: ReturnType<typeof containerFields> = { image: c.image, args: c.args, ports: c.ports, env: c.env };
  if (c.disk !== undefined) fields.disk = c.disk;
  if (c.registry !== null) fields.registry = c.registry;
  return fields;
}

/** `r` without the fields of its `v1` part named (a v2 write replaced them); `v1` dropped once empty. */
function withoutV1(r: EndpointRecord, ...fields: (keyof NonNullable<EndpointRecord["v1"]>)[]): void {
  if (!r.v1) return;
  const rest = { ...r.v1 };
  for (const field of fields) delete rest[field];
  if (Object.keys(rest).length) r.v1 = rest;
  else delete r.v1;
}

const EMPTY_CONTAINER: ContainerSettings = { args: "", ports: [], env: {}, registry: null };

/** A new record from a v2 create body (already validated, its references checked). */
export function createEndpointRecordV2(
  body: V2.CreateEndpointRequest,
  id: string,
  userId: string,
  ctx: V2WriteContext,
  dataCenterIds: readonly string[],
): EndpointRecord {
  const base = ctx.template ? containerOfTemplate(ctx.template) : EMPTY_CONTAINER;
  const container = applyContainer(base, body, ctx.template !== undefined);
  const record: EndpointRecord = {
    id,
    name: body.name,
    type: body.type,
    ...containerFields(container),
    workers: {
      min: body.workers?.min ?? DEFAULTS.workersMin,
      max: body.workers?.max ?? DEFAULTS.workersMax,
      idleTimeout: body.workers?.idleTimeout ?? DEFAULTS.idleTimeout,
    },
    scaling: { ...body.scaling },
    // "Omit or pass an empty array to let the scheduler choose": every data center, as v1's default.
    dataCenterIds: body.dataCenterIds?.length ? [...body.dataCenterIds] : [...dataCenterIds],
    ...(body.networkVolumes ? { networkVolumes: [...body.networkVolumes] } : {}),
    timeout: body.timeout ?? DEFAULTS.executionTimeoutMs,
    flashboot: body.flashboot ?? (DEFAULTS.flashboot ? "FLASHBOOT" : "OFF"),
    createdAt: ctx.at,
    userId,
    version: 0,
  };
  if (body.cpu) record.cpu = body.cpu.map((c) => ({ ...c }));
  if (body.gpu) {
    const gpu = body.gpu;
    record.gpu = {
      count: gpu.count ?? DEFAULTS.gpuCount,
      pools: [...gpu.pools],
      excludedTypes: (gpu.excludedTypes ?? []).map((t) => t.trim()),
    };
    // OpenAPI: the template's allowedCudaVersions seed the GPU create's, unless the body sets a set or a floor.
    const seeded = gpu.minCudaVersion === undefined ? ctx.template?.allowedCudaVersions : undefined;
    const cuda = gpu.allowedCudaVersions ?? seeded;
    if (cuda?.length) record.gpu.allowedCudaVersions = [...cuda];
    if (gpu.minCudaVersion !== undefined) record.gpu.minCudaVersion = gpu.minCudaVersion;
  }
  return withRelease(undefined, record, ctx.at);
}

/** The record after a v2 update body (validated, references checked); `version` grows when anything changed. */
export function updateEndpointRecordV2(
  current: EndpointRecord,
  body: V2.UpdateEndpointRequest,
  ctx: V2WriteContext,
): EndpointRecord {
  const next: EndpointRecord = { ...current, workers: { ...current.workers } };
  const containerChange =
    body.templateId !== undefined ||
    (["image", "args", "disk", "ports", "env", "registry"] as const).some((k) => body[k] !== undefined);
  if (containerChange) {
    let base = containerOf(current, ctx.linked);
    if (ctx.template) base = applyContainer(base, containerOfTemplate(ctx.template), false);
    const container = applyContainer(base, body, ctx.template !== undefined);
    for (const own of ["templateId", "image", "args", "disk", "ports", "registry"] as const) delete next[own];
    Object.assign(next, containerFields(container));
  }
  if (body.name !== undefined) next.name = body.name;
  if (body.workers?.min !== undefined) next.workers.min = body.workers.min;
  if (body.workers?.max !== undefined) next.workers.max = body.workers.max;
  if (body.workers?.idleTimeout !== undefined) next.workers.idleTimeout = body.workers.idleTimeout;
  if (body.scaling) next.scaling = { ...body.scaling };
  if (body.timeout !== undefined) next.timeout = body.timeout;
  if (body.flashboot !== undefined) next.flashboot = body.flashboot;
  if (body.dataCenterIds !== undefined) next.dataCenterIds = [...body.dataCenterIds];
  if (body.networkVolumes !== undefined) {
    withoutV1(next, "networkVolumeId");
    next.networkVolumes = [...body.networkVolumes];
  }
  if (body.cpu) {
    withoutV1(next, "cpuFlavorIds", "vcpuCount");
    next.cpu = body.cpu.map((c) => ({ ...c }));
  }
  const gpu = body.gpu;
  if (gpu && next.gpu) {
    const nextGpu = { ...next.gpu };
    if (gpu.pools) {
      // OpenAPI: "a PATCH sending pools without excludedTypes clears them".
      withoutV1(next, "gpuTypeIds");
      nextGpu.pools = [...gpu.pools];
      nextGpu.excludedTypes = (gpu.excludedTypes ?? []).map((t) => t.trim());
    }
    if (gpu.count !== undefined) nextGpu.count = gpu.count;
    if (gpu.allowedCudaVersions !== undefined) {
      if (gpu.allowedCudaVersions.length) nextGpu.allowedCudaVersions = [...gpu.allowedCudaVersions];
      else delete nextGpu.allowedCudaVersions;
    }
    if (gpu.minCudaVersion !== undefined) {
      if (gpu.minCudaVersion) nextGpu.minCudaVersion = gpu.minCudaVersion;
      else delete nextGpu.minCudaVersion;
    }
    next.gpu = nextGpu;
  }
  // Compared field by field, not as JSON text: a rewritten container keeps its values in another key order.
  if (isDeepStrictEqual(next, current)) return current;
  return withRelease(current, { ...next, version: current.version + 1 }, ctx.at);
}

/**
 * Rules of a v2 write that need the stored endpoint or the catalog (the body's own rules are the
 * shared schema's): compute family fixed at create, the scaler allowed for the type, an idle
 * timeout only where it applies, known pools, exclusions that are types of those pools, a
 * selection that leaves a type, known CPU flavors.
 */
export function v2EndpointProblems(
  body: V2.CreateEndpointRequest | V2.UpdateEndpointRequest,
  current: EndpointRecord | undefined,
  catalog: PlatformCatalog,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, value: unknown, rule: string) =>
    problems.push({ field, value: renderValue(value, field), rule });
  const type = current?.type ?? ("type" in body ? body.type : undefined) ?? "QUEUE";
  if (current && body.gpu && current.cpu !== undefined)
    add("gpu", body.gpu, "is a CPU endpoint: its compute family cannot change");
  if (current && body.cpu && current.cpu === undefined)
    add("cpu", body.cpu, "is a GPU endpoint: its compute family cannot change");
  const scaler = body.scaling?.type ?? current?.scaling.type;
  if (type === "LOAD_BALANCER" && body.scaling?.type === "QUEUE_DELAY") {
    add("scaling.type", "QUEUE_DELAY", "a LOAD_BALANCER endpoint scales on REQUEST_COUNT (queue delay needs a queue)");
  }
  if (type === "QUEUE" && scaler === "REQUEST_COUNT" && body.workers?.idleTimeout !== undefined) {
    add("workers.idleTimeout", body.workers.idleTimeout, "does not apply to a QUEUE endpoint scaling on REQUEST_COUNT");
  }
  const min = body.workers?.min ?? current?.workers.min ?? DEFAULTS.workersMin;
  const max = body.workers?.max ?? current?.workers.max ?? DEFAULTS.workersMax;
  if (!workersInOrder(min, max)) add("workers.min", min, `${workersOrderRule("workers.max")} (${max})`);
  const pools = body.gpu?.pools;
  if (pools) {
    const entries = catalog.gpuTypes();
    const known = new Set(entries.flatMap((e) => (e.pool === null ? [] : [e.pool])));
    pools.forEach((p, i) => {
      if (!known.has(p)) add(`gpu.pools.${i}`, p, `is not a serverless GPU pool (known: ${[...known].join(", ")})`);
    });
    const inPools = entries.filter((e) => e.pool !== null && pools.includes(e.pool)).map((e) => e.id);
    const excluded = (body.gpu?.excludedTypes ?? []).map((t) => t.trim());
    excluded.forEach((t, i) => {
      if (!inPools.includes(t)) add(`gpu.excludedTypes.${i}`, t, "is not a GPU type of the selected pools");
    });
    if (problems.length === 0 && inPools.every((t) => excluded.includes(t))) {
      add("gpu.excludedTypes", excluded, "leaves no GPU type in the selected pools: keep at least one");
    }
  }
  body.cpu?.forEach((c, i) => {
    if (!catalog.cpuFlavor(c.id)) add(`cpu.${i}.id`, c.id, "is not a CPU flavor of the catalog");
  });
  return problems;
}

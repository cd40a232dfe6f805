import { allPools, ENDPOINT_DEFAULTS, gpuTypesToPools, poolsToGpuTypes } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import { type EndpointRecord, networkVolumesOf, scalerValueOf, vcpuCountOf } from "./endpoint-record";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { TemplateRecord } from "../templates/template-record";

/*
 * One endpoint record answered in two dialects: an endpoint created through v1 is read
 * and updated through v2 and the other way round, under one id. Each answer is rendered from the
 * record, so v1's keeps matching v1's OpenAPI (none of v2's fields: endpoint-v1.ts) and v2's
 * matches v2's (here, with what both read: the container an endpoint runs, its GPU selection).
 */

/** A container's settings as v2 shows them on an endpoint or a template. */
export interface ContainerSettings {
  image?: string | undefined;
  args: string;
  disk?: number | undefined;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
}

/** Where a load-balancing endpoint answers HTTP on the emulator's origin: `<origin>/lb/<id>`. */
export function loadBalancerBase(origin: string, endpointId: string): string {
  return `${origin}/lb/${endpointId}`;
}

/** The container settings a template gives an endpoint created from it. */
export function containerOfTemplate(t: TemplateRecord): ContainerSettings {
  return {
    image: t.image,
    args: t.args,
    disk: t.disk,
    ports: [...t.ports],
    env: { ...t.env },
    registry: t.registry ?? null,
  };
}

/**
 * What an endpoint runs: its own settings (created or changed through v2), or those of the
 * template it is linked to (created through v1), the endpoint's own `env` over the template's.
 */
export function containerOf(r: EndpointRecord, template: TemplateRecord | undefined): ContainerSettings {
  if (r.image !== undefined || template === undefined) {
    return {
      image: r.image,
      args: r.args ?? "",
      disk: r.disk,
      ports: [...(r.ports ?? [])],
      env: { ...r.env },
      registry: r.registry ?? null,
    };
  }
  const own = containerOfTemplate(template);
  return { ...own, env: { ...own.env, ...r.env } };
}

/** The GPU types a record rents, in catalog order: the types v1 named, or its pools minus the excluded types. */
export function gpuTypesOf(r: EndpointRecord, catalog: PlatformCatalog): string[] | undefined {
  const pools = r.gpu?.pools;
  if (pools === undefined) return r.v1?.gpuTypeIds;
  return poolsToGpuTypes(pools, r.gpu?.excludedTypes ?? [], catalog.gpuTypes());
}

/**
 * A record's pool selection: its pools, or the pools holding the types v1 named with every other
 * type of them excluded. A type in no serverless pool has no pool to name (a v1 endpoint may
 * list one): it is left out, and a selection left empty, or a record with no GPU types at all,
 * reads as every pool.
 */
export function poolSelectionOf(
  r: EndpointRecord,
  catalog: PlatformCatalog,
): { pools: string[]; excludedTypes: string[] } {
  const pools = r.gpu?.pools;
  if (pools !== undefined) return { pools, excludedTypes: r.gpu?.excludedTypes ?? [] };
  const entries = catalog.gpuTypes();
  const placeable = (r.v1?.gpuTypeIds ?? []).filter((id) => typeof catalog.gpuType(id)?.pool === "string");
  const mapping = gpuTypesToPools(placeable, entries);
  if (mapping.ok && mapping.selection.pools.length) return mapping.selection;
  return { pools: allPools(entries), excludedTypes: [] };
}

/** v2's request URLs of an endpoint on the emulator's origin: the queue routes, or the load balancer's base and health. */
export function requestUrlsOf(r: EndpointRecord, origin: string): V2.EndpointRequestUrls {
  if (r.type === "LOAD_BALANCER") {
    const base = loadBalancerBase(origin, r.id);
    return { base, health: `${base}${healthPathOf(r.env)}` };
  }
  const q = `${origin}/v2/${r.id}`;
  return {
    run: `${q}/run`,
    runSync: `${q}/runsync`,
    status: `${q}/status/{job_id}`,
    stream: `${q}/stream/{job_id}`,
    cancel: `${q}/cancel/{job_id}`,
    retry: `${q}/retry/{job_id}`,
    purgeQueue: `${q}/purge-queue`,
    health: `${q}/health`,
  };
}

/** The health path of a load-balancing endpoint: `HEALTH_CHECK_PATH` from its env, else `/ping` (OpenAPI v2 `EndpointType`). */
export function healthPathOf(env: Readonly<Record<string, string>> | undefined): string {
  const path = env?.HEALTH_CHECK_PATH?.trim();
  if (!path) return "/ping";
  return path.startsWith("/") ? path : `/${path}`;
}

/** What the v2 answer needs besides the record. */
export interface V2RenderContext {
  catalog: PlatformCatalog;
  /** The emulator's origin, for `requestUrls`. */
  origin: string;
  /** The template a v1-created record is linked to, for its container settings. */
  template: TemplateRecord | undefined;
}

/** The v2 answer (OpenAPI v2 `Endpoint`). */
export function renderEndpointV2(r: EndpointRecord, ctx: V2RenderContext): V2.Endpoint {
  const type = r.type;
  const scalerType = r.scaling.type;
  const value = scalerValueOf(r);
  const container = containerOf(r, ctx.template);
  const compute: Pick<V2.Endpoint, "gpu" | "cpu"> = {};
  if (r.cpu !== undefined) {
    // A CPU endpoint that named no flavor (through v1) runs on every flavor of the catalog.
    const vcpus = vcpuCountOf(r) ?? ENDPOINT_DEFAULTS.vcpuCount;
    const configs = r.cpu.length ? r.cpu : ctx.catalog.cpuFlavors().map((c) => ({ id: c.id, vcpuCount: vcpus }));
    compute.cpu = configs.map((c) => ({
      ...c,
      memory: Math.max(1, c.vcpuCount * (ctx.catalog.cpuFlavor(c.id)?.ramGbPerVcpu ?? 2)),
    }));
  } else {
    compute.gpu = {
      ...poolSelectionOf(r, ctx.catalog),
      count: r.gpu?.count ?? ENDPOINT_DEFAULTS.gpuCount,
      allowedCudaVersions: r.gpu?.allowedCudaVersions ?? [],
      minCudaVersion: r.gpu?.minCudaVersion ?? null,
    };
  }
  const workers: V2.Endpoint["workers"] = { min: r.workers.min, max: r.workers.max };
  // OpenAPI v2 EndpointWorkers.idleTimeout: "omitted from responses" for a queue endpoint scaling on requestCount.
  if (!(type === "QUEUE" && scalerType === "REQUEST_COUNT")) workers.idleTimeout = r.workers.idleTimeout;
  return {
    id: r.id,
    name: r.name,
    type,
    requestUrls: requestUrlsOf(r, ctx.origin),
    ...(container.image === undefined ? {} : { image: container.image }),
    args: container.args,
    ...(container.disk === undefined ? {} : { disk: container.disk }),
    ports: container.ports,
    env: container.env,
    registry: container.registry,
    ...compute,
    workers,
    scaling:
      scalerType === "REQUEST_COUNT"
        ? { type: "REQUEST_COUNT", requestCount: value }
        : { type: "QUEUE_DELAY", queueDelay: value },
    dataCenterIds: r.dataCenterIds,
    networkVolumes: networkVolumesOf(r),
    timeout: r.timeout,
    flashboot: r.flashboot,
    createdAt: r.createdAt,
  };
}

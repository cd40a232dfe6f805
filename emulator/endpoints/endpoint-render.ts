import {
  allPools,
  argsFromWords,
  type Endpoint,
  ENDPOINT_DEFAULTS,
  gpuTypesToPools,
  poolsToGpuTypes,
} from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import type { EndpointRecord } from "./endpoint-record";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { TemplateRecord } from "../templates/template-record";

/*
 * One endpoint record answered in two dialects: an endpoint created through v1 is read
 * and updated through v2 and the other way round, under one id. Each answer is rendered from the
 * record, so v1's keeps matching v1's OpenAPI (none of v2's fields) and v2's matches v2's.
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
    image: t.imageName,
    args: argsFromWords(t.dockerStartCmd ?? []),
    disk: t.containerDiskInGb,
    ports: [...(t.ports ?? [])],
    env: { ...(t.env ?? {}) },
    registry: t.containerRegistryAuthId ?? null,
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
      env: { ...(r.env ?? {}) },
      registry: r.registry ?? null,
    };
  }
  const own = containerOfTemplate(template);
  return { ...own, env: { ...own.env, ...(r.env ?? {}) } };
}

/** The GPU types a record rents, in catalog order: its `gpuTypeIds`, or its pools minus the excluded types. */
export function gpuTypesOf(r: EndpointRecord, catalog: PlatformCatalog): string[] | undefined {
  if (r.gpuPools === undefined) return r.gpuTypeIds;
  return poolsToGpuTypes(r.gpuPools, r.excludedGpuTypes ?? [], catalog.gpuTypes());
}

/**
 * A record's pool selection: its pools, or the pools holding its `gpuTypeIds` with every other
 * type of them excluded. A type in no serverless pool has no pool to name (a v1 endpoint may
 * list one): it is left out, and a selection left empty, or a record with no GPU types at all,
 * reads as every pool.
 */
export function poolSelectionOf(
  r: EndpointRecord,
  catalog: PlatformCatalog,
): { pools: string[]; excludedTypes: string[] } {
  if (r.gpuPools !== undefined) return { pools: r.gpuPools, excludedTypes: r.excludedGpuTypes ?? [] };
  const entries = catalog.gpuTypes();
  const placeable = (r.gpuTypeIds ?? []).filter((id) => typeof catalog.gpuType(id)?.pool === "string");
  const mapping = gpuTypesToPools(placeable, entries);
  if (mapping.ok && mapping.selection.pools.length) return mapping.selection;
  return { pools: allPools(entries), excludedTypes: [] };
}

/** The network volumes an endpoint's workers mount: its `networkVolumeId` and its `networkVolumeIds`, once each. */
export function networkVolumesOf(r: Pick<EndpointRecord, "networkVolumeId" | "networkVolumeIds">): string[] {
  return [...new Set([...(r.networkVolumeId ? [r.networkVolumeId] : []), ...(r.networkVolumeIds ?? [])])];
}

/** The v1 answer (v1 OpenAPI `Endpoint`): v1's fields only, v2's selections and modes read the v1 way. */
export function renderEndpointV1(r: EndpointRecord, catalog: PlatformCatalog): Endpoint {
  const {
    type: _type,
    gpuPools: _pools,
    excludedGpuTypes: _excluded,
    image: _image,
    args: _args,
    disk: _disk,
    ports: _ports,
    registry: _registry,
    cpu: _cpu,
    releases: _releases,
    requestUrls: _urls,
    ...v1
  } = r;
  const view: Endpoint = { ...v1 };
  if (r.gpuPools !== undefined) view.gpuTypeIds = gpuTypesOf(r, catalog);
  // Every attached volume, the single `networkVolumeId` included, as v2's `networkVolumes` lists them.
  const volumes = networkVolumesOf(r);
  if (volumes.length) view.networkVolumeIds = volumes;
  // v1 knows flash boot as on or off; priority flash boot is on.
  if (typeof view.flashboot === "string") view.flashboot = view.flashboot !== "OFF";
  // v1's scalerValue is an integer; a v2 queue delay may be fractional.
  if (view.scalerValue !== undefined && !Number.isInteger(view.scalerValue))
    view.scalerValue = Math.ceil(view.scalerValue);
  return view;
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

/** v2's flash-boot mode of a record's setting. */
export function flashbootModeOf(setting: boolean | string | undefined): string {
  if (typeof setting === "string") return setting;
  return setting ? "FLASHBOOT" : "OFF";
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
  const type = r.type ?? "QUEUE";
  const scalerType = r.scalerType ?? ENDPOINT_DEFAULTS.scalerType;
  const value = r.scalerValue ?? ENDPOINT_DEFAULTS.scalerValue;
  const container = containerOf(r, ctx.template);
  const compute: Pick<V2.Endpoint, "gpu" | "cpu"> = {};
  if (r.computeType === "CPU") {
    const flavors = r.cpuFlavorIds?.length ? r.cpuFlavorIds : ctx.catalog.cpuFlavors().map((c) => c.id);
    const configs = r.cpu ?? flavors.map((id) => ({ id, vcpuCount: r.vcpuCount ?? ENDPOINT_DEFAULTS.vcpuCount }));
    compute.cpu = configs.map((c) => ({
      ...c,
      memory: Math.max(1, c.vcpuCount * (ctx.catalog.cpuFlavor(c.id)?.ramGbPerVcpu ?? 2)),
    }));
  } else {
    compute.gpu = {
      ...poolSelectionOf(r, ctx.catalog),
      count: r.gpuCount ?? ENDPOINT_DEFAULTS.gpuCount,
      allowedCudaVersions: r.allowedCudaVersions ?? [],
      minCudaVersion: r.minCudaVersion ?? null,
    };
  }
  const workers: V2.Endpoint["workers"] = {
    min: r.workersMin ?? ENDPOINT_DEFAULTS.workersMin,
    max: r.workersMax ?? ENDPOINT_DEFAULTS.workersMax,
  };
  // OpenAPI v2 EndpointWorkers.idleTimeout: "omitted from responses" for a queue endpoint scaling on requestCount.
  if (!(type === "QUEUE" && scalerType === "REQUEST_COUNT")) {
    workers.idleTimeout = r.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout;
  }
  return {
    id: r.id,
    name: r.name ?? r.id,
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
    dataCenterIds: r.dataCenterIds ?? [],
    networkVolumes: networkVolumesOf(r),
    timeout: r.executionTimeoutMs ?? ENDPOINT_DEFAULTS.executionTimeoutMs,
    flashboot: flashbootModeOf(r.flashboot),
    createdAt: r.createdAt ?? new Date(0).toISOString(),
  };
}

import {
  DATA_CENTER_IDS,
  ENDPOINT_DEFAULTS,
  type Endpoint,
  type EndpointCreateInput,
  type EndpointUpdateInput,
} from "../../sdk/schemas";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { givenFields } from "../platform/record-rules";
import type { EndpointRecord } from "./endpoint-record";
import { withRelease } from "./endpoint-releases";
import { gpuTypesOf } from "./endpoint-render";
import { type EndpointV1View, recordOfV1View, v1ViewOf } from "./endpoint-v1-view";

/*
 * Management API v1's edge of an endpoint record: a v1 write applies v1's fields to the record as
 * v1 names it (endpoint-v1-view.ts) and keeps the result in v2's shape; a v1 answer is that view,
 * less what v1 does not have.
 */

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
): EndpointRecord {
  const d = ENDPOINT_DEFAULTS;
  const computeType = input.computeType ?? d.computeType;
  return recordOfV1View({
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
  });
}

/**
 * The record after a v1 update, or `current` itself when nothing changed. `version` grows by one
 * when anything changed (the OpenAPI bumps it on template changes; the emulator on any change, so
 * clients can see an update happened). A record holds one form of what v2 also writes:
 * `gpuTypeIds` replace v2's pools, v1's CPU fields replace v2's per-flavor configurations, and a
 * `templateId` links the endpoint to that template again (its own container settings, from v2,
 * are dropped), which is a new release.
 */
export function updateEndpointRecord(current: EndpointRecord, input: EndpointUpdateInput, at: string): EndpointRecord {
  const view = v1ViewOf(current);
  const next: EndpointV1View = { ...view, ...givenFields(input) };
  const changed = Object.keys(input).some(
    (k) => JSON.stringify(next[k as keyof Endpoint]) !== JSON.stringify(view[k as keyof Endpoint]),
  );
  if (!changed) return current;
  if (input.gpuTypeIds !== undefined) {
    delete next.gpuPools;
    delete next.excludedGpuTypes;
  }
  if (input.cpuFlavorIds !== undefined || input.vcpuCount !== undefined) delete next.cpu;
  const relinked = input.templateId !== undefined && (input.templateId !== view.templateId || view.image !== undefined);
  if (relinked) {
    for (const own of ["image", "args", "disk", "ports", "registry"] as const) delete next[own];
  }
  const bumped = { ...next, version: (view.version ?? 0) + 1 };
  // A release when what the workers run changed: a template linked again, GPUs, CPUs, volumes, data centers.
  return withRelease(current, recordOfV1View(bumped), at);
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
    ...view
  } = v1ViewOf(r);
  if (r.gpu?.pools !== undefined) view.gpuTypeIds = gpuTypesOf(r, catalog);
  // Every attached volume, the single `networkVolumeId` included, as v2's `networkVolumes` lists them.
  const volumes = [
    ...new Set([...(view.networkVolumeId ? [view.networkVolumeId] : []), ...(view.networkVolumeIds ?? [])]),
  ];
  if (volumes.length) view.networkVolumeIds = volumes;
  // v1 knows flash boot as on or off; priority flash boot is on.
  if (typeof view.flashboot === "string") view.flashboot = view.flashboot !== "OFF";
  // v1's scalerValue is an integer; a v2 queue delay may be fractional.
  if (view.scalerValue !== undefined && !Number.isInteger(view.scalerValue))
    view.scalerValue = Math.ceil(view.scalerValue);
  return view;
}

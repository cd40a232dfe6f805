import { RequestValidationError } from "../../../errors";
import {
  CPU_FLAVOR_IDS,
  ENDPOINT_DEFAULTS_BY_VERSION,
  type Endpoint,
  type EndpointCreateInput,
  type EndpointUpdateInput,
  type FlashbootSetting,
} from "../../../schemas";
import { allPools, type GpuPoolEntry, gpuTypesToPools, poolsToGpuTypes } from "../../../schemas/gpu-pools";
import { V2_NEUTRAL_NAMES } from "../../../schemas/resource-fields";
import type * as V2 from "../../../schemas/v2";
import type { FieldProblem } from "../../../schemas/validation";

/*
 * How a version-neutral endpoint (v1's field names) reads and writes v2's serverless endpoint:
 * pure functions, so each rule is tested on its own; NeutralEndpointsOverV2 (endpoints.ts) sends
 * what they build.
 */

/** What v2 applies to a field left out, and what the client sends where v2 requires one (the scaler, vCPUs). */
const DEFAULTS = ENDPOINT_DEFAULTS_BY_VERSION.v2;

/** v2's field paths under the neutral names (so an error names the field the caller wrote): `ServerlessEndpointArgs`' `@wire` tags. */
export const NEUTRAL_NAMES: Readonly<Record<string, string>> = V2_NEUTRAL_NAMES.endpoint;

/** v2's flash-boot mode of a neutral setting (`true` is `FLASHBOOT`, `false` is `OFF`). */
export function flashbootToV2(setting: FlashbootSetting): V2.FlashBootMode {
  if (typeof setting === "string") return setting;
  return setting ? "FLASHBOOT" : "OFF";
}

/** The neutral setting of a v2 mode: `true`/`false` for on and off (as v1 wrote them), else the mode. */
export function flashbootFromV2(mode: string): FlashbootSetting | string {
  if (mode === "OFF") return false;
  if (mode === "FLASHBOOT") return true;
  return mode;
}

function fail(problems: FieldProblem[], context: string): never {
  throw new RequestValidationError(problems, context);
}

/** The pool selection of a neutral input (`gpuPools` as given, or `gpuTypeIds` mapped), or undefined. */
function poolSelection(
  input: Pick<EndpointCreateInput, "gpuTypeIds" | "gpuPools" | "excludedGpuTypes">,
  catalog: readonly GpuPoolEntry[],
  context: string,
): { pools: string[]; excludedTypes?: string[] } | undefined {
  if (input.gpuPools !== undefined) {
    return input.excludedGpuTypes === undefined
      ? { pools: [...input.gpuPools] }
      : { pools: [...input.gpuPools], excludedTypes: [...input.excludedGpuTypes] };
  }
  if (input.gpuTypeIds === undefined) return undefined;
  const mapping = gpuTypesToPools(input.gpuTypeIds, catalog);
  if (!mapping.ok) fail(mapping.problems, context);
  return mapping.selection;
}

/** `networkVolumeId` and `networkVolumeIds` as v2's one list (each id once), or undefined when neither is given. */
function networkVolumes(
  input: Pick<EndpointCreateInput, "networkVolumeId" | "networkVolumeIds">,
): string[] | undefined {
  if (input.networkVolumeId === undefined && input.networkVolumeIds === undefined) return undefined;
  return [...new Set([...(input.networkVolumeId ? [input.networkVolumeId] : []), ...(input.networkVolumeIds ?? [])])];
}

/** The scaler, with v2's rules: a load-balancing endpoint scales on REQUEST_COUNT, and idle timeouts need a queue delay scaler or a load balancer. */
function scalingProblems(
  type: V2.EndpointType,
  scaling: V2.EndpointScaling,
  idleTimeout: number | undefined,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (type === "LOAD_BALANCER" && scaling.type === "QUEUE_DELAY") {
    problems.push({
      field: "scalerType",
      value: '"QUEUE_DELAY"',
      rule: "a LOAD_BALANCER endpoint has no queue: it scales on REQUEST_COUNT (the platform refuses QUEUE_DELAY)",
    });
  }
  if (type === "QUEUE" && scaling.type === "REQUEST_COUNT" && idleTimeout !== undefined) {
    problems.push({
      field: "idleTimeout",
      value: String(idleTimeout),
      rule: "does not apply to a QUEUE endpoint scaling on REQUEST_COUNT on management API v2 (the platform refuses it): remove it",
    });
  }
  return problems;
}

function scalingOf(scalerType: string, value: number): V2.EndpointScaling {
  return scalerType === "REQUEST_COUNT"
    ? { type: "REQUEST_COUNT", requestCount: value }
    : { type: "QUEUE_DELAY", queueDelay: value };
}

function workersOf(input: Pick<EndpointCreateInput, "workersMin" | "workersMax" | "idleTimeout">) {
  const workers: NonNullable<V2.CreateEndpointRequest["workers"]> = {};
  if (input.workersMin !== undefined) workers.min = input.workersMin;
  if (input.workersMax !== undefined) workers.max = input.workersMax;
  if (input.idleTimeout !== undefined) workers.idleTimeout = input.idleTimeout;
  return Object.keys(workers).length ? workers : undefined;
}

/** Copies the entries of `from` whose value is defined. */
function defined<T extends object>(from: T): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The v2 create body of a neutral create input, given the GPU catalog (`gpuTypeIds` become pools).
 * v2 requires a `name` (v1 named an endpoint after its id): without one, a `RequestValidationError`.
 * The scaler defaults as v1's did (QUEUE_DELAY, 4), but to REQUEST_COUNT on a LOAD_BALANCER.
 * A GPU endpoint without types or pools may run on any pool; a CPU one without flavors on any of
 * v1's flavors. GPU fields of a CPU endpoint are not sent (v2 cannot carry them; v1 ignored them).
 */
export function endpointCreateToV2(
  input: EndpointCreateInput,
  catalog: readonly GpuPoolEntry[],
): V2.CreateEndpointRequest {
  const context = "create endpoint";
  if (input.name === undefined) {
    fail(
      [
        {
          field: "name",
          value: "undefined",
          rule: "is required on management API v2 (v1 named an endpoint after its id)",
        },
      ],
      context,
    );
  }
  const type = input.type ?? "QUEUE";
  const scalerType = input.scalerType ?? (type === "LOAD_BALANCER" ? "REQUEST_COUNT" : DEFAULTS.scalerType);
  const scaling = scalingOf(scalerType, input.scalerValue ?? DEFAULTS.scalerValue);
  const problems = scalingProblems(type, scaling, input.idleTimeout);
  if (problems.length) fail(problems, context);
  const body: V2.CreateEndpointRequest = {
    name: input.name,
    type,
    scaling,
    templateId: input.templateId,
    ...defined({
      workers: workersOf(input),
      timeout: input.executionTimeoutMs,
      flashboot: input.flashboot === undefined ? undefined : flashbootToV2(input.flashboot),
      networkVolumes: networkVolumes(input),
      dataCenterIds: input.dataCenterIds,
    }),
  };
  if (input.computeType === "CPU") {
    const flavors = input.cpuFlavorIds ?? CPU_FLAVOR_IDS;
    body.cpu = flavors.map((id) => ({ id, vcpuCount: input.vcpuCount ?? DEFAULTS.vcpuCount }));
  } else {
    const selection = poolSelection(input, catalog, context) ?? { pools: allPools(catalog) };
    body.gpu = defined({
      ...selection,
      count: input.gpuCount,
      allowedCudaVersions: input.allowedCudaVersions,
      minCudaVersion: input.minCudaVersion,
    }) as V2.CreateEndpointRequest["gpu"];
  }
  return body;
}

/**
 * The v2 update body of a neutral update input. `current` is the endpoint as it is (read before,
 * when the update changes only part of something v2 sets whole: a scaler's type or value, a CPU
 * flavor list or its vCPUs); `catalog` maps `gpuTypeIds` to pools. `gpuTypeIds` sends the pools
 * with their exclusions (an empty list clears them); `gpuPools` without `excludedGpuTypes` clears
 * the exclusions, as v2 does.
 */
export function endpointUpdateToV2(
  input: EndpointUpdateInput,
  current: V2.Endpoint | undefined,
  catalog: readonly GpuPoolEntry[],
  context = "update endpoint",
): V2.UpdateEndpointRequest {
  const body: V2.UpdateEndpointRequest = defined({
    name: input.name,
    templateId: input.templateId,
    workers: workersOf(input),
    timeout: input.executionTimeoutMs,
    flashboot: input.flashboot === undefined ? undefined : flashbootToV2(input.flashboot),
    networkVolumes: networkVolumes(input),
    dataCenterIds: input.dataCenterIds,
  });
  if (input.scalerType !== undefined || input.scalerValue !== undefined || input.idleTimeout !== undefined) {
    const type = (current?.type ?? "QUEUE") as V2.EndpointType;
    const scalerType = input.scalerType ?? current?.scaling.type ?? DEFAULTS.scalerType;
    const value =
      input.scalerValue ?? current?.scaling.queueDelay ?? current?.scaling.requestCount ?? DEFAULTS.scalerValue;
    const scaling = scalingOf(scalerType, value);
    const problems = scalingProblems(type, scaling, input.idleTimeout);
    if (problems.length) fail(problems, context);
    if (input.scalerType !== undefined || input.scalerValue !== undefined) body.scaling = scaling;
  }
  if (input.cpuFlavorIds !== undefined || input.vcpuCount !== undefined) {
    const flavors = input.cpuFlavorIds ?? [...new Set(current?.cpu?.map((c) => c.id) ?? [])];
    const vcpus = input.vcpuCount ?? current?.cpu?.[0]?.vcpuCount ?? DEFAULTS.vcpuCount;
    body.cpu = flavors.map((id) => ({ id, vcpuCount: vcpus }));
  }
  const selection = poolSelection(input, catalog, context);
  const gpu = defined({
    ...selection,
    count: input.gpuCount,
    allowedCudaVersions: input.allowedCudaVersions,
    minCudaVersion: input.minCudaVersion,
  });
  if (Object.keys(gpu).length) body.gpu = gpu;
  return body;
}

/**
 * A v2 endpoint in the neutral shape. `gpuTypeIds` are the types its pools rent (the pools' types
 * minus the excluded ones, in catalog order: v2 keeps no order among types); `gpuPools` and
 * `excludedGpuTypes` as v2 holds them. `templateId` is undefined: v2 applies a template once, at
 * create, and keeps no link to it; `container` holds the settings it copied. `networkVolumeId` is
 * set when exactly one volume is attached.
 */
export function endpointFromV2(e: V2.Endpoint, catalog: readonly GpuPoolEntry[]): Endpoint {
  const gpu = e.cpu === undefined ? (e.gpu ?? undefined) : undefined;
  const flavors = e.cpu === undefined ? undefined : [...new Set(e.cpu.map((c) => c.id))];
  return defined({
    id: e.id,
    name: e.name,
    type: e.type,
    computeType: e.cpu === undefined ? "GPU" : "CPU",
    gpuTypeIds: gpu ? poolsToGpuTypes(gpu.pools, gpu.excludedTypes ?? [], catalog) : undefined,
    gpuPools: gpu?.pools,
    excludedGpuTypes: gpu ? (gpu.excludedTypes ?? []) : undefined,
    gpuCount: gpu?.count,
    allowedCudaVersions: gpu?.allowedCudaVersions,
    minCudaVersion: gpu?.minCudaVersion ?? undefined,
    cpuFlavorIds: flavors,
    vcpuCount: e.cpu?.[0]?.vcpuCount,
    workersMin: e.workers.min,
    workersMax: e.workers.max,
    idleTimeout: e.workers.idleTimeout,
    scalerType: e.scaling.type,
    scalerValue: e.scaling.queueDelay ?? e.scaling.requestCount,
    executionTimeoutMs: e.timeout,
    flashboot: flashbootFromV2(e.flashboot),
    networkVolumeId: e.networkVolumes.length === 1 ? e.networkVolumes[0] : undefined,
    networkVolumeIds: e.networkVolumes,
    dataCenterIds: e.dataCenterIds,
    env: e.env,
    createdAt: e.createdAt,
    requestUrls: e.requestUrls,
    container: defined({
      imageName: e.image,
      args: e.args,
      containerDiskInGb: e.disk,
      ports: e.ports,
      env: e.env,
      containerRegistryAuthId: e.registry ?? undefined,
    }),
  }) as Endpoint;
}

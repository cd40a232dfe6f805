import type { PlacementPriority } from "../../sdk/schemas";

/*
 * Where a pod goes (capacity is finite): the first GPU type (or CPU flavor) of the
 * pod's list with enough free units in one of its data centers, in v1's priority semantics.
 * `custom` takes the list's order; `availability` takes the most free first (ties: the list's
 * order). Within the data center, the first machine size of the request's list (smallest first)
 * that has the units free: a pod's GPUs are in machines of one size. Pure: the caller passes what
 * is free.
 */

/** What a placement asks for. */
export interface PlacementRequest {
  /** GPU types or CPU flavors, in the caller's order. */
  resources: readonly string[];
  /** GPUs or vCPUs needed, all in one data center. */
  count: number;
  /** Allowed data centers, in the caller's order. */
  dataCenters: readonly string[];
  /** How to order the resources. */
  resourcePriority: PlacementPriority;
  /** How to order the data centers. */
  dataCenterPriority: PlacementPriority;
  /** The machine sizes that may hold the units, smallest first; absent: one kind of machine. */
  machines?: readonly string[] | undefined;
  /** What the machines must meet, in words for a refusal (`gpu.minRamPerGpu = 100`). */
  machineFilters?: string | undefined;
}

/** A chosen resource in a chosen data center, in machines of one size (when the request names sizes). */
export interface Placement {
  resource: string;
  dataCenterId: string;
  machine?: string;
}

/** Free units of `resource` in `dataCenterId` (in machines of size `machine`, when given). */
export type FreeUnits = (dataCenterId: string, resource: string, machine?: string) => number;

/** `items` ordered by `score` (highest first) when `priority` is `availability`, else as given. */
function ordered(items: readonly string[], priority: PlacementPriority, score: (item: string) => number): string[] {
  if (priority === "custom") return [...items];
  return items
    .map((item, index) => ({ item, index, score: score(item) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((e) => e.item);
}

/** The placement of a request, or undefined when no data center has enough of any resource. */
export function choosePlacement(request: PlacementRequest, free: FreeUnits): Placement | undefined {
  const { resources, count, dataCenters, machines } = request;
  // Free units of a resource in a data center, in the machines the request may use.
  const freeIn = (dc: string, resource: string) =>
    machines
      ? Math.max(
          0,
          machines.reduce((sum, m) => sum + free(dc, resource, m), 0),
        )
      : free(dc, resource);
  const machineIn = (dc: string, resource: string) => machines?.find((m) => free(dc, resource, m) >= count);
  const fits = (dc: string, resource: string) =>
    machines ? machineIn(dc, resource) !== undefined : free(dc, resource) >= count;
  const total = (resource: string) => dataCenters.reduce((sum, dc) => sum + Math.max(0, freeIn(dc, resource)), 0);
  for (const resource of ordered(resources, request.resourcePriority, total)) {
    const fitting = dataCenters.filter((dc) => fits(dc, resource));
    const [dataCenterId] = ordered(fitting, request.dataCenterPriority, (dc) => freeIn(dc, resource));
    if (dataCenterId === undefined) continue;
    const machine = machineIn(dataCenterId, resource);
    return machine === undefined ? { resource, dataCenterId } : { resource, dataCenterId, machine };
  }
  return undefined;
}

/** Why a request could not be placed, in the platform's words plus what was looked for. */
export function placementFailure(request: PlacementRequest, kind: "gpu" | "cpu"): string {
  const unit = kind === "gpu" ? (request.count === 1 ? "GPU" : "GPUs") : request.count === 1 ? "vCPU" : "vCPUs";
  const what = kind === "gpu" ? "GPU type" : "CPU flavor";
  const list = (items: readonly string[]) => items.map((i) => JSON.stringify(i)).join(", ");
  if (request.dataCenters.length === 0) {
    return "there are no instances currently available: no data center is left to place the pod in";
  }
  const machines = request.machineFilters ? ` in machines meeting ${request.machineFilters}` : "";
  return `there are no instances currently available: no ${what} of ${list(request.resources)} has ${request.count} free ${unit} in data centers ${list(request.dataCenters)}${machines}`;
}

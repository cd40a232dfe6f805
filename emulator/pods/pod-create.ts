import { POD_DEFAULTS, startCommandToArgs } from "../../sdk/schemas";
import type { Capacity } from "../capacity/capacity";
import type { PlatformCatalog } from "../platform/platform-catalog";
import { atLeast } from "../platform/cuda-version";
import { badField, badRequest } from "../errors/http-errors";
import type { PodAccount } from "./pod-account";
import { newPodId } from "../records/ids";
import { injectPlatformEnv } from "../platform/injected-env";
import { renderTemplateV1 } from "../templates/template-render";
import type { MachineSize } from "../capacity/capacity";
import { machinesFor } from "./machine-filters";
import { choosePlacement, placementFailure, type PlacementRequest } from "./placement";
import { newPodRecord } from "./new-pod";
import { meterPod, startContainer } from "./pod-lifecycle";
import { logLine, type PodRecord } from "./pod-record";
import type { PodSpec } from "./pod-spec";
import { mountsOfV1 } from "./pod-v1-view";

/*
 * A pod's creation, the same through v1 and v2: every input checked against the
 * catalog (400s naming the field as the request named it), the container filled from the
 * template, the pod placed on free GPUs (or vCPUs) of the stock, and created RUNNING holding them.
 */

/** What a route needs of the server besides the account. */
export interface PodServices {
  catalog: PlatformCatalog;
  capacity: Capacity;
}

/** The highest CUDA version the emulated hosts report that the pod's spec accepts; undefined when none does. */
function hostCudaVersion(catalog: PlatformCatalog, spec: PodSpec): string | undefined {
  const versions = catalog
    .values("cudaVersion")
    .filter((v) => spec.allowedCudaVersions.length === 0 || spec.allowedCudaVersions.includes(v))
    .filter((v) => spec.minCudaVersion === undefined || atLeast(v, spec.minCudaVersion))
    .sort((a, b) => (atLeast(a, b) ? (a === b ? 0 : -1) : 1));
  return versions[0];
}

/** The data centers a spec may be placed in, in its order (every data center of the catalog when it names none). */
function allowedDataCenters(account: PodAccount, services: PodServices, spec: PodSpec): string[] {
  const catalog = services.catalog;
  let dcs = spec.dataCenterIds.length ? spec.dataCenterIds : catalog.dataCenters().map((d) => d.id);
  if (spec.countryCodes.length)
    dcs = dcs.filter((id) => spec.countryCodes.includes(catalog.dataCenter(id)?.countryCode ?? ""));
  if (spec.globalNetworking) dcs = dcs.filter((id) => catalog.dataCenter(id)?.globalNetwork === true);
  if (spec.networkVolumeId !== undefined) {
    // A pod mounting a network volume runs in the volume's data center, and only there.
    const volume = account.networkVolumes.get(spec.networkVolumeId);
    if (!volume)
      throw badField(spec.fields.networkVolume, spec.networkVolumeId, "is not a network volume of this account");
    if (spec.dataCenterIds.length && !spec.dataCenterIds.includes(volume.dataCenter)) {
      throw badField(
        spec.fields.dataCenters,
        spec.dataCenterIds,
        `must include ${volume.dataCenter}, the data center of network volume ${volume.id}: a pod runs where its network volume is`,
      );
    }
    dcs = dcs.filter((id) => id === volume.dataCenter);
  }
  return dcs;
}

/** The container settings of a spec, its template's filling what it leaves out (v1 and v2: body fields win, env merged). */
function containerOf(account: PodAccount, spec: PodSpec) {
  const own = spec.templateId === undefined ? undefined : account.templates.get(spec.templateId);
  // A create's spec is in v1's names (pod-spec.ts): it reads its template as v1 answers it.
  const template = own && renderTemplateV1(own);
  return {
    imageName: spec.imageName ?? template?.imageName,
    env: { ...(template?.env ?? {}), ...(spec.env ?? {}) },
    ports: spec.ports ?? template?.ports ?? [],
    // Left undefined when neither gives them: newPodRecord fills in the platform's defaults.
    containerDiskInGb: spec.containerDiskInGb ?? template?.containerDiskInGb,
    volumeInGb: spec.volumeInGb ?? (spec.computeType === "CPU" ? 0 : (template?.volumeInGb ?? POD_DEFAULTS.volumeInGb)),
    volumeMountPath: spec.volumeMountPath ?? template?.volumeMountPath,
    containerRegistryAuthId: spec.containerRegistryAuthId ?? template?.containerRegistryAuthId,
    dockerEntrypoint: spec.dockerEntrypoint ?? template?.dockerEntrypoint ?? [],
    dockerStartCmd: spec.dockerStartCmd ?? template?.dockerStartCmd ?? [],
  };
}

/** The placement request of a spec, with every input checked against the catalog (400s naming the field). */
function placementRequest(account: PodAccount, services: PodServices, spec: PodSpec): PlacementRequest {
  const { catalog } = services;
  // Data centers and CUDA versions the platform does not sell are a 400 naming them, as for endpoints.
  const { dataCenters: dcField, cuda: cudaField } = spec.fields;
  catalog.assertKnown(
    { [dcField]: "dataCenter", [cudaField]: "cudaVersion" },
    { [dcField]: spec.dataCenterIds, [cudaField]: spec.allowedCudaVersions },
  );
  const dataCenters = allowedDataCenters(account, services, spec);
  if (spec.computeType === "CPU") {
    const flavors = spec.cpuFlavorIds.length ? spec.cpuFlavorIds : catalog.cpuFlavors().map((f) => f.id);
    for (const [i, id] of flavors.entries()) {
      const flavor = catalog.cpuFlavor(id);
      if (!flavor)
        throw badField(
          `${spec.fields.cpuFlavors}${spec.fields.cpuFlavors.includes(".") ? "" : `.${i}`}`,
          id,
          "is not a CPU flavor the platform knows",
        );
      if (spec.vcpuCount < flavor.vcpu.min || spec.vcpuCount > flavor.vcpu.max) {
        throw badField(
          spec.fields.vcpuCount,
          spec.vcpuCount,
          `must be between ${flavor.vcpu.min} and ${flavor.vcpu.max} for CPU flavor ${id}`,
        );
      }
    }
    return {
      resources: flavors,
      count: spec.vcpuCount,
      dataCenters,
      resourcePriority: spec.cpuFlavorPriority,
      dataCenterPriority: spec.dataCenterPriority,
    };
  }
  if (spec.gpuTypeIds.length === 0) {
    throw badField(spec.fields.gpuTypes, [], "is required for a GPU pod: name the GPU types it may rent");
  }
  for (const [i, id] of spec.gpuTypeIds.entries()) {
    const gpu = catalog.gpuType(id);
    const field = spec.fields.gpuTypes.includes(".") ? spec.fields.gpuTypes : `${spec.fields.gpuTypes}.${i}`;
    if (!gpu) throw badField(field, id, "is not a GPU type the platform knows");
    const max = spec.cloudType === "COMMUNITY" ? gpu.maxCount.community : gpu.maxCount.secure;
    if (spec.gpuCount > max)
      throw badField(
        spec.fields.gpuCount,
        spec.gpuCount,
        `must be at most ${max} for ${id} on ${spec.cloudType} cloud`,
      );
  }
  const { machines, filters } = machinesFor(spec);
  return {
    resources: spec.gpuTypeIds,
    count: spec.gpuCount,
    dataCenters,
    resourcePriority: spec.gpuTypePriority,
    dataCenterPriority: spec.dataCenterPriority,
    machines,
    machineFilters: filters,
  };
}

/**
 * A new pod from a spec, placed and holding its units, its billing staged: the caller `put`s it.
 * Every refusal is a 400 naming the field (v2's template lookup is the caller's: a 404).
 */
export function createPod(account: PodAccount, services: PodServices, spec: PodSpec): PodRecord {
  const { catalog } = services;
  const container = containerOf(account, spec);
  if (!container.imageName) {
    throw badField(spec.fields.image, undefined, "is required unless templateId names a template with an image");
  }
  if (
    container.containerRegistryAuthId !== undefined &&
    !account.containerRegistryAuths.has(container.containerRegistryAuthId)
  ) {
    throw badField(
      spec.fields.registry,
      container.containerRegistryAuthId,
      "is not a container registry auth of this account",
    );
  }
  const request = placementRequest(account, services, spec);
  const gpu = spec.computeType === "GPU";
  const cudaVersion = gpu ? hostCudaVersion(catalog, spec) : null;
  if (gpu && cudaVersion === undefined) {
    throw badField(
      spec.fields.cuda,
      spec.allowedCudaVersions,
      "there are no instances currently available: no machine reports an accepted CUDA version",
    );
  }
  const kind = gpu ? "gpu" : "cpu";
  // A data center the platform does not know has no machines.
  const free = (dc: string, resource: string, machine?: string) =>
    services.catalog.dataCenter(dc) ? services.capacity.free(dc, resource, kind, machine as MachineSize) : 0;
  const unplaceable = () =>
    badRequest([
      {
        field: gpu ? spec.fields.gpuTypes : spec.fields.cpuFlavors,
        value: JSON.stringify(request.resources),
        rule: placementFailure(request, kind),
      },
    ]);
  const chosen = choosePlacement(request, free);
  if (!chosen) throw unplaceable();
  const now = account.meter.now();
  const volumeInGb = spec.networkVolumeId !== undefined ? 0 : container.volumeInGb;
  const volumes = mountsOfV1(
    volumeInGb,
    container.volumeMountPath ?? POD_DEFAULTS.volumeMountPath,
    spec.networkVolumeId,
  );
  const pod = newPodRecord(
    {
      id: newPodId(),
      name: spec.name,
      image: container.imageName,
      env: injectedEnv(account, spec, container.env),
      ports: container.ports,
      args: startCommandToArgs(container.dockerStartCmd),
      disk: container.containerDiskInGb,
      mounts: volumes.mounts,
      cloud: spec.cloudType,
      locked: spec.locked,
      globalNetworking: spec.globalNetworking,
      cudaVersion: cudaVersion ?? null,
      dataCenterId: chosen.dataCenterId,
      ...(gpu
        ? { gpu: { id: chosen.resource, count: spec.gpuCount }, machine: chosen.machine as MachineSize }
        : { cpu: { id: chosen.resource, vcpuCount: spec.vcpuCount } }),
      registry: container.containerRegistryAuthId,
      template: spec.keepTemplate ? spec.templateId : undefined,
      v1: {
        ...volumes.v1,
        ...(container.dockerEntrypoint.length ? { dockerEntrypoint: container.dockerEntrypoint } : {}),
        ...(spec.interruptible ? { interruptible: true } : {}),
      },
    },
    now,
    catalog,
  );
  // Chosen from what is free just now, in the same turn: the reservation holds.
  if (!account.reservations.tryReserve(pod.id, pod)) throw unplaceable();
  const large = chosen.machine === "large" ? " (large machines)" : "";
  const where = `${pod.gpu ? `${pod.gpu.count} x ${pod.gpu.id}${large}` : `${pod.cpu?.vcpuCount} vCPUs of ${pod.cpu?.id}`} in ${pod.dataCenterId}`;
  logLine(pod, now, "system", `pod created: ${where}`);
  startContainer(account, pod, now);
  meterPod(account, pod);
  return pod;
}

/**
 * The env a create leaves the pod with: `startSsh` injects the account's SSH keys as `PUBLIC_KEY`
 * and `startJupyter` a generated `JUPYTER_PASSWORD`, unless the request sets them (OpenAPI v2
 * `CreatePodRequest`). Later env updates replace the env whole: a `PUBLIC_KEY` not sent back is gone.
 */
export function injectedEnv(
  account: PodAccount,
  spec: Pick<PodSpec, "startSsh" | "startJupyter">,
  env: Record<string, string>,
): Record<string, string> {
  return injectPlatformEnv(env, spec, account.registeredSshKeys());
}

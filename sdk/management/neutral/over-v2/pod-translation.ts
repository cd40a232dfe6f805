import type { z } from "zod";
import { RequestValidationError } from "../../../errors";
import {
  argsToStartCommand,
  CPU_FLAVOR_IDS,
  fieldProblems,
  type Pod,
  type PodCreateInput,
  POD_DEFAULTS,
  type PodUpdateInput,
  startCommandToArgs,
} from "../../../schemas";
import { V2_NEUTRAL_NAMES } from "../../../schemas/resource-fields";
import * as V2 from "../../../schemas/v2";
import { neutralField } from "./neutral-fields";

/*
 * Pure translations between the version-neutral pod (v1's names) and v2's pod, used by
 * `NeutralPodsOverV2` and unit-tested on their own. v1's defaults are applied where v2 has none of its own,
 * so one program gets the same pod on both versions (a 20 GB pod volume at /workspace, 50 GB of
 * container disk, ports 8888/http and 22/tcp).
 */

/** v2's finer `status` as v1's `desiredStatus`: what the pod is meant to be doing. */
export function desiredStatusFromV2(status: string): string {
  switch (status) {
    case "PROVISIONING":
    case "STARTING":
    case "RUNNING":
      return "RUNNING";
    case "EXITED":
    case "ERROR":
      return "EXITED";
    default:
      return status;
  }
}

/** A v2 pod in the version-neutral shape (v1's `Pod`, plus `dataCenterId` and `status`). */
export function podFromV2(pod: V2.Pod): Pod {
  const persistent = pod.mounts.persistent;
  const network = pod.mounts.network?.[0];
  const ports = pod.runtime?.ports ?? [];
  const mapped = ports.filter((p) => p.private !== undefined && typeof p.public === "number");
  const out: Pod = {
    id: pod.id,
    name: pod.name,
    image: pod.image,
    desiredStatus: desiredStatusFromV2(pod.status),
    status: pod.status,
    // v2 has no savings plans: the adjusted cost is the cost.
    costPerHr: pod.cost,
    adjustedCostPerHr: pod.cost,
    containerDiskInGb: pod.disk,
    volumeInGb: persistent?.size ?? 0,
    env: pod.env,
    ports: pod.ports,
    portMappings: pod.runtime ? Object.fromEntries(mapped.map((p) => [String(p.private), p.public as number])) : null,
    publicIp: ports.find((p) => typeof p.ip === "string")?.ip ?? pod.ssh.direct?.host ?? null,
    locked: pod.locked,
    // v2 pods are on-demand: v2 has no interruptible (spot) pods.
    interruptible: false,
    templateId: pod.template,
    containerRegistryAuthId: pod.registry,
    dockerStartCmd: argsToStartCommand(pod.args),
    dataCenterId: pod.dataCenterId,
  };
  const mountPath = persistent?.path ?? network?.path;
  if (mountPath !== undefined) out.volumeMountPath = mountPath;
  if (network) out.networkVolume = { id: network.volumeId };
  if (pod.gpu) {
    out.gpu = { id: pod.gpu.id, count: pod.gpu.count ?? 1 };
    // The allocation: what the pod was given in all.
    if (pod.gpu.vcpuCount !== undefined) out.vcpuCount = pod.gpu.vcpuCount;
    if (pod.gpu.memory !== undefined) out.memoryInGb = pod.gpu.memory;
  }
  if (pod.cpu) {
    out.cpuFlavorId = pod.cpu.id;
    out.vcpuCount = pod.cpu.vcpuCount;
    out.memoryInGb = pod.cpu.memory;
  }
  if (pod.startedAt) out.lastStartedAt = pod.startedAt;
  return out;
}

/**
 * The v2 create bodies of a version-neutral create input, one per candidate in the order to try:
 * v2 places one named GPU type (or CPU flavor) per create and does not fall back, so the client
 * tries `gpuTypeIds` (or `cpuFlavorIds`) in the order given, as the v2 OpenAPI advises. `locked`
 * is not part of v2's create (`NeutralPodsOverV2` locks the pod right after).
 */
export function podCreateToV2(input: PodCreateInput): V2.CreatePodRequest[] {
  const cpu = input.computeType === "CPU";
  const base: V2.CreatePodRequest = {
    name: input.name ?? POD_DEFAULTS.name,
    ports: input.ports ?? [...POD_DEFAULTS.ports],
    disk: input.containerDiskInGb ?? POD_DEFAULTS.containerDiskInGb,
  };
  if (input.imageName !== undefined) base.image = input.imageName;
  if (input.templateId !== undefined) base.templateId = input.templateId;
  if (input.env !== undefined) base.env = input.env;
  if (input.containerRegistryAuthId) base.registry = input.containerRegistryAuthId;
  if (input.dockerStartCmd?.length) base.args = startCommandToArgs(input.dockerStartCmd);
  if (input.cloudType !== undefined) base.cloud = input.cloudType;
  if (input.dataCenterIds?.length) base.dataCenterIds = input.dataCenterIds;
  if (input.globalNetworking !== undefined) base.globalNetworking = input.globalNetworking;
  if (input.startSsh !== undefined) base.startSsh = input.startSsh;
  if (input.startJupyter !== undefined) base.startJupyter = input.startJupyter;
  const path = input.volumeMountPath ?? POD_DEFAULTS.volumeMountPath;
  if (input.networkVolumeId !== undefined) {
    // v1: "a network volume replaces the Pod network volume", mounted at volumeMountPath.
    base.mounts = { network: [{ volumeId: input.networkVolumeId, path }] };
  } else if (!cpu) {
    const size = input.volumeInGb === undefined ? POD_DEFAULTS.volumeInGb : input.volumeInGb;
    if (size) base.mounts = { persistent: { size, path } };
  }
  if (cpu) {
    const flavors = input.cpuFlavorIds?.length ? input.cpuFlavorIds : CPU_FLAVOR_IDS;
    const vcpuCount = input.vcpuCount ?? POD_DEFAULTS.vcpuCount;
    return flavors.map((id) => ({ ...base, cpu: { id, vcpuCount } }));
  }
  return (input.gpuTypeIds ?? []).map((id) => {
    const gpu: NonNullable<V2.CreatePodRequest["gpu"]> = { id, count: input.gpuCount ?? POD_DEFAULTS.gpuCount };
    if (input.allowedCudaVersions?.length) gpu.allowedCudaVersions = input.allowedCudaVersions;
    if (input.minCudaVersion !== undefined) gpu.minCudaVersion = input.minCudaVersion;
    if (input.minRamPerGpu !== undefined) gpu.minRamPerGpu = input.minRamPerGpu;
    if (input.minVcpuCountPerGpu !== undefined) gpu.minVcpuCountPerGpu = input.minVcpuCountPerGpu;
    return { ...base, gpu };
  });
}

/**
 * The v2 `PATCH` body of a version-neutral reset update. A mount changes only within its kind
 * (v2: the mount kind is fixed at creation, a volume id immutable), so a change of `volumeInGb` or
 * `volumeMountPath` needs the pod's current mounts; anything v2 cannot express is a
 * `RequestValidationError` naming the v1 field.
 */
export function podUpdateToV2(input: PodUpdateInput, current?: V2.Pod): V2.UpdatePodRequest {
  const body: V2.UpdatePodRequest = {};
  if (input.name !== undefined) body.name = input.name;
  if (input.locked !== undefined) body.locked = input.locked;
  if (input.imageName !== undefined) body.image = input.imageName;
  if (input.env !== undefined) body.env = input.env;
  if (input.ports !== undefined) body.ports = input.ports;
  if (input.containerDiskInGb != null) body.disk = input.containerDiskInGb;
  if (input.containerRegistryAuthId !== undefined) body.registry = input.containerRegistryAuthId || null;
  if (input.dockerStartCmd !== undefined) body.args = startCommandToArgs(input.dockerStartCmd);
  if (input.globalNetworking !== undefined) body.globalNetworking = input.globalNetworking;
  if (input.volumeInGb !== undefined || input.volumeMountPath !== undefined) {
    body.mounts = mountsUpdate(input, current);
  }
  return body;
}

function mountsUpdate(input: PodUpdateInput, current: V2.Pod | undefined): V2.Mounts {
  const refuse = (field: string, value: unknown, rule: string) =>
    new RequestValidationError([{ field, value: JSON.stringify(value), rule }], "update pod");
  const network = current?.mounts.network?.[0];
  const persistent = current?.mounts.persistent;
  if (network) {
    if (input.volumeInGb) {
      throw refuse(
        "volumeInGb",
        input.volumeInGb,
        `the pod mounts network volume ${network.volumeId}; on management API v2 a pod keeps the kind of mount it was created with`,
      );
    }
    return { network: [{ volumeId: network.volumeId, path: input.volumeMountPath ?? network.path }] };
  }
  const size = input.volumeInGb === undefined ? persistent?.size : input.volumeInGb;
  if (!persistent || !size) {
    throw refuse(
      "volumeInGb",
      input.volumeInGb ?? null,
      persistent
        ? "management API v2 cannot remove a pod volume (the mount kind is fixed at creation)"
        : "the pod has no pod volume, and management API v2 cannot add one after creation",
    );
  }
  return { persistent: { size, path: input.volumeMountPath ?? persistent.path } };
}

/** A v2 field path as v1 names it (`disk` is `containerDiskInGb`; `PodArgs`' `@wire` tags); other paths unchanged. */
export function v1FieldName(v2Field: string): string {
  return neutralField(v2Field, V2_NEUTRAL_NAMES.pod);
}

/**
 * Checks a translated v2 body against v2's own rules before anything is sent (v2's bounds are not
 * v1's: a pod volume of at least 10 GB, vCPUs a power of two), naming v1's fields in the error.
 */
export function checkV2Body<S extends z.ZodType>(schema: S, body: unknown, context: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = fieldProblems(parsed.error, body).map((p) => ({
    ...p,
    field: v1FieldName(p.field),
    rule: `${p.rule} (on management API v2)`,
  }));
  throw new RequestValidationError(problems, context);
}

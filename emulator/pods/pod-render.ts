import { createHash } from "node:crypto";
import type { Pod } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import { rfc3339 } from "../billing/billing-buckets";
import type { PlatformCatalog } from "../platform/platform-catalog";
import type { PodAccount } from "./pod-account";
import { renderVolumeV1 } from "../volumes/volume-record";
import { EMULATED_MACHINE, podActions, type PodRecord } from "./pod-record";
import { v1ViewOf } from "./pod-v1-view";

/*
 * One pod record answered in two dialects: v1's `Pod` (OpenAPI v1; `machine` and `savingsPlans`
 * only with their `include*` flags; `networkVolume` names the attached volume on every answer,
 * with its name, size and data center under `includeNetworkVolume`) and v2's `Pod` (OpenAPI v2,
 * every required field). Addresses are made up, deterministic per pod, in the documentation
 * ranges (203.0.113.0/24, RFC 5737; `*.emulator.invalid`, RFC 2606).
 */

function hashOf(text: string): number {
  return createHash("sha256").update(text).digest().readUInt32BE(0);
}

/** The pod's public address while it runs. */
export function publicIp(pod: Pick<PodRecord, "id">): string {
  return `203.0.113.${(hashOf(pod.id) % 254) + 1}`;
}

/** The public port a TCP port of the pod is published on. */
export function publicPort(pod: Pick<PodRecord, "id">, port: number): number {
  return 10_000 + (hashOf(`${pod.id}/${port}`) % 50_000);
}

/** The pod's TCP ports as numbers. */
function tcpPorts(pod: Pick<PodRecord, "ports">): number[] {
  return pod.ports.filter((p) => p.endsWith("/tcp")).map((p) => Number(p.split("/")[0]));
}

/** Which of v1's extra facts to include (`include*` query flags). */
export interface V1Includes {
  machine?: boolean | undefined;
  networkVolume?: boolean | undefined;
  savingsPlans?: boolean | undefined;
}

/** The v1 answer (OpenAPI v1 `Pod`), read off the record as v1 names it. */
export function renderPodV1(
  record: PodRecord,
  account: PodAccount,
  catalog: PlatformCatalog,
  include: V1Includes = {},
): Pod {
  const pod = v1ViewOf(record);
  const running = pod.status === "RUNNING";
  const p = pod.placement;
  const gpu = p.gpuTypeId !== undefined ? catalog.gpuType(p.gpuTypeId) : undefined;
  const out: Pod = {
    id: pod.id,
    name: pod.name,
    image: pod.imageName,
    desiredStatus: pod.status,
    costPerHr: pod.costPerHr,
    adjustedCostPerHr: pod.costPerHr,
    vcpuCount: pod.vcpuCount ?? 0,
    memoryInGb: pod.memoryInGb ?? 0,
    containerDiskInGb: pod.containerDiskInGb,
    volumeInGb: pod.volumeInGb,
    volumeMountPath: pod.volumeMountPath,
    volumeEncrypted: false,
    env: pod.env,
    ports: pod.ports,
    portMappings: running
      ? Object.fromEntries(tcpPorts(pod).map((port) => [String(port), publicPort(pod, port)]))
      : null,
    publicIp: running ? publicIp(pod) : null,
    locked: pod.locked,
    interruptible: pod.interruptible,
    dockerEntrypoint: pod.dockerEntrypoint,
    dockerStartCmd: pod.dockerStartCmd,
    machineId: `m${pod.id.slice(0, 11)}`,
    lastStartedAt: pod.startedAt === null ? undefined : new Date(pod.startedAt).toISOString(),
    lastStatusChange: pod.lastStatusChange,
    consumerUserId: account.userId,
  };
  if (out.lastStartedAt === undefined) delete out.lastStartedAt;
  if (gpu) {
    out.gpu = {
      id: gpu.id,
      count: p.gpuCount ?? 1,
      displayName: gpu.name,
      securePrice: gpu.price.secure,
      communityPrice: gpu.price.community,
      secureSpotPrice: gpu.price.secure / 2,
      communitySpotPrice: gpu.price.community / 2,
    };
  } else {
    out.cpuFlavorId = p.cpuFlavorId ?? "";
  }
  if (pod.templateId !== undefined) out.templateId = pod.templateId;
  if (pod.containerRegistryAuthId !== undefined) out.containerRegistryAuthId = pod.containerRegistryAuthId;
  if (include.machine) {
    out.machine = {
      dataCenterId: p.dataCenterId,
      location: catalog.dataCenter(p.dataCenterId)?.name ?? p.dataCenterId,
      secureCloud: pod.cloudType === "SECURE",
      supportPublicIp: true,
      costPerHr: pod.costPerHr,
      diskThroughputMBps: EMULATED_MACHINE.diskThroughputMBps,
      maxDownloadSpeedMbps: EMULATED_MACHINE.downloadMbps,
      maxUploadSpeedMbps: EMULATED_MACHINE.uploadMbps,
      ...(gpu
        ? {
            gpuTypeId: gpu.id,
            gpuType: out.gpu,
            gpuDisplayName: gpu.name,
            currentPricePerGpu: pod.costPerHr / (p.gpuCount ?? 1),
          }
        : {}),
      ...(p.cpuFlavorId !== undefined
        ? {
            cpuTypeId: p.cpuFlavorId,
            cpuType: { id: p.cpuFlavorId, displayName: catalog.cpuFlavor(p.cpuFlavorId)?.name ?? p.cpuFlavorId },
            cpuCount: p.vcpuCount ?? 0,
          }
        : {}),
    };
  }
  // v1's pod has no other field naming its network volume, so the attachment shows on every
  // answer (create, list, read, actions); `includeNetworkVolume` adds what the volume is.
  if (pod.networkVolumeId !== undefined) {
    const volume = include.networkVolume ? account.networkVolumes.get(pod.networkVolumeId) : undefined;
    out.networkVolume = volume ? renderVolumeV1(volume) : { id: pod.networkVolumeId };
  }
  if (include.savingsPlans) out.savingsPlans = [];
  return out;
}

/** A cluster member's role (OpenAPI v2 `PodClusterRole`): SLURM and RAY clusters only; rank 0 is the entry node. */
function clusterRole(type: string | undefined, rank: number): string | undefined {
  if (type === "SLURM") return rank === 0 ? "SLURM_CONTROLLER" : "SLURM_COMPUTE";
  if (type === "RAY") return rank === 0 ? "RAY_HEAD" : "RAY_WORKER";
  return undefined;
}

/** The v2 answer (OpenAPI v2 `Pod`) at billing time `now`; a cluster member's `clusterType` gives its role. */
export function renderPodV2(pod: PodRecord, now: number, clusterType?: string): V2.Pod {
  const running = pod.status === "RUNNING";
  const ip = publicIp(pod);
  const direct = running && pod.ports.includes("22/tcp");
  const out: V2.Pod = {
    id: pod.id,
    name: pod.name,
    // A pod whose container could not start holds its machine but runs nothing.
    status: pod.status === "RUNNING" && pod.containerError !== undefined ? "ERROR" : pod.status,
    actions: pod.cluster !== undefined ? [] : podActions(pod),
    image: pod.image,
    args: pod.args,
    // v2 answers `disk` with its create minimum of 1: a v1 pod of 0 GB reads as 1.
    disk: Math.max(1, pod.disk),
    env: pod.env,
    ports: pod.ports,
    registry: pod.registry,
    mounts: pod.mounts,
    cloud: pod.cloud,
    dataCenterId: pod.dataCenterId,
    cudaVersion: pod.cudaVersion,
    ssh: {
      proxy: {
        host: "ssh.emulator.invalid",
        port: 22,
        username: `${pod.id}-${(hashOf(pod.id) >>> 0).toString(16).padStart(8, "0")}`,
        command: `ssh ${pod.id}-${(hashOf(pod.id) >>> 0).toString(16).padStart(8, "0")}@ssh.emulator.invalid`,
      },
      direct: direct
        ? { host: ip, port: publicPort(pod, 22), username: "root", command: `ssh root@${ip} -p ${publicPort(pod, 22)}` }
        : null,
    },
    template: pod.template,
    // OpenAPI v2: "Current cost in USD per hour (0.0 when EXITED or TERMINATED)".
    cost: running ? pod.pricePerHour : 0,
    locked: pod.locked,
    globalNetworking: pod.globalNetworking.enabled
      ? {
          enabled: true,
          ip: `10.65.${hashOf(pod.id) % 256}.${(hashOf(`${pod.id}/g`) % 254) + 1}`,
          internalDns: `${pod.id}.runpod.internal`,
        }
      : { enabled: false },
    runtime: running
      ? {
          uptime: Math.max(0, Math.floor((now - (pod.startedAt ?? now)) / 1000)),
          ...(pod.gpu ? { gpus: Array.from({ length: pod.gpu.count }, () => ({ util: 0, memoryUtil: 0 })) } : {}),
          cpu: { util: 0 },
          memory: { util: 0 },
          ports: pod.ports.map((spec) => {
            const [port, type] = spec.split("/");
            const tcp = type === "tcp";
            return {
              private: Number(port),
              public: tcp ? publicPort(pod, Number(port)) : null,
              type: type ?? "tcp",
              ip: tcp ? ip : null,
            };
          }),
        }
      : null,
    createdAt: rfc3339(pod.createdAt),
    startedAt: pod.startedAt === null || !running ? null : rfc3339(pod.startedAt),
  };
  // The allocation: what the pod was given in all, which may be more than its filters asked.
  if (pod.gpu) out.gpu = { ...pod.gpu };
  else
    out.cpu = { id: pod.cpu?.id ?? "", vcpuCount: pod.cpu?.vcpuCount ?? 0, memory: Math.max(1, pod.cpu?.memory ?? 0) };
  if (pod.cluster !== undefined) {
    const { id, rank } = pod.cluster;
    const role = clusterRole(clusterType, rank);
    out.cluster = { id, rank, ...(role ? { role } : {}), ip: `10.65.0.${rank + 2}` };
  }
  return out;
}

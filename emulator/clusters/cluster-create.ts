import { POD_DEFAULTS } from "../../sdk/schemas";
import { CLUSTER_TYPES } from "../../sdk/schemas/platform-enums";
import type * as V2 from "../../sdk/schemas/v2";
import { newPodRecord } from "../pods/new-pod";
import type { PodAccount } from "../pods/pod-account";
import { injectedEnv, type PodServices } from "../pods/pod-create";
import { meterPod, startContainer } from "../pods/pod-lifecycle";
import { logLine, type PodRecord } from "../pods/pod-record";
import { mountsOfV1 } from "../pods/pod-v1-view";
import { MACHINE_SIZE_ORDER } from "../capacity/capacity";
import { badField, unprocessableField } from "../errors/http-errors";
import { newClusterId, newPodId } from "../records/ids";
import type { ClusterRecord } from "./cluster-record";

/**
 * The data center a cluster goes to: of the allowed ones, the one with the most free GPUs of the
 * type, provided it holds the whole cluster (a cluster is always within one data center).
 */
export function clusterDataCenter(
  dataCenters: readonly string[],
  needed: number,
  free: (dc: string) => number,
): string | undefined {
  let best: string | undefined;
  for (const dc of dataCenters) if (free(dc) >= needed && (best === undefined || free(dc) > free(best))) best = dc;
  return best;
}

/**
 * A new cluster from a v2 create body: all `podCount` pods of `gpuCountPerPod` GPUs of one type
 * in one data center, from the same stock as pods, each RUNNING, holding its GPUs and billed as
 * the cluster's; or a 400 naming what could not be found. The caller `put`s the cluster and its
 * members.
 */
export function createCluster(
  account: PodAccount & { readonly clusters: { readonly size: number } },
  services: PodServices,
  body: V2.CreateClusterRequest,
): { cluster: ClusterRecord; members: PodRecord[] } {
  const { catalog, capacity } = services;
  // The client sends any type (the set is open); the platform knows its enum (OpenAPI `ClusterType`).
  if (!(CLUSTER_TYPES as readonly string[]).includes(body.type)) {
    throw unprocessableField("type", body.type, `must be one of ${CLUSTER_TYPES.join(", ")}`);
  }
  const { gpuTypeId, gpuCountPerPod, podCount } = body.compute;
  const gpu = catalog.gpuType(gpuTypeId);
  if (!gpu) throw badField("compute.gpuTypeId", gpuTypeId, "is not a GPU type the platform knows");
  if (gpuCountPerPod > gpu.maxCount.secure) {
    throw badField("compute.gpuCountPerPod", gpuCountPerPod, `must be at most ${gpu.maxCount.secure} for ${gpuTypeId}`);
  }
  if (body.image === undefined) throw badField("image", undefined, "is required: the image every member pod runs");
  const network = body.mounts?.network?.[0];
  let dataCenters = body.dataCenterIds?.length ? body.dataCenterIds : catalog.dataCenters().map((d) => d.id);
  dataCenters = dataCenters.filter((dc) => catalog.dataCenter(dc) !== undefined);
  if (network) {
    const volume = account.networkVolumes.get(network.volumeId);
    if (!volume)
      throw badField("mounts.network.0.volumeId", network.volumeId, "is not a network volume of this account");
    dataCenters = dataCenters.filter((dc) => dc === volume.dataCenter);
  }
  const needed = podCount * gpuCountPerPod;
  // A member's GPUs are in machines of one size: the GPUs a data center can give members are
  // whole members' worth of each size's free GPUs.
  const usable = (dc: string) =>
    MACHINE_SIZE_ORDER.reduce((sum, size) => {
      const free = Math.max(0, capacity.free(dc, gpuTypeId, "gpu", size));
      return sum + Math.floor(free / gpuCountPerPod) * gpuCountPerPod;
    }, 0);
  const dataCenterId = clusterDataCenter(dataCenters, needed, usable);
  if (dataCenterId === undefined) {
    const narrowed = Boolean(body.dataCenterIds?.length) || network !== undefined;
    throw badField("compute.gpuTypeId", gpuTypeId, shortage(narrowed ? dataCenters : undefined, body.compute));
  }
  const now = account.meter.now();
  const cluster: ClusterRecord = {
    id: newClusterId(),
    name: body.name,
    type: body.type,
    compute: body.compute,
    dataCenterId,
    vxlanId: 1 + (account.clusters.size % 4000),
    createdAt: now,
  };
  const persistent = body.mounts?.persistent;
  const path = persistent?.path ?? network?.path ?? POD_DEFAULTS.volumeMountPath;
  const volumes = mountsOfV1(persistent?.size ?? 0, path, network?.volumeId);
  const members: PodRecord[] = [];
  // Members take the smallest machines first, as pods without placement filters do.
  const left = new Map(MACHINE_SIZE_ORDER.map((size) => [size, capacity.free(dataCenterId, gpuTypeId, "gpu", size)]));
  for (let rank = 0; rank < podCount; rank++) {
    const machine = MACHINE_SIZE_ORDER.find((size) => left.get(size)! >= gpuCountPerPod) ?? "standard";
    left.set(machine, left.get(machine)! - gpuCountPerPod);
    const env = { ...(body.env ?? {}), NODE_RANK: String(rank) };
    const switches = { startSsh: body.startSsh ?? false, startJupyter: body.startJupyter ?? false };
    const pod = newPodRecord(
      {
        id: newPodId(),
        name: `${body.name}-${rank}`,
        image: body.image,
        env: injectedEnv(account, switches, env),
        ports: body.ports ?? [],
        disk: body.disk,
        ...volumes,
        cudaVersion: catalog.values("cudaVersion")[0] ?? null,
        dataCenterId,
        gpu: { id: gpuTypeId, count: gpuCountPerPod },
        machine,
        cluster: { id: cluster.id, rank },
      },
      now,
      catalog,
    );
    // The data center was chosen for the whole cluster: every reservation fits.
    account.reservations.tryReserve(pod.id, pod);
    logLine(pod, now, "system", `pod created: node ${rank} of cluster ${cluster.id} in ${dataCenterId}`);
    startContainer(account, pod, now);
    meterPod(account, pod);
    members.push(pod);
  }
  return { cluster, members };
}

/**
 * Why a cluster could not be placed, in the platform's words (as a pod's refusal), plus what was
 * looked for: the whole cluster in one data center. `dataCenters`: those the request narrowed the
 * search to (its list, its network volume's), undefined when it could go anywhere.
 */
function shortage(dataCenters: readonly string[] | undefined, compute: V2.ClusterCompute): string {
  const { gpuTypeId, gpuCountPerPod, podCount } = compute;
  const where =
    dataCenters === undefined
      ? "no data center"
      : dataCenters.length
        ? `no data center of ${dataCenters.map((dc) => JSON.stringify(dc)).join(", ")}`
        : "no data center is left to place the cluster in, and none";
  const gpus = (n: number) => `${n} ${n === 1 ? "GPU" : "GPUs"}`;
  return `there are no instances currently available: ${where} has ${gpus(podCount * gpuCountPerPod)} of ${JSON.stringify(gpuTypeId)} free (${podCount} pods of ${gpus(gpuCountPerPod)}, all in one data center)`;
}

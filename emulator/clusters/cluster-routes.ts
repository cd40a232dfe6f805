import type { FastifyInstance } from "fastify";
import * as V2 from "../../sdk/schemas/v2";
import { rfc3339 } from "../billing/billing-buckets";
import { injectedEnv } from "../pods/pod-create";
import { meterPod, podCost } from "../pods/pod-lifecycle";
import { logLine, type PodRecord } from "../pods/pod-record";
import { renderPodV2 } from "../pods/pod-render";
import { parseV2Body } from "../pods/v2-request";
import type { ServerContext } from "../server/server-context";
import { badField, notFound } from "../server/http-errors";
import type { Account } from "../store/account";
import { newClusterId, newPodId } from "../store/ids";
import type { ClusterRecord } from "./cluster-record";

type IdParams = { Params: { id: string } };

function clusterOf(account: Account, id: string): ClusterRecord {
  const cluster = account.clusters.get(id);
  if (!cluster) throw notFound(`cluster ${id} not found`);
  return cluster;
}

/** The member pods of a cluster, by rank. */
export function membersOf(account: Account, clusterId: string): PodRecord[] {
  return [...account.pods.values()]
    .filter((p) => p.clusterId === clusterId)
    .sort((a, b) => (a.clusterRank ?? 0) - (b.clusterRank ?? 0));
}

/** The v2 answer (OpenAPI v2 `Cluster`). */
export function renderCluster(cluster: ClusterRecord, members: readonly PodRecord[]): V2.Cluster {
  const byStatus: Record<string, number> = {};
  for (const m of members) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
  const primary = members[0];
  return {
    id: cluster.id,
    name: cluster.name,
    type: cluster.type,
    compute: cluster.compute,
    dataCenterId: cluster.dataCenterId,
    pods: { total: members.length, byStatus },
    network: { cidr: "10.65.0.0/16", vxlanId: cluster.vxlanId, vxlanPort: 4789 },
    ...(primary ? { primary: { podId: primary.id, status: primary.status } } : {}),
    createdAt: rfc3339(cluster.createdAt),
  };
}

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
 * Management v2 routes of clusters (`/v2/clusters`, OpenAPI v2 tag "Clusters"): create (201: all
 * `podCount` pods of `gpuCountPerPod` GPUs of one type in one data center, from the same stock as
 * pods, or a 400 naming what could not be found), list, read, rename (`PATCH`), delete (204, with
 * its pods, their GPUs back to the stock), member pods. Members bill as the cluster's.
 */
export function registerClusterRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post("/v2/clusters", async (req, reply) => {
    const account = req.account;
    const body = parseV2Body(V2.CreateClusterRequestSchema, req.body);
    const { gpuTypeId, gpuCountPerPod, podCount } = body.compute;
    const gpu = ctx.catalog.gpuType(gpuTypeId);
    if (!gpu) throw badField("compute.gpuTypeId", gpuTypeId, "is not a GPU type the platform knows");
    if (gpuCountPerPod > gpu.maxCount.secure) {
      throw badField(
        "compute.gpuCountPerPod",
        gpuCountPerPod,
        `must be at most ${gpu.maxCount.secure} for ${gpuTypeId}`,
      );
    }
    if (body.image === undefined) throw badField("image", undefined, "is required: the image every member pod runs");
    const network = body.mounts?.network?.[0];
    let dataCenters = body.dataCenterIds?.length ? body.dataCenterIds : ctx.catalog.dataCenters().map((d) => d.id);
    dataCenters = dataCenters.filter((dc) => ctx.catalog.dataCenter(dc) !== undefined);
    if (network) {
      const volume = account.networkVolumes.get(network.volumeId);
      if (!volume)
        throw badField("mounts.network.0.volumeId", network.volumeId, "is not a network volume of this account");
      dataCenters = dataCenters.filter((dc) => dc === volume.dataCenterId);
    }
    const needed = podCount * gpuCountPerPod;
    const dataCenterId = clusterDataCenter(dataCenters, needed, (dc) => ctx.capacity.free(dc, gpuTypeId, "gpu"));
    if (dataCenterId === undefined) {
      throw badField(
        "compute",
        body.compute,
        `there are no instances currently available: no data center of ${dataCenters.join(", ") || "(none left)"} has ${needed} free GPUs of ${gpuTypeId} for ${podCount} pods of ${gpuCountPerPod}`,
      );
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
    const members: PodRecord[] = [];
    for (let rank = 0; rank < podCount; rank++) {
      const pod: PodRecord = {
        id: newPodId(),
        name: `${body.name}-${rank}`,
        status: "RUNNING",
        imageName: body.image,
        env: injectedEnv(
          account,
          { startSsh: body.startSsh ?? false, startJupyter: body.startJupyter ?? false },
          {
            ...(body.env ?? {}),
            NODE_RANK: String(rank),
          },
        ),
        ports: body.ports ?? [],
        containerDiskInGb: body.disk ?? 50,
        volumeInGb: body.mounts?.persistent?.size ?? 0,
        volumeMountPath: body.mounts?.persistent?.path ?? network?.path ?? "/workspace",
        dockerEntrypoint: [],
        dockerStartCmd: [],
        cloudType: "SECURE",
        interruptible: false,
        locked: false,
        globalNetworking: false,
        cudaVersion: ctx.catalog.values("cudaVersion")[0] ?? null,
        placement: { dataCenterId, gpuTypeId, gpuCount: gpuCountPerPod },
        costPerHr: 0,
        createdAt: now,
        startedAt: now,
        lastStatusChange: `Rented by User: ${new Date(now).toISOString()}`,
        containerDiskWipes: 0,
        clusterId: cluster.id,
        clusterRank: rank,
        logs: [],
      };
      if (network) pod.networkVolumeId = network.volumeId;
      pod.costPerHr = podCost(ctx.catalog, pod);
      // The data center was chosen for the whole cluster: every reservation fits.
      account.reservations.tryReserve(pod.id, pod.placement);
      logLine(pod, now, "system", `pod created: node ${rank} of cluster ${cluster.id} in ${dataCenterId}`);
      meterPod(account, pod);
      members.push(pod);
    }
    await account.clusters.put(cluster);
    await Promise.all(members.map((m) => account.pods.put(m)));
    return reply.code(201).send(renderCluster(cluster, members));
  });

  app.get("/v2/clusters", async (req) => ({
    clusters: [...req.account.clusters.values()].map((c) => renderCluster(c, membersOf(req.account, c.id))),
  }));

  app.get<IdParams>("/v2/clusters/:id", async (req) => {
    const cluster = clusterOf(req.account, req.params.id);
    return renderCluster(cluster, membersOf(req.account, cluster.id));
  });

  app.patch<IdParams>("/v2/clusters/:id", async (req) => {
    const cluster = clusterOf(req.account, req.params.id);
    const { name } = parseV2Body(V2.UpdateClusterRequestSchema, req.body);
    cluster.name = name;
    await req.account.clusters.put(cluster);
    return renderCluster(cluster, membersOf(req.account, cluster.id));
  });

  app.delete<IdParams>("/v2/clusters/:id", async (req, reply) => {
    const account = req.account;
    const cluster = clusterOf(account, req.params.id);
    account.meter.closeAll("cluster", cluster.id, "stage");
    await Promise.all(membersOf(account, cluster.id).map((m) => account.pods.delete(m.id)));
    await account.clusters.delete(cluster.id);
    return reply.code(204).send();
  });

  app.get<IdParams>("/v2/clusters/:id/pods", async (req) => {
    const cluster = clusterOf(req.account, req.params.id);
    const now = req.account.meter.now();
    return { pods: membersOf(req.account, cluster.id).map((p) => renderPodV2(p, now, ctx.catalog)) };
  });
}

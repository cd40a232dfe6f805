import type { FastifyInstance } from "fastify";
import * as V2 from "../../../sdk/schemas/v2";
import { createCluster } from "../../clusters/cluster-create";
import type { ClusterRecord } from "../../clusters/cluster-record";
import { membersOf, renderCluster } from "../../clusters/cluster-render";
import { renderPodV2 } from "../../pods/pod-render";
import type { ServerContext } from "../../server/server-context";
import { positionIn } from "../../server/list-pages";
import { notFound } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { parseV2Body } from "./request-body";

type IdParams = { Params: { id: string } };

function clusterOf(account: Account, id: string): ClusterRecord {
  const cluster = account.clusters.get(id);
  if (!cluster) throw notFound(`cluster ${id} not found`);
  return cluster;
}

/**
 * Management v2 routes of clusters (`/v2/clusters`, OpenAPI v2 tag "Clusters"): create (201: all
 * `podCount` pods of `gpuCountPerPod` GPUs of one type in one data center, from the same stock as
 * pods, or a 400 naming what could not be found), list, read, rename (`PATCH`), delete (204, with
 * its pods, their GPUs back to the stock), member pods. Members bill as the cluster's.
 */
export function registerClusterRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  app.post("/clusters", async (req, reply) => {
    const account = req.account;
    const { cluster, members } = createCluster(account, ctx, parseV2Body(V2.CreateClusterRequestSchema, req.body));
    await account.clusters.put(cluster);
    await Promise.all(members.map((m) => account.pods.put(m)));
    return reply.code(201).send(renderCluster(cluster, members));
  });

  app.get("/clusters", async (req) => {
    const clusters = req.account.clusters;
    return ctx.pages.answer(req, "clusters", clusters.values(), positionIn(clusters), (c) =>
      renderCluster(c, membersOf(req.account, c.id)),
    );
  });

  app.get<IdParams>("/clusters/:id", async (req) => {
    const cluster = clusterOf(req.account, req.params.id);
    return renderCluster(cluster, membersOf(req.account, cluster.id));
  });

  app.patch<IdParams>("/clusters/:id", async (req) => {
    const cluster = clusterOf(req.account, req.params.id);
    const { name } = parseV2Body(V2.UpdateClusterRequestSchema, req.body);
    cluster.name = name;
    await req.account.clusters.put(cluster);
    return renderCluster(cluster, membersOf(req.account, cluster.id));
  });

  app.delete<IdParams>("/clusters/:id", async (req, reply) => {
    const account = req.account;
    const cluster = clusterOf(account, req.params.id);
    account.meter.closeAll("cluster", cluster.id, "stage");
    await Promise.all(membersOf(account, cluster.id).map((m) => account.pods.delete(m.id)));
    await account.clusters.delete(cluster.id);
    return reply.code(204).send();
  });

  app.get<IdParams>("/clusters/:id/pods", async (req) => {
    const cluster = clusterOf(req.account, req.params.id);
    const now = req.account.meter.now();
    return ctx.pages.answer(req, "pods", membersOf(req.account, cluster.id), positionIn(req.account.pods), (p) =>
      renderPodV2(p, now, cluster.type),
    );
  });
}

import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import type { PageOptions } from "../paged-list";
import { PagedResourceV2, readEveryPage } from "./paged-resource";

const CLUSTER_PODS_PAGE = V2.pagedList("pods", V2.PodSchema);

/**
 * Clusters of management API v2 (`/v2/clusters`): groups of identical GPU pods placed together in
 * one data center. `create` (all pods placed, or a 400), `get`, `list` (unwrapped), `rename`
 * (`PATCH`: the only change a cluster takes), `delete` (with its pods), `pods` (its members).
 */
export class ClustersV2 extends PagedResourceV2<V2.Cluster, V2.CreateClusterRequest> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.clusters",
        path: "/clusters",
        noun: "cluster",
        schema: V2.ClusterSchema,
        listSchema: V2.ClusterListSchema,
        createSchema: V2.CreateClusterRequestSchema,
      },
      "clusters",
    );
  }

  /** `PATCH /v2/clusters/{id}`: a new name. */
  async rename(id: string, name: string, options?: CallOptions): Promise<V2.Cluster> {
    return this.sendUpdate(id, this.validated(V2.UpdateClusterRequestSchema, { name }, "rename"), options);
  }

  /** `GET /v2/clusters/{id}/pods`: the member pods, unwrapped, every page of them (`limit`: items per page). */
  async pods(id: string, options?: PageOptions): Promise<V2.Pod[]> {
    const path = `${this.itemPath(id)}/pods`;
    return readEveryPage(this.transport, "v2.clusters.pods", path, CLUSTER_PODS_PAGE, undefined, options);
  }
}

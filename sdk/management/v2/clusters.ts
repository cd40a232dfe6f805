import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { ManagementResource } from "../management-resource";

/**
 * Clusters of management API v2 (`/v2/clusters`): groups of identical GPU pods placed together in
 * one data center. `create` (all pods placed, or a 400), `get`, `list` (unwrapped), `rename`
 * (`PATCH`: the only change a cluster takes), `delete` (with its pods), `pods` (its members).
 */
export class ClustersV2 extends ManagementResource<V2.Cluster, V2.CreateClusterRequest> {
  constructor(transport: Transport) {
    super(transport, {
      version: "v2",
      api: "v2.clusters",
      path: "/clusters",
      noun: "cluster",
      schema: V2.ClusterSchema,
      listSchema: V2.ClusterListSchema,
      createSchema: V2.CreateClusterRequestSchema,
    });
  }

  /** `PATCH /v2/clusters/{id}`: a new name. */
  async rename(id: string, name: string, options?: CallOptions): Promise<V2.Cluster> {
    return this.sendUpdate(id, this.validated(V2.UpdateClusterRequestSchema, { name }, "rename"), options);
  }

  /** `GET /v2/clusters/{id}/pods`: the member pods, unwrapped. */
  async pods(id: string, options?: CallOptions): Promise<V2.Pod[]> {
    return this.send("pods", {
      method: "GET",
      path: `${this.itemPath(id)}/pods`,
      idempotent: true,
      schema: V2.ClusterPodListSchema,
      options,
    });
  }
}

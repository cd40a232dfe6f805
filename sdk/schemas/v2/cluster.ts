import { z } from "zod";
import { LIMITS } from "../limits";
import { nonEmpty, wrappedList } from "./common";
import { containerConfigFields, MountsSchema, PodSchema } from "./pod";

/*
 * Clusters of management API v2 (`/v2/clusters`): groups of identical GPU pods in one data
 * center (OpenAPI v2 `Cluster`, `CreateClusterRequest`, `UpdateClusterRequest`).
 */

/** Cluster types this release knows (OpenAPI v2 `ClusterType`): open, sent as given. */
export { CLUSTER_TYPES, type ClusterType } from "../platform-enums";

/** Most pods of one cluster (OpenAPI v2 `ClusterCompute.podCount`: 2 to 250). */
export const CLUSTER_POD_COUNT = LIMITS.clusterPodCount;

/** The homogeneous shape of a cluster (OpenAPI v2 `ClusterCompute`). */
export const ClusterComputeSchema = z.strictObject({
  gpuTypeId: nonEmpty,
  gpuCountPerPod: z.number().int("must be a whole number").min(1, "must be at least 1"),
  podCount: z
    .number()
    .int("must be a whole number")
    .min(CLUSTER_POD_COUNT.min, `must be at least ${CLUSTER_POD_COUNT.min}`)
    .max(CLUSTER_POD_COUNT.max, `must be at most ${CLUSTER_POD_COUNT.max}`),
});
/** A cluster's compute shape. */
export type ClusterCompute = z.infer<typeof ClusterComputeSchema>;

/**
 * Body of `POST /v2/clusters` (OpenAPI v2 `CreateClusterRequest`): the container settings of every
 * member pod (no `registry`: clusters cannot pull private images yet), its compute, and where.
 */
export const CreateClusterRequestSchema = z
  .strictObject({
    ...containerConfigFields,
    name: nonEmpty,
    // Open: a type the platform adds after this release is sent as given (CLUSTER_TYPES: the known ones).
    type: nonEmpty,
    compute: ClusterComputeSchema,
    dataCenterIds: z.array(nonEmpty),
    mounts: MountsSchema,
    startJupyter: z.boolean(),
    startSsh: z.boolean(),
  })
  .partial()
  .required({ name: true, type: true, compute: true });
/** Input for creating a cluster. */
export type CreateClusterRequest = z.infer<typeof CreateClusterRequestSchema>;

/** Body of `PATCH /v2/clusters/{id}` (OpenAPI v2 `UpdateClusterRequest`): a rename. */
export const UpdateClusterRequestSchema = z.strictObject({ name: nonEmpty });
/** Input for renaming a cluster. */
export type UpdateClusterRequest = z.infer<typeof UpdateClusterRequestSchema>;

/** A cluster as v2 answers it (OpenAPI v2 `Cluster`). */
export const ClusterSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  compute: z.object({ gpuTypeId: z.string(), gpuCountPerPod: z.number().int(), podCount: z.number().int() }),
  template: z.string().optional(),
  dataCenterId: z.string().optional(),
  pods: z.object({ total: z.number().int(), byStatus: z.record(z.string(), z.number().int()) }),
  network: z
    .object({ cidr: z.string(), vxlanId: z.number().int().optional(), vxlanPort: z.number().int().optional() })
    .optional(),
  primary: z.object({ podId: z.string(), status: z.string(), sshEndpoint: z.string().optional() }).optional(),
  createdAt: z.string(),
});
/** A cluster. */
export type Cluster = z.infer<typeof ClusterSchema>;

/** `GET /v2/clusters` (`{"clusters": [...]}`), unwrapped. */
export const ClusterListSchema = wrappedList("clusters", ClusterSchema);

/** `GET /v2/clusters/{id}/pods` (`{"pods": [...]}`), unwrapped. */
export const ClusterPodListSchema = wrappedList("pods", PodSchema);

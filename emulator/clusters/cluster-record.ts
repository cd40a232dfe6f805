import { z } from "zod";

/**
 * A cluster as the emulator keeps it (v2 `/v2/clusters`): its identity and shape; its member
 * pods are pods of the `pods` collection holding its id.
 */
export const ClusterRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  compute: z.object({ gpuTypeId: z.string(), gpuCountPerPod: z.number().int(), podCount: z.number().int() }),
  dataCenterId: z.string(),
  /** The overlay network's VXLAN id. */
  vxlanId: z.number().int(),
  createdAt: z.number(),
});
/** A stored cluster. */
export type ClusterRecord = z.infer<typeof ClusterRecordSchema>;

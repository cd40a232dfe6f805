import { z } from "zod";
import { LIMITS } from "../limits";
import { nonEmpty, VolumeTypeSchema, wrappedList } from "./common";

const sizeGb = z
  .number()
  .int("must be a whole number of GB")
  .min(LIMITS.volumeSizeGbV2.min, `must be at least ${LIMITS.volumeSizeGbV2.min} GB`)
  .max(LIMITS.volumeSizeGbV2.max, `must be at most ${LIMITS.volumeSizeGbV2.max} GB`);

/** A network volume as v2 returns it (OpenAPI `NetworkVolume`). Extra fields are tolerated. */
export const NetworkVolumeSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  dataCenter: z.string(),
  type: z.string(),
});
/** A network volume (v2). */
export type NetworkVolume = z.infer<typeof NetworkVolumeSchema>;

/** `GET /v2/network-volumes` (`{"networkVolumes": [...]}`), unwrapped. */
export const NetworkVolumeListSchema = wrappedList("networkVolumes", NetworkVolumeSchema);

/** Body of `POST /v2/network-volumes` (OpenAPI `CreateNetworkVolumeRequest`; no other field allowed). */
export const CreateNetworkVolumeRequestSchema = z.strictObject({
  name: nonEmpty,
  size: sizeGb,
  dataCenter: nonEmpty,
  type: VolumeTypeSchema.optional(),
});
/** Input for creating a network volume (v2). */
export type CreateNetworkVolumeRequest = z.infer<typeof CreateNetworkVolumeRequestSchema>;

/**
 * Body of `PATCH /v2/network-volumes/{id}` (OpenAPI `UpdateNetworkVolumeRequest`): at least one
 * field; `size` must be at least the current size (only the caller that knows it can check).
 */
export const UpdateNetworkVolumeRequestSchema = z
  .strictObject({ name: nonEmpty.optional(), size: sizeGb.optional() })
  .refine((body) => body.name !== undefined || body.size !== undefined, {
    message: "must change something: give name or size",
  });
/** Input for updating a network volume (v2). */
export type UpdateNetworkVolumeRequest = z.infer<typeof UpdateNetworkVolumeRequestSchema>;

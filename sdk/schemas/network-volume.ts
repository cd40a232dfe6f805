import { z } from "zod";
import { LIMITS } from "./limits";
import { platformId } from "./platform-values";

/** A size on either version: a whole number of GB, not below 0 (each version's range is `VERSION_BOUNDS`'s). */
const anySizeGb = z
  .number()
  .int("must be a whole number of GB")
  .min(LIMITS.volumeSizeGb.min, `must be at least ${LIMITS.volumeSizeGb.min} GB`);
/** A size on v1 (OpenAPI v1: 0 to 4000). */
const sizeGb = anySizeGb.max(LIMITS.volumeSizeGb.max, `must be at most ${LIMITS.volumeSizeGb.max} GB`);

/**
 * A network volume, as both API versions' answers are read (v1's shape; v2's `dataCenter` is
 * read as `dataCenterId`). `type` is its storage tier, which only v2 reports. Extra fields are
 * tolerated.
 */
export const NetworkVolumeSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  dataCenterId: z.string(),
  type: z.string().optional(),
});
/** A network volume. */
export type NetworkVolume = z.infer<typeof NetworkVolumeSchema>;

/** `GET /networkvolumes`. */
export const NetworkVolumeListSchema = z.array(NetworkVolumeSchema);

/**
 * Input for creating a network volume on either API version, its size bounded only below by 0:
 * v1's `NetworkVolumeCreateInput` (all three fields required) plus `type`, the storage tier, which
 * only v2 has (open: a tier the platform adds is accepted). Each version's size range (v1 0 to
 * 4000 GB, v2 10 to 4096) is `VERSION_BOUNDS.networkVolume`, which the version-neutral client and
 * the resource's `check` apply on the version they talk.
 */
export const NetworkVolumeCreateInputShape = z.object({
  name: z.string().min(1, "must not be empty"),
  size: anySizeGb,
  dataCenterId: platformId("dataCenter"),
  type: z.string().min(1, "must not be empty").optional(),
});

/**
 * Input for creating a network volume with v1's size range (0 to 4000 GB): the body management
 * API v1 takes (`NetworkVolumeCreateInputShape` without the range is what either version takes).
 */
export const NetworkVolumeCreateInputSchema = NetworkVolumeCreateInputShape.extend({ size: sizeGb });
/** Input for creating a network volume (on either version; each version's size range applies). */
export type NetworkVolumeCreateInput = z.infer<typeof NetworkVolumeCreateInputSchema>;

/**
 * Body of `PATCH /networkvolumes/{id}` and its synonym `POST /networkvolumes/{id}/update`
 * (the OpenAPI's `NetworkVolumeUpdateInput`: no field required; `size` must exceed the current size,
 * which only the caller that knows the current size can check).
 */
export const NetworkVolumeUpdateInputSchema = z.object({
  name: z.string().min(1, "must not be empty").optional(),
  size: sizeGb.optional(),
});
/** Input for updating a network volume. */
export type NetworkVolumeUpdateInput = z.infer<typeof NetworkVolumeUpdateInputSchema>;

/** `NetworkVolumeUpdateInputSchema` on either version: the size bounded only below by 0 (`VERSION_BOUNDS` holds each range). */
export const NetworkVolumeUpdateInputShape = NetworkVolumeUpdateInputSchema.extend({ size: anySizeGb.optional() });

/**
 * The platform's size-only-grows rule (NetworkVolumeUpdateInput.size: "Must be greater than the
 * current size"). Returns a reason when `requested` is not allowed, else undefined.
 */
export function volumeSizeChangeProblem(current: number, requested: number): string | undefined {
  if (requested >= current) return undefined;
  return `size can only grow: the volume has ${current} GB and ${requested} GB was requested; network volumes cannot shrink`;
}

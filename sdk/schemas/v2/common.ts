import { z } from "zod";

/*
 * Building blocks of the management API v2 wire schemas (`management-api-v2.openapi.json`,
 * "Runpod REST API" 2.0.0). Enumerations the platform grows (volume tiers, pools, GPU types,
 * data centers) are read and sent as open strings: a value the platform adds after this release
 * is usable the same day. Closed ones (`type` of an endpoint, pod actions) are enums.
 */

/** A non-empty string, as the OpenAPI's `minLength: 1`. */
export const nonEmpty = z.string().min(1, "must not be empty");

/** A `major.minor` version, as the OpenAPI's CUDA version pattern. */
export const majorMinor = z.string().regex(/^\d+\.\d+$/, 'must be written major.minor, such as "12.4"');

/** A storage tier of a network volume (OpenAPI `VolumeType`, open: a newer tier is accepted). */
export const VolumeTypeSchema = nonEmpty;

/** The tiers this release knows (OpenAPI `VolumeType`). */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;

/**
 * A wrapped list answer (`{"networkVolumes": [...]}`), unwrapped for the caller: the client
 * returns the array, as v1 did.
 */
export function wrappedList<T extends z.ZodType>(key: string, item: T) {
  return z.object({ [key]: z.array(item) }).transform((answer) => answer[key] as z.output<T>[]);
}

import { z } from "zod";
import { LIMITS } from "../limits";

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

/**
 * The `pagination` object of a paged list answer: follow `nextCursor` while `hasNextPage` is
 * true. Whether `nextCursor` is null, empty or absent on the last page is not documented: all
 * three are read as "no cursor".
 */
export const PaginationSchema = z.object({
  hasNextPage: z.boolean(),
  nextCursor: z.string().nullish(),
});

/** The `pagination` object of a paged list answer. */
export type Pagination = z.output<typeof PaginationSchema>;

/** `limit` of a paged list: a whole number of items per page, 1 to 1000. */
export const PageLimitSchema = z
  .number()
  .int("must be a whole number")
  .min(LIMITS.listPageSize.min, `must be at least ${LIMITS.listPageSize.min}`)
  .max(LIMITS.listPageSize.max, `must be at most ${LIMITS.listPageSize.max}`);

/**
 * One page of a paged list answer (`{"pods": [...], "pagination": {...}}`) as
 * `{ items, hasNextPage, nextCursor }`. An answer without `pagination` (a platform that does not
 * page this list, as the held OpenAPI document describes it) is one page holding everything.
 */
export function pagedList<T extends z.ZodType>(key: string, item: T) {
  return z.object({ [key]: z.array(item), pagination: PaginationSchema.optional() }).transform((answer) => {
    // The computed key widens the object's type; `pagination` is what its schema says.
    const pagination = answer.pagination as Pagination | undefined;
    return {
      items: answer[key] as z.output<T>[],
      hasNextPage: pagination?.hasNextPage ?? false,
      nextCursor: pagination?.nextCursor || undefined,
    };
  });
}

import { z } from "zod";
import { EndpointSchema } from "../../sdk/schemas";

/**
 * What the emulator keeps of an endpoint: the version-neutral answer's fields (v1's names), plus
 * what only v2 says (one record, answered in both dialects). A record created through
 * v1 holds v1's fields only; one created or changed through v2 may hold:
 *
 * - `type` (`QUEUE` | `LOAD_BALANCER`), chosen at create;
 * - `gpuPools` and `excludedGpuTypes` instead of `gpuTypeIds` (a record holds one GPU selection:
 *   a write in either form replaces the other; each dialect's answer derives its own form from
 *   the emulator's catalog);
 * - its own container settings (`image`, `args`, `disk`, `ports`, `registry`; `env` is v1's
 *   field): v2 copies a template's settings into the endpoint once and keeps no link, so such a
 *   record has no `templateId` and runs the handler its `image` names;
 * - `cpu`, v2's CPU configurations when their vCPU counts differ (v1's `cpuFlavorIds` and
 *   `vcpuCount` hold the first count);
 * - `releases`, one per change of the container settings (oldest first; environment values are
 *   never kept in them, only the variables' names).
 */
export const EndpointRecordSchema = EndpointSchema.extend({
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().int().optional(),
  ports: z.array(z.string()).optional(),
  registry: z.string().optional(),
  cpu: z.array(z.object({ id: z.string(), vcpuCount: z.number().int() })).optional(),
  releases: z
    .array(
      z.object({
        id: z.string(),
        version: z.number().int(),
        createdAt: z.string(),
        diff: z.array(z.object({ field: z.string(), old: z.unknown(), new: z.unknown() })),
      }),
    )
    .optional(),
});
/** A stored endpoint. */
export type EndpointRecord = z.infer<typeof EndpointRecordSchema>;
/** One release of a stored endpoint. */
export type EndpointRelease = NonNullable<EndpointRecord["releases"]>[number];

/** The fields of an endpoint's container settings, whose changes make a release. */
export const CONTAINER_FIELDS = ["templateId", "image", "args", "disk", "ports", "env", "registry"] as const;

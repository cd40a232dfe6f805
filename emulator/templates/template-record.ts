import { z } from "zod";
import { argsFromWords, type Template, TEMPLATE_DEFAULTS, TemplateSchema } from "../../sdk/schemas";
import * as V2 from "../../sdk/schemas/v2";

/*
 * A template as the emulator keeps it: v2's answer (OpenAPI v2 `Template`) in v2's names, one
 * record answered in both dialects (template-render.ts), plus what only v1 says of a template.
 * v1's routes translate at their edge (template-writes.ts): `imageName` is `image`,
 * `containerDiskInGb` is `disk`, `volumeInGb` and `volumeMountPath` are `mounts.persistent`,
 * `dockerStartCmd`'s words are `args` (shell-quoted: every list of words comes back whole),
 * `containerRegistryAuthId` is `registry`, `isServerless` and `isPublic` are `serverless` and
 * `public`.
 */

/**
 * What the emulator keeps of a template. It holds the values as written, where v2's answer reads
 * them its own way: a `disk` of 0 (v1 allows it) answers as v2's 1 GB minimum, and a persistent
 * mount below 10 GB as 10 GB, of size 0 as no mount (v1 keeps the path of a template without a
 * volume). `startSsh` and `startJupyter` are absent on a template made through v1 (v2 reads them
 * as on; a v2 update that turns one on injects its env). `v1` holds v1's fields v2 has no place
 * for: the entrypoint, the readme, and the platform's own flag and usage counters.
 */
export const TemplateRecordSchema = V2.TemplateSchema.extend({
  args: z.string(),
  disk: z.number().int(),
  env: z.record(z.string(), z.string()),
  ports: z.array(z.string()),
  /** The registry credential's id; absent for none (v2 answers `null`). */
  registry: z.string().optional(),
  mounts: z.object({ persistent: z.object({ size: z.number().int(), path: z.string() }) }),
  serverless: z.boolean(),
  public: z.boolean(),
  category: z.string(),
  v1: z.object({
    dockerEntrypoint: z.array(z.string()),
    readme: z.string(),
    isRunpod: z.boolean(),
    earned: z.number(),
    runtimeInMin: z.number(),
  }),
});
/** A stored template. */
export type TemplateRecord = z.infer<typeof TemplateRecordSchema>;

/** What state files before version 2 kept of a template: v1's answer, with v2's switches and CUDA versions. */
export const TemplateRecordV1Schema = TemplateSchema.extend({
  startSsh: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
});

/** A record as state files before version 2 kept it (v1's names): the record it is now. */
export function migrateTemplateRecord(old: z.infer<typeof TemplateRecordV1Schema>): TemplateRecord {
  return templateRecordOfV1Fields(old, {
    ...(old.startSsh === undefined ? {} : { startSsh: old.startSsh }),
    ...(old.startJupyter === undefined ? {} : { startJupyter: old.startJupyter }),
    ...(old.allowedCudaVersions === undefined ? {} : { allowedCudaVersions: old.allowedCudaVersions }),
  });
}

/** A record of a template in v1's names (`Template`, OpenAPI v1), with v2's own fields given apart. */
export function templateRecordOfV1Fields(
  t: Template,
  v2Only: Pick<TemplateRecord, "startSsh" | "startJupyter" | "allowedCudaVersions">,
): TemplateRecord {
  const d = TEMPLATE_DEFAULTS;
  return {
    id: t.id,
    name: t.name,
    image: t.imageName,
    args: argsFromWords(t.dockerStartCmd ?? []),
    disk: t.containerDiskInGb ?? d.containerDiskInGb,
    mounts: { persistent: { size: t.volumeInGb ?? 0, path: t.volumeMountPath ?? d.volumeMountPath } },
    ports: [...(t.ports ?? [])],
    env: { ...(t.env ?? {}) },
    ...(t.containerRegistryAuthId ? { registry: t.containerRegistryAuthId } : {}),
    serverless: t.isServerless ?? d.isServerless,
    public: t.isPublic ?? d.isPublic,
    category: t.category ?? d.category,
    ...v2Only,
    v1: {
      dockerEntrypoint: [...(t.dockerEntrypoint ?? [])],
      readme: t.readme ?? d.readme,
      isRunpod: t.isRunpod ?? false,
      earned: t.earned ?? 0,
      runtimeInMin: t.runtimeInMin ?? 0,
    },
  };
}

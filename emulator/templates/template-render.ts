import { type Template, TEMPLATE_DEFAULTS, wordsFromArgs } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import type { TemplateRecord } from "./template-record";

/*
 * One template record answered in two dialects: v1's answer reads the record in v1's names and
 * leaves out what only v2 has (`startSsh`, `startJupyter`, `allowedCudaVersions`), so it keeps
 * matching v1's OpenAPI; v2's answer is the record as v2 reads it.
 */

/** The v1 answer (v1 OpenAPI `Template`). */
export function renderTemplateV1(t: TemplateRecord): Template {
  return {
    id: t.id,
    name: t.name,
    imageName: t.image,
    category: t.category,
    containerDiskInGb: t.disk,
    volumeInGb: t.mounts.persistent.size,
    volumeMountPath: t.mounts.persistent.path,
    isServerless: t.serverless,
    isPublic: t.public,
    env: { ...t.env },
    ports: [...t.ports],
    readme: t.v1.readme,
    dockerEntrypoint: [...t.v1.dockerEntrypoint],
    dockerStartCmd: wordsFromArgs(t.args),
    ...(t.registry === undefined ? {} : { containerRegistryAuthId: t.registry }),
    isRunpod: t.v1.isRunpod,
    earned: t.v1.earned,
    runtimeInMin: t.v1.runtimeInMin,
  };
}

/**
 * The v2 answer (OpenAPI v2 `Template`). A template created through v1 reads with v2's defaults
 * for what v1 did not have (`startSsh` and `startJupyter` true, no CUDA constraint); a v1 volume
 * below the platform's 10 GB floor of persistent mounts reads as 10 GB, and a 0 GB container disk
 * as v2's 1 GB minimum.
 */
export function renderTemplateV2(t: TemplateRecord): V2.Template {
  const { size, path } = t.mounts.persistent;
  return {
    id: t.id,
    name: t.name,
    image: t.image,
    args: t.args,
    disk: Math.max(1, t.disk ?? TEMPLATE_DEFAULTS.containerDiskInGb),
    mounts: size > 0 ? { persistent: { size: Math.max(10, size), path } } : {},
    ports: [...t.ports],
    env: { ...t.env },
    registry: t.registry ?? null,
    serverless: t.serverless,
    public: t.public,
    category: t.category,
    startSsh: t.startSsh ?? true,
    startJupyter: t.startJupyter ?? true,
    allowedCudaVersions: [...(t.allowedCudaVersions ?? [])],
  };
}

import { argsFromWords, type Template, TEMPLATE_DEFAULTS } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import type { TemplateRecord } from "./template-record";

/*
 * One template record answered in two dialects: v1's answer leaves out what only v2 has
 * (`startSsh`, `startJupyter`, `allowedCudaVersions`), so it keeps matching v1's OpenAPI; v2's
 * answer reads v1's fields the v2 way (`image`, `disk`, `mounts.persistent`, `args`, `registry`).
 */

/** The v1 answer (v1 OpenAPI `Template`). */
export function renderTemplateV1(t: TemplateRecord): Template {
  const { startSsh: _ssh, startJupyter: _jupyter, allowedCudaVersions: _cuda, args: _args, ...v1 } = t;
  return v1;
}

/**
 * The v2 answer (OpenAPI v2 `Template`). A template created through v1 reads with v2's defaults
 * for what v1 did not have (`startSsh` and `startJupyter` true, no CUDA constraint); a v1 volume
 * below the platform's 10 GB floor of persistent mounts reads as 10 GB, and a 0 GB container disk
 * as v2's 1 GB minimum.
 */
export function renderTemplateV2(t: TemplateRecord): V2.Template {
  const size = t.volumeInGb ?? 0;
  return {
    id: t.id,
    name: t.name,
    image: t.imageName,
    args: argsFromWords(t.dockerStartCmd ?? []),
    disk: Math.max(1, t.containerDiskInGb ?? TEMPLATE_DEFAULTS.containerDiskInGb),
    mounts:
      size > 0
        ? { persistent: { size: Math.max(10, size), path: t.volumeMountPath ?? TEMPLATE_DEFAULTS.volumeMountPath } }
        : {},
    ports: [...(t.ports ?? [])],
    env: { ...(t.env ?? {}) },
    registry: t.containerRegistryAuthId ?? null,
    serverless: t.isServerless ?? false,
    public: t.isPublic ?? false,
    category: t.category ?? TEMPLATE_DEFAULTS.category,
    startSsh: t.startSsh ?? true,
    startJupyter: t.startJupyter ?? true,
    allowedCudaVersions: [...(t.allowedCudaVersions ?? [])],
  };
}

import type { RunpodClient } from "../sdk/client";
import { RunpodError } from "../sdk/errors";
import { argsFromWords, type Endpoint, type Template } from "../sdk/schemas";
import { sameValue } from "./property-values";

/*
 * Rolling the endpoints of a template on management API v2. v1 links an endpoint to
 * its template and rolls it when the template changes; v2 copies a template's container settings
 * into the endpoint at create and keeps no link, so a template update alone changes no endpoint.
 * v2 re-applies a template to an endpoint with `PATCH {templateId}`. Which endpoints to re-apply
 * to, without a link: those holding exactly the template's previous container settings (image,
 * arguments, disk, ports, registry credential, and every env var of the template with its value),
 * which is what an endpoint created from the template, or re-applied since, holds. An endpoint
 * with settings of its own differs and is left alone; one with a link (v1's) is rolled by the
 * platform. See docs/api-versions.md for the one case this cannot tell apart: an endpoint of
 * another template whose settings are identical to this template's previous ones.
 */

/** The container settings a template gives an endpoint, as v2 holds them on the endpoint. */
export interface ContainerSettings {
  imageName: string;
  args: string;
  containerDiskInGb?: number | undefined;
  ports: readonly string[];
  env: Readonly<Record<string, string>>;
  containerRegistryAuthId?: string | undefined;
}

/** The container settings of a template (neutral shape, either version). */
export function containerOfTemplate(t: Template): ContainerSettings {
  return {
    imageName: t.imageName,
    args: t.args ?? argsFromWords(t.dockerStartCmd ?? []),
    containerDiskInGb: t.containerDiskInGb,
    ports: t.ports ?? [],
    env: t.env ?? {},
    containerRegistryAuthId: t.containerRegistryAuthId || undefined,
  };
}

/** Whether `endpoint` has no template link and holds exactly the container settings `settings`. */
export function holdsSettings(endpoint: Endpoint, settings: ContainerSettings): boolean {
  const c = endpoint.container;
  if (endpoint.templateId !== undefined || c === undefined) return false;
  const env = c.env ?? {};
  return (
    c.imageName === settings.imageName &&
    (c.args ?? "") === settings.args &&
    (settings.containerDiskInGb === undefined || c.containerDiskInGb === settings.containerDiskInGb) &&
    sameValue(c.ports ?? [], [...settings.ports], false) &&
    (c.containerRegistryAuthId || undefined) === settings.containerRegistryAuthId &&
    Object.entries(settings.env).every(([name, value]) => env[name] === value)
  );
}

/** Whether two settings differ in anything an endpoint runs. */
export function settingsDiffer(a: ContainerSettings, b: ContainerSettings): boolean {
  return !sameValue({ ...a, ports: [...a.ports].sort() }, { ...b, ports: [...b.ports].sort() });
}

/**
 * Re-applies template `templateId` (already updated) to every endpoint of the account that holds
 * its `previous` settings, one at a time (each is a rolling release); returns them as updated. A
 * failure names the endpoints not yet re-applied: the update is reported failed, the state keeps
 * the previous settings, and the next `pulumi up` re-applies to the rest.
 */
export async function reapplyTemplate(
  client: RunpodClient,
  templateId: string,
  previous: ContainerSettings,
): Promise<Endpoint[]> {
  // A fresh list, never a refresh's (listings.ts): this runs inside the template's update, a
  // change, and must see the endpoints as they are after it.
  const targets = (await client.endpoints.list()).filter((e) => holdsSettings(e, previous));
  const done: Endpoint[] = [];
  for (const { id } of targets) {
    try {
      done.push(await client.endpoints.update(id, { templateId }));
    } catch (err) {
      const rest = targets.filter((t) => !done.some((d) => d.id === t.id)).map((t) => t.id);
      throw new RunpodError(
        err instanceof RunpodError ? err.code : "api_error",
        `template ${templateId} was updated, but re-applying it to endpoint(s) ${rest.join(", ")} failed (${(err as Error).message}); run pulumi up again to re-apply it to them`,
        { cause: err },
      );
    }
  }
  return done;
}

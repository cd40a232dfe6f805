import { isDeepStrictEqual } from "node:util";
import { randomId } from "../records/ids";
import { containerOfTemplate } from "./endpoint-render";
import { CONTAINER_FIELDS, type EndpointRecord, type EndpointRelease } from "./endpoint-record";
import type { TemplateRecord } from "../templates/template-record";

/**
 * The fields whose change restarts an endpoint's workers: its container settings, and where and on
 * what they run (GPU or CPU selection, data centers, network volumes; `v1` holds v1's forms of
 * these). Names, scaling, worker bounds, timeouts and flash boot apply at once and roll nothing.
 */
export const ROLLING_FIELDS = [...CONTAINER_FIELDS, "gpu", "cpu", "dataCenterIds", "networkVolumes", "v1"] as const;

/** What releases are made of: an endpoint's rolling settings, in either of its forms (the record, or v1's view of it). */
type ReleaseSubject = { id: string } & Partial<
  Pick<EndpointRecord, (typeof ROLLING_FIELDS)[number] | "createdAt" | "version" | "releases">
>;

/*
 * An endpoint's releases (v2 `/v2/serverless/{id}/releases`): one at creation and one per change
 * of what its workers run (OpenAPI v2 `updateEndpoint`: "container-affecting changes create a
 * new endpoint release that rolls out as workers cycle"; a release's diff names fields such as
 * `gpuCount` and `template.imageName`), or of the template a v1 endpoint is linked to. Scaling
 * and worker bounds apply at once and make none. Environment values never enter a release: a
 * changed variable is named with its values hidden.
 */

/** Releases kept per endpoint, newest last. */
export const RELEASES_KEPT = 50;

const HIDDEN = "[hidden]";

/** Whether two values are the same as JSON (absent and undefined alike), whatever their keys' order. */
function same(a: unknown, b: unknown): boolean {
  const json = (v: unknown) => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown));
  return isDeepStrictEqual(json(a), json(b));
}

/** The container fields that differ between two records, as release diff entries (null: absent). */
export function containerDiff(before: ReleaseSubject | undefined, after: ReleaseSubject): EndpointRelease["diff"] {
  const diff: EndpointRelease["diff"] = [];
  for (const field of ROLLING_FIELDS) {
    if (field === "env") {
      diff.push(...envDiff("env", before?.env ?? {}, after.env ?? {}));
      continue;
    }
    const old = before?.[field];
    const now = after[field];
    if (!same(old, now)) diff.push({ field, old: old ?? null, new: now ?? null });
  }
  return diff;
}

/** Changed variables of two environments, named `<prefix>.<name>`, their values hidden. */
function envDiff(
  prefix: string,
  old: Readonly<Record<string, string>>,
  now: Readonly<Record<string, string>>,
): EndpointRelease["diff"] {
  const names = [...new Set([...Object.keys(old), ...Object.keys(now)])].sort();
  return names
    .filter((name) => old[name] !== now[name])
    .map((name) => ({
      field: `${prefix}.${name}`,
      old: name in old ? HIDDEN : null,
      new: name in now ? HIDDEN : null,
    }));
}

/** The release fields of a template's container settings, as a release names them (`template.imageName`). */
const TEMPLATE_RELEASE_FIELDS = {
  image: "template.imageName",
  args: "template.dockerArgs",
  disk: "template.containerDiskInGb",
  ports: "template.ports",
  registry: "template.containerRegistryAuthId",
} as const;

/**
 * A v1 endpoint linked to a template, after the template changed: with a new version and a release
 * naming what changed of its container settings; the endpoint itself when nothing it runs changed.
 */
export function withTemplateRelease(
  endpoint: EndpointRecord,
  before: TemplateRecord,
  after: TemplateRecord,
  at: string,
): EndpointRecord {
  const old = containerOfTemplate(before);
  const now = containerOfTemplate(after);
  const diff: EndpointRelease["diff"] = [];
  for (const [key, field] of Object.entries(TEMPLATE_RELEASE_FIELDS) as [
    keyof typeof TEMPLATE_RELEASE_FIELDS,
    string,
  ][]) {
    if (!same(old[key], now[key])) diff.push({ field, old: old[key] ?? null, new: now[key] ?? null });
  }
  diff.push(...envDiff("template.env", old.env, now.env));
  if (diff.length === 0) return endpoint;
  const version = endpoint.version + 1;
  const release = { id: randomId(10), version, createdAt: at, diff };
  return { ...endpoint, version, releases: [...releasesOf(endpoint), release].slice(-RELEASES_KEPT) };
}

/** The releases of a record; a record that never changed its container (or was stored before releases) has its first. */
export function releasesOf(r: ReleaseSubject): EndpointRelease[] {
  return r.releases ?? [{ id: `${r.id}-0`, version: 0, createdAt: r.createdAt ?? new Date(0).toISOString(), diff: [] }];
}

/** `after` with a new release (at `after.version`) when its container settings differ from `before`'s. */
export function withRelease<T extends ReleaseSubject>(before: T | undefined, after: T, at: string): T {
  const diff = containerDiff(before, after);
  if (before !== undefined && diff.length === 0) return after;
  const release = { id: randomId(10), version: after.version ?? 0, createdAt: at, diff };
  const kept = before === undefined ? [] : releasesOf(before);
  return { ...after, releases: [...kept, release].slice(-RELEASES_KEPT) };
}

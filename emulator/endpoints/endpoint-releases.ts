import { randomId } from "../records/ids";
import { CONTAINER_FIELDS, type EndpointRecord, type EndpointRelease } from "./endpoint-record";

/** What releases are made of: an endpoint's container settings, in either of its forms (the record, or v1's view of it). */
type ReleaseSubject = { id: string } & Partial<
  Pick<EndpointRecord, (typeof CONTAINER_FIELDS)[number] | "createdAt" | "version" | "releases">
>;

/*
 * An endpoint's releases (v2 `/v2/serverless/{id}/releases`): one at creation and one per change
 * of its container settings (OpenAPI v2 `updateEndpoint`: "container-affecting changes create a
 * new endpoint release that rolls out as workers cycle"). Scaling and worker bounds apply at once
 * and make none. Environment values never enter a release: a changed variable is named with its
 * values hidden.
 */

/** Releases kept per endpoint, newest last. */
export const RELEASES_KEPT = 50;

const HIDDEN = "[hidden]";

/** The container fields that differ between two records, as release diff entries (null: absent). */
export function containerDiff(before: ReleaseSubject | undefined, after: ReleaseSubject): EndpointRelease["diff"] {
  const diff: EndpointRelease["diff"] = [];
  for (const field of CONTAINER_FIELDS) {
    if (field === "env") {
      const old = before?.env ?? {};
      const now = after.env ?? {};
      for (const name of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort()) {
        if (old[name] === now[name]) continue;
        diff.push({ field: `env.${name}`, old: name in old ? HIDDEN : null, new: name in now ? HIDDEN : null });
      }
      continue;
    }
    const old = before?.[field];
    const now = after[field];
    if (JSON.stringify(old) !== JSON.stringify(now)) diff.push({ field, old: old ?? null, new: now ?? null });
  }
  return diff;
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

import type { VolumeRef } from "./s3-connections";
import type { VolumeS3Client } from "./volume-s3-client";
import { bareEtag, type ManifestEntry, matchesListing, type VolumeManifest, writtenEntry } from "./volume-manifest";

/** What a listing shows of a sync's files on the volume. */
export interface DriftReport {
  /**
   * The manifest as the volume has it: files gone from the volume dropped, files changed there
   * marked `drifted` (with the size and ETag seen), so the next sync writes them again.
   */
  manifest: VolumeManifest;
  /** Names of files changed on the volume (size or ETag differ). */
  changed: string[];
  /** Names of files no longer on the volume. */
  missing: string[];
}

/**
 * Finds drift of a sync's files (changed or removed on the volume by hand) from one listing of the
 * prefix: sizes and ETags, never the files' contents. Files the sync did not put there are ignored.
 */
export async function detectDrift(
  client: VolumeS3Client,
  volume: VolumeRef,
  prefix: string,
  manifest: VolumeManifest,
  signal?: AbortSignal,
): Promise<DriftReport> {
  const seen = new Map<string, { size: number; etag: string }>();
  for await (const o of client.list(volume, prefix, signal)) seen.set(o.key, o);
  const next: Record<string, ManifestEntry> = {};
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [name, entry] of Object.entries(manifest)) {
    const remote = seen.get(`${prefix}${name}`);
    if (!remote) {
      missing.push(name);
    } else if (entry.drifted || !matchesListing(entry, remote.size, remote.etag)) {
      changed.push(name);
      next[name] = { ...entry, size: remote.size, etag: remote.etag.replace(/"/g, ""), drifted: true };
    } else {
      next[name] = entry;
    }
  }
  return { manifest: next, changed, missing };
}

/** Up to this many files to look for, each is asked for by itself (HeadObject); more, by one listing of the prefix. */
const HEADS_AT_MOST = 16;

/**
 * The files of `files` the volume already holds as planned (same size, and an ETag that is the
 * content's MD5: written whole), as manifest entries: what a killed run wrote before it died, or
 * a file put there by other means, so a sync need not send them again. A file written in parts
 * has an ETag that is not its MD5 and is sent again. Never reads a file's content.
 */
export async function findWritten(
  client: VolumeS3Client,
  volume: VolumeRef,
  prefix: string,
  files: readonly { name: string; key: string; size: number; sha256: string; md5: string }[],
  signal?: AbortSignal,
): Promise<VolumeManifest> {
  const seen = new Map<string, { size: number; etag: string }>();
  if (files.length === 0) return {};
  if (files.length <= HEADS_AT_MOST) {
    const found = await Promise.all(files.map((f) => client.head(volume, f.key)));
    for (const o of found) if (o) seen.set(o.key, o);
  } else {
    for await (const o of client.list(volume, prefix, signal)) seen.set(o.key, o);
  }
  const written: Record<string, ManifestEntry> = {};
  for (const f of files) {
    const remote = seen.get(f.key);
    if (remote && remote.size === f.size && bareEtag(remote.etag) === f.md5) {
      written[f.name] = writtenEntry(f.size, f.sha256, f.md5, remote.etag);
    }
  }
  return written;
}

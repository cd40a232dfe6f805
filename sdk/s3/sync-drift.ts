import type { VolumeRef } from "./s3-connections";
import type { VolumeS3Client } from "./volume-s3-client";
import { type ManifestEntry, matchesListing, type VolumeManifest } from "./volume-manifest";

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

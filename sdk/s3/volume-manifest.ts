import { createHash } from "node:crypto";

/**
 * What the state keeps of one file put on a volume: its size and content hash, and what the
 * platform's listing will show of it (its ETag), so drift is found from a listing without reading
 * the file back. `md5` is kept only when the ETag is not the content's MD5 (a multipart upload's
 * `<md5 of parts>-<n>`), since a platform that recomputes ETags lazily may show the MD5 instead.
 */
export interface ManifestEntry {
  size: number;
  /** SHA-256 of the content (hex). */
  sha256: string;
  /** The ETag the platform gave when it was written (hex, no quotes). */
  etag: string;
  /** The content's MD5 (hex), when `etag` is not it. */
  md5?: string;
  /** Found changed on the volume by a refresh: the next update writes it again. */
  drifted?: true;
}

/** The files a sync put on a volume, by name relative to its prefix. */
export type VolumeManifest = Readonly<Record<string, ManifestEntry>>;

/** An ETag without its quotes, in lower case. */
export function bareEtag(etag: string): string {
  return etag.replace(/^W\//, "").replace(/"/g, "").toLowerCase();
}

/** The entry of a file just written: `md5` kept only when the ETag is not it. */
export function writtenEntry(size: number, sha256: string, md5: string, etag: string): ManifestEntry {
  const bare = bareEtag(etag);
  return bare === md5 ? { size, sha256, etag: bare } : { size, sha256, etag: bare, md5 };
}

/** Whether a listing's size and ETag show the file as it was written. */
export function matchesListing(entry: ManifestEntry, size: number, etag: string): boolean {
  const bare = bareEtag(etag);
  return size === entry.size && (bare === entry.etag || bare === entry.md5);
}

/**
 * One hash of a whole set of files (hex SHA-256 over each name, content hash and size, in name
 * order): it changes exactly when a file is added, removed, renamed or changed, so an endpoint can
 * be made to roll when the weights change.
 */
export function setHash(files: Readonly<Record<string, { sha256: string; size: number }>>): string {
  const hash = createHash("sha256");
  for (const name of Object.keys(files).sort()) {
    const f = files[name]!;
    hash.update(`${name}\u0000${f.sha256}\u0000${f.size}\n`);
  }
  return hash.digest("hex");
}

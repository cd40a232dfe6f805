import { RunpodError } from "../errors";
import type { VolumeRef } from "./s3-connections";
import { forEachLimited } from "./pool";
import type { PlannedFile, SyncPlan } from "./sync-plan";
import type { VolumeS3Client } from "./volume-s3-client";
import { type ManifestEntry, type VolumeManifest, writtenEntry } from "./volume-manifest";

/** How far a sync has got: bytes and files done of the total it sends. */
export interface SyncProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Files deleted so far, of those the plan removes. */
  removedDone: number;
  removedTotal: number;
}

/** Options of {@link runSync}. */
export interface SyncRunOptions {
  /** Called as bytes go (at most every `progressIntervalMs`) and whenever a file is done. */
  onProgress?: ((progress: SyncProgress) => void) | undefined;
  /** Default 500 ms. */
  progressIntervalMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What a sync did. */
export interface SyncResult {
  /** What the volume now holds of the sync's files: the state's new manifest. */
  manifest: VolumeManifest;
  uploaded: number;
  removed: number;
  /** Multipart uploads of the sync's keys that a killed run had left, aborted first. */
  abortedUploads: number;
}

/**
 * A sync failed part way. `manifest` is what the volume holds of its files at that moment (the
 * previous manifest with every upload and removal that completed), so state loses nothing: the
 * next run sends only what is still missing.
 */
export class VolumeSyncError extends RunpodError {
  override name = "VolumeSyncError";
  constructor(
    readonly manifest: VolumeManifest,
    cause: unknown,
  ) {
    const code = cause instanceof RunpodError ? cause.code : "api_error";
    super(code, `the volume's files were not all written: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/**
 * Aborts the multipart uploads in progress of the given keys (a killed run's half-sent files,
 * never visible under their keys), so their parts free the volume. Other keys' uploads are left
 * alone. Answers how many it aborted.
 */
export async function abortAbandonedUploads(
  client: VolumeS3Client,
  volume: VolumeRef,
  prefix: string,
  keys: ReadonlySet<string>,
): Promise<number> {
  const abandoned = (await client.listUploads(volume, prefix)).filter((u) => keys.has(u.key));
  await forEachLimited(abandoned, client.concurrency, (u) => client.abortUpload(volume, u.key, u.uploadId));
  return abandoned.length;
}

/**
 * Carries out a plan: first aborts the abandoned uploads of its keys, then uploads the new and
 * changed files (`concurrency` at a time, each streamed from disk), then deletes the files the
 * source no longer has: never a file the sync did not put there. On a failure, throws a
 * {@link VolumeSyncError} holding what was done.
 */
export async function runSync(
  client: VolumeS3Client,
  volume: VolumeRef,
  plan: SyncPlan,
  previous: VolumeManifest | undefined,
  options: SyncRunOptions = {},
): Promise<SyncResult> {
  const manifest: Record<string, ManifestEntry> = { ...previous };
  const progress: SyncProgress = {
    filesDone: 0,
    filesTotal: plan.upload.length,
    bytesDone: 0,
    bytesTotal: plan.uploadBytes,
    removedDone: 0,
    removedTotal: plan.remove.length,
  };
  let last = 0;
  const report = (force: boolean) => {
    const now = Date.now();
    if (!options.onProgress || (!force && now - last < (options.progressIntervalMs ?? 500))) return;
    last = now;
    options.onProgress({ ...progress });
  };
  const keys = new Set([...plan.files.map((f) => f.key), ...plan.remove.map((r) => r.key)]);
  try {
    const abortedUploads = await abortAbandonedUploads(client, volume, plan.prefix, keys);
    await forEachLimited(plan.upload, client.concurrency, async (file: PlannedFile) => {
      const put = { signal: options.signal, onBytes: (n: number) => ((progress.bytesDone += n), report(false)) };
      const result =
        file.file !== undefined
          ? await client.putFile(volume, file.key, file.file, put)
          : await client.putBytes(volume, file.key, file.text ?? "", put);
      manifest[file.name] = writtenEntry(file.size, file.sha256, file.md5, result.etag);
      progress.filesDone++;
      report(true);
    });
    await forEachLimited(plan.remove, client.concurrency, async (file) => {
      await client.delete(volume, file.key);
      delete manifest[file.name];
      progress.removedDone++;
      report(true);
    });
    return { manifest, uploaded: plan.upload.length, removed: plan.remove.length, abortedUploads };
  } catch (error) {
    throw new VolumeSyncError(manifest, error);
  }
}

/**
 * Deletes the folders that removing `removed` (keys) left empty, deepest first, from the files'
 * folders up to the prefix's own folder, never above it: a volume is a file system, so a sync that
 * removed a folder's last file would otherwise leave the empty folder behind (the platform lists
 * it as `<path>/`). A folder that still holds anything, the resource's or not, stays. One listing
 * of the prefix decides; answers the folders deleted.
 */
export async function removeEmptyFolders(
  client: VolumeS3Client,
  volume: VolumeRef,
  prefix: string,
  removed: readonly string[],
): Promise<string[]> {
  const folders = new Set<string>();
  for (const key of removed) {
    for (let cut = key.lastIndexOf("/"); cut >= 0 && cut + 1 >= prefix.length; cut = key.lastIndexOf("/", cut - 1)) {
      if (cut + 1 > 0) folders.add(key.slice(0, cut + 1));
    }
  }
  if (folders.size === 0) return [];
  const left = new Set<string>();
  for await (const o of client.list(volume, prefix)) left.add(o.key);
  const deleted: string[] = [];
  // Deepest first, so a folder whose only content was an emptied folder goes too.
  for (const folder of [...folders].sort((a, b) => b.split("/").length - a.split("/").length)) {
    const holds = [...left].some((k) => k !== folder && k.startsWith(folder));
    if (holds) continue;
    await client.delete(volume, folder);
    left.delete(folder);
    deleted.push(folder);
  }
  return deleted;
}

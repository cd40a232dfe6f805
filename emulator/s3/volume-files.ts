import { mkdirSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MultipartStore } from "./multipart-store";
import { VolumeDir } from "./volume-dir";

/** One volume's files and its multipart uploads. */
export interface VolumeHandle {
  dir: VolumeDir;
  uploads: MultipartStore;
}

/**
 * The files of every network volume of every account, on disk under one folder:
 * `<root>/<user id>/<volume id>/` is a volume (what a worker sees under `RUNPOD_VOLUME_PATH`),
 * `<root>/<user id>/<volume id>.etags.json` its ETags. The root is `<state file>.volumes` beside
 * the state file, so files persist with it; without a state file, a temporary folder removed at
 * close. Deleting a volume deletes its files.
 */
export class VolumeFiles {
  private readonly volumes = new Map<string, VolumeHandle>();
  private readonly made = new Set<string>();
  /** Deletions under way (a volume's delete does not wait for its files to go). */
  private readonly deleting = new Set<Promise<void>>();

  private constructor(
    readonly root: string,
    private readonly temporary: boolean,
  ) {}

  /** The files under `root`, or under a fresh temporary folder when `root` is undefined. */
  static async open(root: string | undefined): Promise<VolumeFiles> {
    if (root !== undefined) return new VolumeFiles(path.resolve(root), false);
    return new VolumeFiles(await mkdtemp(path.join(os.tmpdir(), "runpod-emulator-volumes-")), true);
  }

  /** The folder of a volume (made when first asked for, so a worker always finds it). */
  pathOf(userId: string, volumeId: string): string {
    const dir = path.join(this.root, userId, volumeId);
    if (!this.made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    return dir;
  }

  /** A volume's files and uploads. */
  volume(userId: string, volumeId: string): VolumeHandle {
    const key = `${userId}/${volumeId}`;
    let handle = this.volumes.get(key);
    if (!handle) {
      const dir = new VolumeDir(this.pathOf(userId, volumeId), path.join(this.root, userId, `${volumeId}.etags.json`));
      handle = { dir, uploads: new MultipartStore(dir) };
      this.volumes.set(key, handle);
    }
    return handle;
  }

  /**
   * A volume was deleted: so are its files, its uploads and its ETags. Its S3 requests fail at once
   * (its record is gone); the files go in the background, and {@link settled} waits for them.
   */
  deleteVolume(userId: string, volumeId: string): Promise<void> {
    const deletion = this.removeVolume(userId, volumeId).catch((error: unknown) => {
      process.stderr.write(`emulator: could not delete the files of volume ${volumeId}: ${(error as Error).message}\n`);
    });
    this.deleting.add(deletion);
    void deletion.finally(() => this.deleting.delete(deletion));
    return deletion;
  }

  /** Waits for the deletions under way. */
  async settled(): Promise<void> {
    await Promise.all([...this.deleting]);
  }

  private async removeVolume(userId: string, volumeId: string): Promise<void> {
    const key = `${userId}/${volumeId}`;
    const handle = this.volumes.get(key);
    this.volumes.delete(key);
    const dir = path.join(this.root, userId, volumeId);
    this.made.delete(dir);
    await handle?.dir.etags.discard();
    await rm(dir, { recursive: true, force: true });
    await rm(path.join(this.root, userId, `${volumeId}.etags.json`), { force: true });
  }

  /**
   * At start: removes the files of volumes that no longer exist (deleted while files were kept
   * elsewhere, or by a reset), and temporary files a killed process left behind.
   */
  async sweep(exists: (userId: string, volumeId: string) => boolean): Promise<void> {
    for (const userId of await readdir(this.root).catch(() => [] as string[])) {
      for (const name of await readdir(path.join(this.root, userId)).catch(() => [] as string[])) {
        const volumeId = name.replace(/\.etags\.json$/, "");
        if (!exists(userId, volumeId)) await this.deleteVolume(userId, volumeId);
        else if (name === volumeId)
          await rm(path.join(this.volume(userId, volumeId).dir.uploads, ".tmp"), { recursive: true, force: true });
      }
    }
  }

  /** Writes pending ETags; removes the folder when it was a temporary one. */
  async close(): Promise<void> {
    await this.settled();
    for (const handle of this.volumes.values()) await handle.dir.etags.flush();
    if (this.temporary) await rm(this.root, { recursive: true, force: true });
  }
}

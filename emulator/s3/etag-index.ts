import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

interface Entry {
  etag: string;
  size: number;
  mtimeMs: number;
}

/** The MD5 of a file as an ETag (`"<hex>"`), read once from disk. */
export async function md5Etag(file: string): Promise<string> {
  const hash = createHash("md5");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `"${hash.digest("hex")}"`;
}

/**
 * The ETags of one volume's files, as the platform keeps them: the MD5 of a file written with
 * PutObject or CopyObject, S3's `<md5 of the parts' md5s>-<parts>` for a multipart upload. An
 * entry holds while the file keeps its size and modification time; a file written another way (by
 * a worker) or changed since gets its MD5 computed when first listed, as on the platform ("ETags
 * of files written without the S3 API are computed lazily"). Kept in `<volume>.etags.json` beside
 * the volume's folder (outside it, so workers never see it), written at most every 200 ms.
 */
export class EtagIndex {
  private entries = new Map<string, Entry>();
  private loaded: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {}

  /** The ETag of `key`, whose file on disk is `full` with this size and time. */
  async etagOf(key: string, full: string, size: number, mtimeMs: number): Promise<string> {
    await this.load();
    const entry = this.entries.get(key);
    if (entry && entry.size === size && entry.mtimeMs === mtimeMs) return entry.etag;
    const etag = await md5Etag(full);
    this.record(key, etag, size, mtimeMs);
    return etag;
  }

  /** Remembers the ETag of a file just written. */
  record(key: string, etag: string, size: number, mtimeMs: number): void {
    this.entries.set(key, { etag, size, mtimeMs });
    this.schedule();
  }

  /** Forgets a deleted file. */
  forget(key: string): void {
    if (this.entries.delete(key)) this.schedule();
  }

  /** Writes what is pending; resolves once it is on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }
    await this.writing;
  }

  /** Drops every entry and the file (the volume is deleted): nothing is written after. */
  async discard(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.entries.clear();
    await this.writing;
    await rm(this.file, { force: true });
  }

  private load(): Promise<void> {
    this.loaded ??= readFile(this.file, "utf8").then(
      (text) => {
        const saved = JSON.parse(text) as Record<string, Entry>;
        for (const [key, entry] of Object.entries(saved)) if (!this.entries.has(key)) this.entries.set(key, entry);
      },
      () => undefined,
    );
    return this.loaded;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }, 200);
    this.timer.unref();
  }

  /** Writes the index; a failure is reported on stderr and retried with the next write, never thrown at a caller. */
  private async write(): Promise<void> {
    try {
      await this.writeNow();
    } catch (error) {
      process.stderr.write(`emulator: could not write ${this.file}: ${(error as Error).message}\n`);
    }
  }

  private async writeNow(): Promise<void> {
    await this.load();
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(Object.fromEntries(this.entries)));
    await rename(tmp, this.file).catch(async (error: unknown) => {
      await rm(tmp, { force: true });
      throw error;
    });
  }
}

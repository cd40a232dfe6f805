import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { forEachLimited } from "./pool";
import type { SourceItem } from "./volume-source";

/** A file's content hashes, read in one pass. */
export interface ContentHash {
  /** SHA-256 (hex): what identifies the content in the manifest and the set hash. */
  sha256: string;
  /** MD5 (hex): what the platform's ETag of a file written in one PutObject is. */
  md5: string;
}

/**
 * Content hashes of files on disk, each read at most once per process for as long as it keeps its
 * size, modification time and inode: a preview's `check` and `diff`, and the update after them,
 * hash a file once between them.
 */
export class HashCache {
  private readonly hashes = new Map<string, Promise<ContentHash>>();
  /** Files read from disk so far (for tests and benchmarks). */
  reads = 0;

  /** The hashes of one item: a string hashed in memory, a file read from disk once. */
  hashOf(item: SourceItem): Promise<ContentHash> {
    if (item.file === undefined) return Promise.resolve(hashBytes(Buffer.from(item.text ?? "", "utf8")));
    const key = `${item.file}\u0000${item.stamp ?? ""}`;
    let hash = this.hashes.get(key);
    if (!hash) {
      this.reads++;
      hash = item.size <= WHOLE_READ_BYTES ? readFile(item.file).then(hashBytes) : hashFile(item.file);
      hash.catch(() => this.hashes.delete(key));
      this.hashes.set(key, hash);
    }
    return hash;
  }

  /** The hashes of many items, `concurrency` files read at once. */
  async hashAll(items: readonly SourceItem[], concurrency = 8): Promise<ContentHash[]> {
    const out: ContentHash[] = new Array(items.length);
    await forEachLimited(items, concurrency, async (item, i) => {
      out[i] = await this.hashOf(item);
    });
    return out;
  }
}

/** Files up to this size are read whole (one read, no stream); larger ones stream through the hashes. */
const WHOLE_READ_BYTES = 1024 * 1024;

/** The process's cache, shared by every plan. */
export const defaultHashCache = new HashCache();

function hashBytes(bytes: Buffer): ContentHash {
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    md5: createHash("md5").update(bytes).digest("hex"),
  };
}

/** Streams a file once through both hashes: memory does not grow with its size. */
async function hashFile(file: string): Promise<ContentHash> {
  const sha256 = createHash("sha256");
  const md5 = createHash("md5");
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    sha256.update(chunk as Buffer);
    md5.update(chunk as Buffer);
  }
  return { sha256: sha256.digest("hex"), md5: md5.digest("hex") };
}

import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, type Stats } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MULTIPART_FOLDER } from "../../sdk/schemas/volume-files";
import { AwsChunkedDecoder } from "./aws-chunked";
import { EtagIndex } from "./etag-index";
import { invalidArgument, S3Fault } from "./s3-fault";

/** What the checks of a body being received need. */
export interface ReceiveChecks {
  /** The largest body accepted: above it, `EntityTooLarge`. */
  maxBytes: number;
  /** What the operation is called in messages (`PutObject`, `a part`). */
  what: string;
  /** The volume's size in bytes: writing beyond it is `QuotaExceeded`. */
  capacityBytes: number;
  /** `x-amz-content-sha256` when it is a digest: the body must hash to it. */
  sha256?: string | undefined;
  /** `Content-MD5` (base64): the body must hash to it. */
  md5Base64?: string | undefined;
  /** The body is in aws-chunked framing. */
  chunked: boolean;
}

/** A body on disk in the volume's temporary folder, not yet visible under any key. */
export interface Received {
  tmp: string;
  size: number;
  md5: Buffer;
}

/** A file (or folder) of a volume as listings and HeadObject show it. */
export interface ObjectInfo {
  key: string;
  size: number;
  mtimeMs: number;
  etag: string;
  /** A folder: listed as `<key>/`, size 0. */
  folder: boolean;
}

const EMPTY_ETAG = `"${createHash("md5").digest("hex")}"`;

/** Code of an fs error, if any. */
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * One network volume's files on disk: `root` is what a worker sees as the volume, an object key
 * the path of a file under it. Writes land in a temporary file and are renamed into place, so a
 * half-written object is never visible; multipart uploads in progress live in the hidden
 * `.s3compat_uploads/` folder, as on the platform. Tracks the bytes used, which the volume's size
 * bounds.
 */
export class VolumeDir {
  readonly uploads: string;
  private readonly tmp: string;
  readonly etags: EtagIndex;
  private measuring: Promise<number> | undefined;
  private measured = 0;
  private delta = 0;

  constructor(
    readonly root: string,
    etagFile: string,
  ) {
    this.uploads = path.join(root, MULTIPART_FOLDER);
    this.tmp = path.join(this.uploads, ".tmp");
    this.etags = new EtagIndex(etagFile);
  }

  /** The file of a key (already checked by `volumeKeyProblem`). */
  pathOf(key: string): string {
    return path.join(this.root, ...key.split("/").filter((s) => s !== ""));
  }

  /** The bytes the volume's files take, temporary files and upload parts included. */
  async used(): Promise<number> {
    this.measuring ??= sizeOf(this.root).then((bytes) => (this.measured = bytes));
    await this.measuring;
    return this.usedNow();
  }

  /** {@link used} once it has been measured (a write awaits `used()` before it starts). */
  usedNow(): number {
    return this.measured + this.delta;
  }

  /** Counts bytes written (positive) or freed (negative) since the volume was measured. */
  adjust(bytes: number): void {
    this.delta += bytes;
  }

  /** Receives a body into a temporary file, hashing and counting it; throws the S3 error of a broken rule. */
  async receive(body: Readable, checks: ReceiveChecks): Promise<Received> {
    await mkdir(this.tmp, { recursive: true });
    const tmp = path.join(this.tmp, randomBytes(12).toString("hex"));
    await this.used();
    const meter = new Meter(this, checks);
    try {
      await pipeline([body, ...(checks.chunked ? [new AwsChunkedDecoder()] : []), meter, createWriteStream(tmp)]);
    } catch (error) {
      this.adjust(-meter.size);
      await rm(tmp, { force: true });
      throw error instanceof S3Fault
        ? error
        : new S3Fault(400, "IncompleteBody", `the body ended early: ${(error as Error).message}`);
    }
    const received = { tmp, size: meter.size, md5: meter.md5.digest() };
    const sha256 = meter.sha256?.digest("hex");
    const fault =
      checks.sha256 !== undefined && sha256 !== checks.sha256
        ? new S3Fault(
            400,
            "XAmzContentSHA256Mismatch",
            "The provided 'x-amz-content-sha256' header does not match what was computed.",
          )
        : checks.md5Base64 !== undefined && received.md5.toString("base64") !== checks.md5Base64
          ? new S3Fault(400, "BadDigest", "The Content-MD5 you specified did not match what we received.")
          : undefined;
    if (fault) {
      await this.discard(received);
      throw fault;
    }
    return received;
  }

  /** Drops a received body. */
  async discard(received: Received): Promise<void> {
    this.adjust(-received.size);
    await rm(received.tmp, { force: true });
  }

  /** Makes a received body the file at `file`: folders made, renamed into place (atomic). */
  async place(received: Received, file: string, key: string): Promise<Stats> {
    const before = await lstat(file).catch(() => undefined);
    if (before?.isDirectory()) {
      await this.discard(received);
      throw invalidArgument("Key", key, "is a folder on the volume; a file cannot take its place");
    }
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await rename(received.tmp, file);
    } catch (error) {
      await this.discard(received);
      if (codeOf(error) === "ENOTDIR" || codeOf(error) === "EEXIST") {
        throw invalidArgument("Key", key, "a folder of its path is a file on the volume");
      }
      throw error;
    }
    if (before) this.adjust(-before.size);
    return stat(file);
  }

  /** Makes the folder `dir/` (and its parents), as a zero-byte PutObject of a folder key does. */
  async makeFolder(key: string): Promise<void> {
    try {
      await mkdir(this.pathOf(key), { recursive: true });
    } catch (error) {
      if (codeOf(error) === "EEXIST" || codeOf(error) === "ENOTDIR") {
        throw invalidArgument("Key", key, "a file of the volume is in the way of this folder");
      }
      throw error;
    }
  }

  /** The size of the file at `key`, 0 when there is none. */
  async sizeAt(key: string): Promise<number> {
    const st = await lstat(this.pathOf(key)).catch(() => undefined);
    return st?.isFile() ? st.size : 0;
  }

  /** The file or folder at `key` (`dir/` names a folder), or undefined. */
  async info(key: string): Promise<ObjectInfo | undefined> {
    const file = this.pathOf(key);
    const st = await stat(file).catch(() => undefined);
    if (!st) return undefined;
    if (st.isDirectory()) {
      return key.endsWith("/") ? { key, size: 0, mtimeMs: st.mtimeMs, etag: EMPTY_ETAG, folder: true } : undefined;
    }
    if (!st.isFile() || key.endsWith("/")) return undefined;
    return {
      key,
      size: st.size,
      mtimeMs: st.mtimeMs,
      etag: await this.etags.etagOf(key, file, st.size, st.mtimeMs),
      folder: false,
    };
  }

  /** Deletes the file at `key`, or the folder `dir/` when it is empty; a missing one is no error (S3's DeleteObject). */
  async remove(key: string): Promise<void> {
    const file = this.pathOf(key);
    const st = await lstat(file).catch(() => undefined);
    if (!st) return;
    if (st.isDirectory()) {
      if (key.endsWith("/")) await rmdir(file).catch(() => undefined);
      return;
    }
    if (key.endsWith("/")) return;
    await rm(file, { force: true });
    this.adjust(-st.size);
    this.etags.forget(key);
  }

  /**
   * Every file under `prefix`, and every empty folder (as `<path>/`, as the platform lists them),
   * in S3's order (UTF-8 bytes), the platform's hidden folder left out.
   */
  async list(prefix: string): Promise<ObjectInfo[]> {
    const cut = prefix.lastIndexOf("/");
    const base = cut < 0 ? "" : prefix.slice(0, cut + 1);
    const found: ObjectInfo[] = [];
    await this.walk(base, prefix, found);
    const order = new Map(found.map((o) => [o.key, Buffer.from(o.key, "utf8")]));
    return found.sort((a, b) => Buffer.compare(order.get(a.key)!, order.get(b.key)!));
  }

  private async walk(dirKey: string, prefix: string, out: ObjectInfo[]): Promise<void> {
    const dir = this.pathOf(dirKey);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (entries.length === 0 && dirKey !== "" && dirKey.startsWith(prefix)) {
      const st = await stat(dir).catch(() => undefined);
      if (st?.isDirectory()) out.push({ key: dirKey, size: 0, mtimeMs: st.mtimeMs, etag: EMPTY_ETAG, folder: true });
      return;
    }
    for (const entry of entries) {
      if (dirKey === "" && entry.name === MULTIPART_FOLDER) continue;
      const key = `${dirKey}${entry.name}`;
      if (entry.isDirectory()) {
        // Only folders that can hold keys under the prefix.
        if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await this.walk(`${key}/`, prefix, out);
      } else if (key.startsWith(prefix)) {
        const info = await this.info(key);
        if (info) out.push(info);
      }
    }
  }
}

/** Hashes and counts a body on its way to disk, enforcing the size rules as it goes. */
class Meter extends Transform {
  readonly md5 = createHash("md5");
  readonly sha256;
  size = 0;

  constructor(
    private readonly volume: VolumeDir,
    private readonly checks: ReceiveChecks,
  ) {
    super();
    this.sha256 = checks.sha256 !== undefined ? createHash("sha256") : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    this.volume.adjust(chunk.length);
    if (this.size > this.checks.maxBytes) {
      return done(
        new S3Fault(
          400,
          "EntityTooLarge",
          `${this.checks.what} is larger than the ${this.checks.maxBytes} bytes allowed`,
        ),
      );
    }
    if (this.volume.usedNow() > this.checks.capacityBytes) {
      return done(
        new S3Fault(
          403,
          "QuotaExceeded",
          `the volume is full: its ${this.checks.capacityBytes} bytes are used; grow the volume or delete files`,
        ),
      );
    }
    this.md5.update(chunk);
    this.sha256?.update(chunk);
    done(null, chunk);
  }
}

/** The bytes of every file under `dir` (0 when it does not exist). */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await sizeOf(full);
    else total += (await lstat(full).catch(() => undefined))?.size ?? 0;
  }
  return total;
}

import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { noSuchUpload, S3Fault } from "./s3-fault";
import type { Received, ReceiveChecks, VolumeDir } from "./volume-dir";

/** A multipart upload in progress. */
export interface Upload {
  uploadId: string;
  key: string;
  initiated: number;
}

/** A part received. */
export interface Part {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: number;
}

/** A part as CompleteMultipartUpload names it. */
export interface CompletedPart {
  partNumber: number;
  etag: string;
}

const UPLOAD_ID = /^[0-9a-f]{32}$/;
const unquote = (etag: string) => etag.replace(/^"|"$/g, "");

/**
 * A volume's multipart uploads, kept where the platform keeps them: `.s3compat_uploads/<id>/` on
 * the volume (`upload.json`, then each part as `part-<n>` with `part-<n>.json`), removed on
 * complete or abort. Parts count against the volume's size while they wait.
 */
export class MultipartStore {
  constructor(private readonly volume: VolumeDir) {}

  /** Starts an upload of `key`. */
  async create(key: string, now: number): Promise<Upload> {
    const upload = { uploadId: randomBytes(16).toString("hex"), key, initiated: now };
    await mkdir(this.dir(upload.uploadId), { recursive: true });
    await writeFile(path.join(this.dir(upload.uploadId), "upload.json"), JSON.stringify(upload));
    return upload;
  }

  /** The upload of this id for this key, or `NoSuchUpload`. */
  async get(uploadId: string, key: string): Promise<Upload> {
    if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload(uploadId);
    const upload = await readFile(path.join(this.dir(uploadId), "upload.json"), "utf8").then(
      (text) => JSON.parse(text) as Upload,
      () => undefined,
    );
    if (!upload || upload.key !== key) throw noSuchUpload(uploadId);
    return upload;
  }

  /** Every upload in progress whose key starts with `prefix`, by key then time. */
  async list(prefix: string): Promise<Upload[]> {
    const ids = await readdir(this.volume.uploads).catch(() => [] as string[]);
    const uploads: Upload[] = [];
    for (const id of ids.filter((name) => UPLOAD_ID.test(name))) {
      const text = await readFile(path.join(this.dir(id), "upload.json"), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const upload = JSON.parse(text) as Upload;
      if (upload.key.startsWith(prefix)) uploads.push(upload);
    }
    return uploads.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)) || a.initiated - b.initiated);
  }

  /** Stores a received part under its number (replacing an earlier one of the same number). */
  async putPart(upload: Upload, partNumber: number, received: Received, now: number): Promise<Part> {
    const file = path.join(this.dir(upload.uploadId), `part-${partNumber}`);
    const old = await stat(file).catch(() => undefined);
    await rename(received.tmp, file);
    if (old) this.volume.adjust(-old.size);
    const part = { partNumber, etag: `"${received.md5.toString("hex")}"`, size: received.size, lastModified: now };
    await writeFile(`${file}.json`, JSON.stringify(part));
    return part;
  }

  /** The parts received, by number. */
  async parts(upload: Upload): Promise<Part[]> {
    const names = await readdir(this.dir(upload.uploadId)).catch(() => [] as string[]);
    const parts: Part[] = [];
    for (const name of names.filter((n) => /^part-\d+\.json$/.test(n))) {
      const text = await readFile(path.join(this.dir(upload.uploadId), name), "utf8").catch(() => undefined);
      if (text !== undefined) parts.push(JSON.parse(text) as Part);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  /**
   * Joins the named parts into one body (S3's rules: ascending part numbers, each ETag that of the
   * part received), received like any other body; the upload's folder is removed by the caller
   * once the object is in place ({@link remove}). The ETag is S3's multipart form.
   */
  async join(
    upload: Upload,
    named: readonly CompletedPart[],
    checks: ReceiveChecks,
  ): Promise<{ received: Received; etag: string }> {
    if (named.length === 0)
      throw new S3Fault(400, "MalformedXML", "CompleteMultipartUpload must name at least one part");
    const have = new Map((await this.parts(upload)).map((p) => [p.partNumber, p]));
    const digests: Buffer[] = [];
    for (let i = 0; i < named.length; i++) {
      const part = have.get(named[i]!.partNumber);
      if (i > 0 && named[i]!.partNumber <= named[i - 1]!.partNumber) {
        throw new S3Fault(
          400,
          "InvalidPartOrder",
          "The list of parts was not in ascending order. Parts must be ordered by part number.",
        );
      }
      if (!part || unquote(part.etag) !== unquote(named[i]!.etag)) {
        throw new S3Fault(
          400,
          "InvalidPart",
          `Part ${named[i]!.partNumber} was not uploaded, or its ETag does not match.`,
        );
      }
      digests.push(Buffer.from(unquote(part.etag), "hex"));
    }
    const body = new PassThrough();
    const feeding = (async () => {
      for (const { partNumber } of named) {
        for await (const chunk of createReadStream(path.join(this.dir(upload.uploadId), `part-${partNumber}`))) {
          if (!body.write(chunk)) await new Promise((resolve) => body.once("drain", resolve));
        }
      }
      body.end();
    })().catch((error: unknown) => body.destroy(error as Error));
    const received = await this.volume.receive(body, checks);
    await feeding;
    const etag = `"${createHash("md5").update(Buffer.concat(digests)).digest("hex")}-${named.length}"`;
    return { received, etag };
  }

  /** Removes an upload's folder and its parts (complete or abort). */
  async remove(upload: Upload): Promise<void> {
    const parts = await this.parts(upload);
    await rm(this.dir(upload.uploadId), { recursive: true, force: true });
    this.volume.adjust(-parts.reduce((sum, p) => sum + p.size, 0));
  }

  private dir(uploadId: string): string {
    return path.join(this.volume.uploads, uploadId);
  }
}

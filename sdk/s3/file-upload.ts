import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { type Readable, Transform, type TransformCallback } from "node:stream";
import { partSizeFor, uploadInParts } from "./multipart-upload";
import { S3Error } from "./s3-errors";
import type { S3Connections, VolumeRef } from "./s3-connections";

/** What one upload did. */
export interface PutResult {
  key: string;
  size: number;
  /** The ETag the platform gave: the body's MD5, or `<md5 of the parts' md5s>-<parts>` for a multipart upload. */
  etag: string;
  /** Parts of a multipart upload; 0 for one PutObject. */
  parts: number;
}

/** Options of one upload. */
export interface PutOptions {
  signal?: AbortSignal | undefined;
  /** Bytes sent, as they go; negative when a failed attempt's bytes are taken back before it is sent again. */
  onBytes?: ((delta: number) => void) | undefined;
}

/** Counts a body's bytes on their way out. */
class ByteCounter extends Transform {
  constructor(private readonly onBytes: (delta: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.onBytes(chunk.length);
    done(null, chunk);
  }
}

/**
 * A body for each attempt of a request: a fresh one every time (a stream cannot be sent twice),
 * its bytes reported to `onBytes` as they go, and those of a failed attempt taken back.
 */
function countedBody(source: () => Readable | Buffer, onBytes?: (delta: number) => void): () => Readable | Buffer {
  let counted = 0;
  return () => {
    onBytes?.(-counted);
    counted = 0;
    const body = source();
    if (Buffer.isBuffer(body)) {
      counted = body.length;
      onBytes?.(body.length);
      return body;
    }
    const counter = new ByteCounter((n) => {
      counted += n;
      onBytes?.(n);
    });
    body.on("error", (error) => counter.destroy(error));
    return body.pipe(counter);
  };
}

/** Bytes `start` to `end` (inclusive) of a file, read from disk when sent. */
const fileRange = (file: string, start: number, end: number) => () =>
  end < start ? Buffer.alloc(0) : createReadStream(file, { start, end });

/** One PutObject of `size` bytes. */
export async function putBody(
  conn: S3Connections,
  volume: VolumeRef,
  key: string,
  size: number,
  source: () => Readable | Buffer,
  options: PutOptions,
): Promise<PutResult> {
  const body = countedBody(source, options.onBytes);
  const r = await conn.call(
    conn.info("PutObject", volume, key),
    (s3, sdk, http) =>
      s3.send(new sdk.PutObjectCommand({ Bucket: volume.volumeId, Key: key, Body: body(), ContentLength: size }), http),
    options.signal,
  );
  return { key, size, etag: r.ETag ?? "", parts: 0 };
}

/**
 * A file from disk to `key`, streamed: one PutObject under the limit, a multipart upload above it
 * (parts of the configured size, each its own byte range of the file; nothing is buffered whole).
 */
export async function putFile(
  conn: S3Connections,
  volume: VolumeRef,
  key: string,
  file: string,
  options: PutOptions,
): Promise<PutResult> {
  const { size } = await stat(file);
  if (size < conn.settings.putObjectLimit)
    return putBody(conn, volume, key, size, fileRange(file, 0, size - 1), options);
  const [Bucket, Key, signal] = [volume.volumeId, key, options.signal];
  const { etag, parts } = await uploadInParts(
    {
      create: async () => {
        const r = await conn.call(
          conn.info("CreateMultipartUpload", volume, key),
          (s3, sdk, http) => s3.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key }), http),
          signal,
        );
        return r.UploadId!;
      },
      uploadPart: async (UploadId, PartNumber, start, end) => {
        const body = countedBody(fileRange(file, start, end), options.onBytes);
        const ContentLength = end - start + 1;
        const r = await conn.call(
          conn.info("UploadPart", volume, key),
          (s3, sdk, http) =>
            s3.send(
              new sdk.UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body(), ContentLength }),
              http,
            ),
          signal,
        );
        return r.ETag!;
      },
      complete: (uploadId, list) => complete(conn, volume, key, uploadId, list, size, signal),
      abort: async (UploadId) => {
        await conn.call(conn.info("AbortMultipartUpload", volume, key), (s3, sdk, http) =>
          s3.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key, UploadId }), http),
        );
      },
    },
    size,
    partSizeFor(size, conn.settings.partSize),
    conn.settings.partConcurrency,
  );
  return { key, size, etag, parts };
}

/**
 * CompleteMultipartUpload, with the long timeout the platform needs for large files. A retry that
 * finds the upload gone (an earlier attempt completed it, its answer lost) checks that the object
 * is there at its size and takes its ETag.
 */
async function complete(
  conn: S3Connections,
  volume: VolumeRef,
  key: string,
  UploadId: string,
  parts: readonly { PartNumber: number; ETag: string }[],
  size: number,
  signal?: AbortSignal,
): Promise<string> {
  let attempts = 0;
  const [Bucket, Key] = [volume.volumeId, key];
  try {
    const r = await conn.call(
      conn.info("CompleteMultipartUpload", volume, key),
      (s3, sdk, http) => {
        attempts++;
        const MultipartUpload = { Parts: [...parts] };
        return s3.send(new sdk.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload }), http);
      },
      signal,
      conn.settings.completeTimeoutMs,
    );
    return r.ETag ?? "";
  } catch (error) {
    if (attempts < 2 || !(error instanceof S3Error) || error.s3Code !== "NoSuchUpload") throw error;
    const landed = await conn
      .call(conn.info("HeadObject", volume, key), (s3, sdk, http) =>
        s3.send(new sdk.HeadObjectCommand({ Bucket, Key }), http),
      )
      .catch(() => undefined);
    if (landed?.ContentLength === size) return landed.ETag ?? "";
    throw error;
  }
}

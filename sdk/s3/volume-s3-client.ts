import { s3EndpointOf } from "../schemas/volume-files";
import { type PutOptions, type PutResult, putBody, putFile } from "./file-upload";
import { S3Connections, type VolumeRef } from "./s3-connections";
import { S3Error } from "./s3-errors";
import { resolveS3Settings, type VolumeS3ClientOptions } from "./s3-settings";

/** A file on a volume as a listing or HeadObject shows it. A folder is listed as `<path>/`, size 0. */
export interface VolumeObject {
  key: string;
  size: number;
  /** As the platform gives it, quotes included: an MD5, or `<md5>-<parts>` for a multipart upload. */
  etag: string;
  lastModified: Date | undefined;
}

/** A multipart upload in progress. */
export interface VolumeUpload {
  key: string;
  uploadId: string;
  initiated: Date | undefined;
}

/**
 * A client of network volumes' S3-compatible API, one endpoint per data center
 * (docs/client.md, "Volume files"), on the AWS SDK for JavaScript v3: a file under the PutObject
 * limit goes in one PutObject, a larger one in parts streamed from disk; every request is retried
 * on the platform's transient failures (502s during transfer, other 5xx, broken connections);
 * CompleteMultipartUpload waits up to two hours; errors are {@link S3Error}s whose messages say
 * what failed in the platform's terms and never hold a secret. The AWS SDK is loaded on first use.
 *
 * ```ts
 * const s3 = new VolumeS3Client(); // RUNPOD_S3_ACCESS_KEY_ID, RUNPOD_S3_SECRET_ACCESS_KEY, RUNPOD_S3_URL
 * const volume = { dataCenterId: "EU-RO-1", volumeId: "abc123" };
 * await s3.putFile(volume, "models/llama/weights.bin", "./weights.bin");
 * ```
 */
export class VolumeS3Client {
  private readonly conn: S3Connections;

  constructor(options: VolumeS3ClientOptions = {}) {
    this.conn = new S3Connections(resolveS3Settings(options));
  }

  /** Files smaller than this go in one PutObject. */
  get putObjectLimit(): number {
    return this.conn.settings.putObjectLimit;
  }

  /** Files a sync uploads at once. */
  get concurrency(): number {
    return this.conn.settings.concurrency;
  }

  /** The endpoint of a data center's S3-compatible API. */
  endpointOf(dataCenterId: string): string {
    return s3EndpointOf(this.conn.settings.url, dataCenterId);
  }

  /** Uploads a file from disk to `key`, streamed: PutObject under the limit, multipart above it. */
  putFile(volume: VolumeRef, key: string, file: string, options: PutOptions = {}): Promise<PutResult> {
    return putFile(this.conn, volume, key, file, options);
  }

  /** Uploads bytes (a string as UTF-8) to `key` in one PutObject. */
  putBytes(volume: VolumeRef, key: string, bytes: string | Uint8Array, options: PutOptions = {}): Promise<PutResult> {
    const body = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.from(bytes);
    return putBody(this.conn, volume, key, body.length, () => body, options);
  }

  /** The content of `key`, read whole (for small files). */
  getBytes(volume: VolumeRef, key: string, signal?: AbortSignal): Promise<Buffer> {
    return this.conn.call(
      this.conn.info("GetObject", volume, key),
      async (s3, sdk, http) => {
        const r = await s3.send(new sdk.GetObjectCommand({ Bucket: volume.volumeId, Key: key }), http);
        return Buffer.from(await r.Body!.transformToByteArray());
      },
      signal,
    );
  }

  /** The file at `key`, or undefined when there is none. */
  async head(volume: VolumeRef, key: string): Promise<VolumeObject | undefined> {
    try {
      const r = await this.conn.call(this.conn.info("HeadObject", volume, key), (s3, sdk, http) =>
        s3.send(new sdk.HeadObjectCommand({ Bucket: volume.volumeId, Key: key }), http),
      );
      return { key, size: r.ContentLength ?? 0, etag: r.ETag ?? "", lastModified: r.LastModified };
    } catch (error) {
      // A HEAD answer has no body to tell a missing key from a missing volume: ask the volume.
      if (!(error instanceof S3Error) || error.status !== 404) throw error;
      await this.conn.call(this.conn.info("HeadBucket", volume), (s3, sdk, http) =>
        s3.send(new sdk.HeadBucketCommand({ Bucket: volume.volumeId }), http),
      );
      return undefined;
    }
  }

  /** Deletes `key` (a missing file is no error); `dir/` deletes an empty folder. */
  async delete(volume: VolumeRef, key: string): Promise<void> {
    await this.conn.call(this.conn.info("DeleteObject", volume, key), (s3, sdk, http) =>
      s3.send(new sdk.DeleteObjectCommand({ Bucket: volume.volumeId, Key: key }), http),
    );
  }

  /** Copies `fromKey` to `toKey` on the same volume; answers the copy's ETag. */
  async copy(volume: VolumeRef, fromKey: string, toKey: string): Promise<string> {
    const CopySource = `${volume.volumeId}/${fromKey.split("/").map(encodeURIComponent).join("/")}`;
    const r = await this.conn.call(this.conn.info("CopyObject", volume, toKey), (s3, sdk, http) =>
      s3.send(new sdk.CopyObjectCommand({ Bucket: volume.volumeId, Key: toKey, CopySource }), http),
    );
    return r.CopyObjectResult?.ETag ?? "";
  }

  /** Every file (and empty folder, as `<path>/`) under `prefix`, in S3's order, page by page. */
  async *list(volume: VolumeRef, prefix = "", signal?: AbortSignal): AsyncGenerator<VolumeObject> {
    let token: string | undefined;
    do {
      const ContinuationToken = token;
      const page = await this.conn.call(
        this.conn.info("ListObjectsV2", volume, prefix),
        async (s3, sdk, http) => {
          const Bucket = volume.volumeId;
          const r = await s3.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }), http);
          // The platform's first listing of a large volume can hand back the token it was given: ask again.
          if (r.IsTruncated && r.NextContinuationToken === ContinuationToken) {
            throw Object.assign(new Error("the same continuation token came back"), { name: "InternalError" });
          }
          return r;
        },
        signal,
      );
      for (const o of page.Contents ?? []) {
        yield { key: o.Key!, size: o.Size ?? 0, etag: o.ETag ?? "", lastModified: o.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** The multipart uploads in progress under `prefix` (abandoned by a killed upload, or running). */
  async listUploads(volume: VolumeRef, prefix = ""): Promise<VolumeUpload[]> {
    const uploads: VolumeUpload[] = [];
    let marker: string | undefined;
    do {
      const KeyMarker = marker;
      const r = await this.conn.call(this.conn.info("ListMultipartUploads", volume, prefix), (s3, sdk, http) =>
        s3.send(new sdk.ListMultipartUploadsCommand({ Bucket: volume.volumeId, Prefix: prefix, KeyMarker }), http),
      );
      for (const u of r.Uploads ?? []) uploads.push({ key: u.Key!, uploadId: u.UploadId!, initiated: u.Initiated });
      marker = r.IsTruncated ? r.NextKeyMarker : undefined;
    } while (marker !== undefined);
    return uploads;
  }

  /** Aborts a multipart upload: its parts are removed, nothing appears under its key. */
  async abortUpload(volume: VolumeRef, key: string, uploadId: string): Promise<void> {
    await this.conn.call(this.conn.info("AbortMultipartUpload", volume, key), (s3, sdk, http) =>
      s3.send(new sdk.AbortMultipartUploadCommand({ Bucket: volume.volumeId, Key: key, UploadId: uploadId }), http),
    );
  }

  /** The ids of the account's volumes in a data center (ListBuckets). */
  async volumes(dataCenterId: string): Promise<string[]> {
    const r = await this.conn.call({ operation: "ListBuckets", dataCenterId }, (s3, sdk, http) =>
      s3.send(new sdk.ListBucketsCommand({}), http),
    );
    return (r.Buckets ?? []).map((b) => b.Name ?? "");
  }

  /** Closes the connections. */
  close(): void {
    this.conn.close();
  }
}

import type { FastifyReply } from "fastify";
import { isoTime, param, type S3Call, sendXml, volumeOf } from "./s3-call";
import { afterToken, continuationToken, listingPage, maxKeysOf, urlEncodeKey } from "../../s3/s3-listing";
import { invalidArgument } from "../../s3/s3-fault";
import type { ObjectInfo } from "../../s3/volume-dir";

/** ListBuckets: the account's network volumes in this data center. */
export function listBuckets(call: S3Call): FastifyReply {
  const volumes = [...call.account.networkVolumes.values()].filter(
    (v) => v.dataCenter.toUpperCase() === call.dataCenterId.toUpperCase(),
  );
  return sendXml(call, "ListAllMyBucketsResult", {
    Owner: { ID: call.account.userId, DisplayName: call.account.userId },
    Buckets: { Bucket: volumes.map((v) => ({ Name: v.id, CreationDate: isoTime(0) })) },
  });
}

/** HeadBucket: 200 for a volume of the account in this data center. */
export function headBucket(call: S3Call): FastifyReply {
  volumeOf(call);
  return call.reply.code(200).header("x-amz-bucket-region", call.dataCenterId).send();
}

/** The encoder of keys in a listing's answer (`encoding-type=url`, else as they are). */
function encoderOf(call: S3Call): (key: string) => string {
  const type = param(call, "encoding-type");
  if (type !== undefined && type !== "url") throw invalidArgument("encoding-type", type, "must be url");
  return type === "url" ? urlEncodeKey : (key) => key;
}

function entry(object: ObjectInfo, encode: (key: string) => string): Record<string, unknown> {
  return {
    Key: encode(object.key),
    LastModified: isoTime(object.mtimeMs),
    ETag: object.etag,
    Size: object.size,
    StorageClass: "STANDARD",
  };
}

/** ListObjects (`list-type=2` for V2): files and empty folders under the prefix, as the platform lists them. */
export async function listObjects(call: S3Call): Promise<FastifyReply> {
  const { files } = volumeOf(call);
  const v2 = param(call, "list-type") === "2";
  const encode = encoderOf(call);
  const prefix = param(call, "prefix") ?? "";
  const delimiter = param(call, "delimiter") ?? "";
  const token = param(call, "continuation-token");
  const startAfter = param(call, "start-after") ?? "";
  const marker = param(call, "marker") ?? "";
  const after = v2 ? (token !== undefined ? afterToken(token) : startAfter) : marker;
  const maxKeys = maxKeysOf(param(call, "max-keys"));
  const page = listingPage(await files.dir.list(prefix), { prefix, delimiter, maxKeys, after });
  const common = {
    Name: call.bucket,
    Prefix: encode(prefix),
    ...(delimiter ? { Delimiter: encode(delimiter) } : {}),
    MaxKeys: maxKeys,
    ...(param(call, "encoding-type") ? { EncodingType: "url" } : {}),
    IsTruncated: page.truncated,
    Contents: page.contents.map((o) => entry(o, encode)),
    CommonPrefixes: page.commonPrefixes.map((p) => ({ Prefix: encode(p) })),
  };
  if (v2) {
    return sendXml(call, "ListBucketResult", {
      ...common,
      KeyCount: page.contents.length + page.commonPrefixes.length,
      ...(token !== undefined ? { ContinuationToken: token } : {}),
      ...(startAfter ? { StartAfter: encode(startAfter) } : {}),
      ...(page.truncated && page.last !== undefined ? { NextContinuationToken: continuationToken(page.last) } : {}),
    });
  }
  return sendXml(call, "ListBucketResult", {
    ...common,
    Marker: encode(marker),
    // S3 gives NextMarker only with a delimiter; without one the client continues after the last key.
    ...(page.truncated && delimiter && page.last !== undefined ? { NextMarker: encode(page.last) } : {}),
  });
}

/** ListMultipartUploads: the uploads in progress under the prefix (one page of up to `max-uploads`). */
export async function listMultipartUploads(call: S3Call): Promise<FastifyReply> {
  const { files } = volumeOf(call);
  const encode = encoderOf(call);
  const prefix = param(call, "prefix") ?? "";
  const keyMarker = param(call, "key-marker") ?? "";
  const max = maxKeysOf(param(call, "max-uploads"));
  const uploads = (await files.uploads.list(prefix)).filter((u) => u.key > keyMarker);
  const page = uploads.slice(0, max);
  const truncated = uploads.length > page.length;
  return sendXml(call, "ListMultipartUploadsResult", {
    Bucket: call.bucket,
    KeyMarker: encode(keyMarker),
    UploadIdMarker: "",
    Prefix: encode(prefix),
    MaxUploads: max,
    IsTruncated: truncated,
    ...(param(call, "encoding-type") ? { EncodingType: "url" } : {}),
    ...(truncated ? { NextKeyMarker: encode(page[page.length - 1]!.key) } : {}),
    Upload: page.map((u) => ({
      Key: encode(u.key),
      UploadId: u.uploadId,
      Initiated: isoTime(u.initiated),
      StorageClass: "STANDARD",
      Owner: { ID: call.account.userId },
      Initiator: { ID: call.account.userId },
    })),
  });
}

import type { FastifyReply, FastifyRequest } from "fastify";
import type { VolumeRecord as NetworkVolume } from "../../volumes/volume-record";
import { volumeKeyProblem } from "../../../sdk/schemas/volume-files";
import type { Account } from "../../store/account";
import { isAwsChunked } from "../../s3/aws-chunked";
import { invalidArgument, noSuchBucket, S3Fault } from "../../s3/s3-fault";
import type { S3Service } from "../../server/s3-service";
import { s3Document } from "../../s3/s3-xml";
import type { ReceiveChecks } from "../../s3/volume-dir";
import type { VolumeHandle } from "../../s3/volume-files";

/** One authenticated S3 request, with what its operation needs. */
export interface S3Call {
  req: FastifyRequest;
  reply: FastifyReply;
  service: S3Service;
  /** The data center whose API was called, as the catalog spells it (`EU-RO-1`). */
  dataCenterId: string;
  /** The account of the S3 key that signed the request. */
  account: Account;
  /** The bucket (a volume id), if the path names one. */
  bucket: string | undefined;
  /** The object key (decoded), if the path names one. */
  key: string | undefined;
  /** The query, decoded. */
  query: Record<string, string | string[]>;
  /** `x-amz-content-sha256` as signed. */
  contentSha256: string;
}

/** A query parameter's (first) value. */
export function param(call: S3Call, name: string): string | undefined {
  const value = call.query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the query names a sub-resource (`?uploads`, `?acl`, ...). */
export function has(call: S3Call, name: string): boolean {
  return call.query[name] !== undefined;
}

/** The volume named by `bucket` in the call's data center, or `NoSuchBucket`. */
export function volumeNamed(call: S3Call, bucket: string): { record: NetworkVolume; files: VolumeHandle } {
  const record = call.account.networkVolumes.get(bucket);
  if (!record || record.dataCenter.toUpperCase() !== call.dataCenterId.toUpperCase()) {
    throw noSuchBucket(bucket, call.dataCenterId);
  }
  return { record, files: call.service.files.volume(call.account.userId, record.id) };
}

/** The call's volume. */
export function volumeOf(call: S3Call): { record: NetworkVolume; files: VolumeHandle } {
  return volumeNamed(call, call.bucket!);
}

/** The call's key, checked against what a volume can store (`dir/` allowed when `folder`). */
export function keyOf(call: S3Call, folder = false): string {
  const key = call.key ?? "";
  const problem = volumeKeyProblem(key, folder);
  if (problem) throw invalidArgument("Key", key, problem);
  return key;
}

/** A volume's size in bytes: what its files may take (read at each write, so growing it raises the limit). */
export function capacityOf(call: S3Call, volume: NetworkVolume): number {
  return volume.size * call.service.settings.bytesPerGb;
}

/** The checks of a body of this call: its declared digests and framing, and the limits given. */
export function receiveChecks(call: S3Call, what: string, maxBytes: number, capacityBytes: number): ReceiveChecks {
  const headers = call.req.headers;
  const md5 = headers["content-md5"];
  return {
    what,
    maxBytes,
    capacityBytes,
    sha256: /^[0-9a-f]{64}$/.test(call.contentSha256) ? call.contentSha256 : undefined,
    md5Base64: typeof md5 === "string" ? md5 : undefined,
    chunked: isAwsChunked(call.contentSha256, headers["content-encoding"] as string | undefined),
  };
}

/** The payload length a body announces (`x-amz-decoded-content-length` for aws-chunked), or `MissingContentLength`. */
export function declaredLength(call: S3Call, chunked: boolean): number {
  const raw = chunked ? call.req.headers["x-amz-decoded-content-length"] : call.req.headers["content-length"];
  const n = Number(raw);
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || !Number.isSafeInteger(n)) {
    throw new S3Fault(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  }
  return n;
}

/** Answers an XML document. */
export function sendXml(call: S3Call, root: string, body: Record<string, unknown>, status = 200): FastifyReply {
  return call.reply.code(status).header("content-type", "application/xml").send(s3Document(root, body));
}

/** S3's time format in XML answers. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

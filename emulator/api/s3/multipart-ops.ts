import type { FastifyReply } from "fastify";
import { VOLUME_FILE_LIMITS } from "../../../sdk/schemas/volume-files";
import type { CompletedPart } from "../../s3/multipart-store";
import {
  capacityOf,
  declaredLength,
  isoTime,
  keyOf,
  param,
  receiveChecks,
  type S3Call,
  sendXml,
  volumeOf,
} from "./s3-call";
import { invalidArgument, S3Fault } from "../../s3/s3-fault";
import { parseXml } from "../../s3/s3-xml";

/** S3's bounds on part numbers. */
const MAX_PART_NUMBER = 10_000;

function uploadIdOf(call: S3Call): string {
  return param(call, "uploadId") ?? "";
}

/** CreateMultipartUpload. */
export async function createMultipartUpload(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call);
  const upload = await volumeOf(call).files.uploads.create(key, Date.now());
  return sendXml(call, "InitiateMultipartUploadResult", { Bucket: call.bucket, Key: key, UploadId: upload.uploadId });
}

/**
 * UploadPart: a part of at most 500 MB (no minimum), kept in the volume's hidden folder. Like the
 * platform, it does not check for free space first: a part that fills the volume fails part way.
 */
export async function uploadPart(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call);
  const raw = param(call, "partNumber") ?? "";
  const partNumber = Number(raw);
  if (!/^\d+$/.test(raw) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw invalidArgument("partNumber", raw, `must be a whole number from 1 to ${MAX_PART_NUMBER}`);
  }
  const { record, files } = volumeOf(call);
  const upload = await files.uploads.get(uploadIdOf(call), key);
  const checks = receiveChecks(call, `part ${partNumber}`, VOLUME_FILE_LIMITS.partBytes, capacityOf(call, record));
  const length = declaredLength(call, checks.chunked);
  if (length > VOLUME_FILE_LIMITS.partBytes) {
    throw new S3Fault(
      400,
      "EntityTooLarge",
      `a part may be at most ${VOLUME_FILE_LIMITS.partBytes} bytes; part ${partNumber} has ${length}`,
      {
        ProposedSize: String(length),
        MaxSizeAllowed: String(VOLUME_FILE_LIMITS.partBytes),
      },
    );
  }
  const received = await files.dir.receive(call.req.raw, checks);
  const part = await files.uploads.putPart(upload, partNumber, received, Date.now());
  return call.reply.code(200).header("etag", part.etag).send();
}

/** The parts a CompleteMultipartUpload body names. */
function namedParts(text: string): CompletedPart[] {
  const doc = parseXml(text)?.CompleteMultipartUpload as
    { Part?: { PartNumber?: string; ETag?: string }[] } | undefined;
  if (!doc || !Array.isArray(doc.Part)) {
    throw new S3Fault(
      400,
      "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema.",
    );
  }
  return doc.Part.map((p) => ({ partNumber: Number(p.PartNumber), etag: String(p.ETag ?? "") }));
}

async function bodyText(call: S3Call): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of call.req.raw) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) throw new S3Fault(400, "MaxMessageLengthExceeded", "Your request was too big.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** CompleteMultipartUpload: the named parts become the file at the key, atomically; the upload's folder goes. */
export async function completeMultipartUpload(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call);
  const { files } = volumeOf(call);
  const upload = await files.uploads.get(uploadIdOf(call), key);
  const named = namedParts(await bodyText(call));
  // The parts were counted when they arrived: joining them takes no more of the volume's size.
  const checks = {
    what: "the joined parts",
    maxBytes: VOLUME_FILE_LIMITS.fileBytes,
    capacityBytes: Infinity,
    chunked: false,
  };
  const { received, etag } = await files.uploads.join(upload, named, checks);
  const st = await files.dir.place(received, files.dir.pathOf(key), key);
  files.dir.etags.record(key, etag, st.size, st.mtimeMs);
  await files.uploads.remove(upload);
  return sendXml(call, "CompleteMultipartUploadResult", {
    Location: `${call.req.protocol}://${call.req.host}${call.req.url.split("?")[0]}`,
    Bucket: call.bucket,
    Key: key,
    ETag: etag,
  });
}

/** AbortMultipartUpload: the upload's parts are removed. */
export async function abortMultipartUpload(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call);
  const { files } = volumeOf(call);
  const upload = await files.uploads.get(uploadIdOf(call), key);
  await files.uploads.remove(upload);
  return call.reply.code(204).send();
}

/** ListParts: the parts received so far (one page of up to `max-parts`, after `part-number-marker`). */
export async function listParts(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call);
  const { files } = volumeOf(call);
  const upload = await files.uploads.get(uploadIdOf(call), key);
  const marker = Number(param(call, "part-number-marker") ?? "0") || 0;
  const max = Math.min(Number(param(call, "max-parts") ?? "1000") || 1000, 1000);
  const parts = (await files.uploads.parts(upload)).filter((p) => p.partNumber > marker);
  const page = parts.slice(0, max);
  const truncated = parts.length > page.length;
  return sendXml(call, "ListPartsResult", {
    Bucket: call.bucket,
    Key: key,
    UploadId: upload.uploadId,
    PartNumberMarker: marker,
    ...(truncated ? { NextPartNumberMarker: page[page.length - 1]!.partNumber } : {}),
    MaxParts: max,
    IsTruncated: truncated,
    StorageClass: "STANDARD",
    Part: page.map((p) => ({
      PartNumber: p.partNumber,
      LastModified: isoTime(p.lastModified),
      ETag: p.etag,
      Size: p.size,
    })),
  });
}

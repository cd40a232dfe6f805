import { createReadStream } from "node:fs";
import type { FastifyReply } from "fastify";
import { VOLUME_FILE_LIMITS, volumeKeyProblem } from "../../../sdk/schemas/volume-files";
import { parseQuery } from "../../s3/sigv4-check";
import {
  capacityOf,
  declaredLength,
  isoTime,
  keyOf,
  receiveChecks,
  type S3Call,
  sendXml,
  volumeNamed,
  volumeOf,
} from "./s3-call";
import { invalidArgument, noSuchKey, S3Fault } from "../../s3/s3-fault";
import type { ObjectInfo } from "../../s3/volume-dir";

function objectHeaders(call: S3Call, info: ObjectInfo): FastifyReply {
  return call.reply
    .header("etag", info.etag)
    .header("last-modified", new Date(info.mtimeMs).toUTCString())
    .header("accept-ranges", "bytes")
    .header("content-type", "application/octet-stream");
}

/**
 * PutObject: the body (smaller than the PutObject limit, and within the volume's size, checked
 * before a byte is stored) becomes the file at the key, atomically; a zero-byte `dir/` makes a
 * folder.
 */
export async function putObject(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call, true);
  const { record, files } = volumeOf(call);
  const checks = receiveChecks(
    call,
    "PutObject's body",
    call.service.settings.putObjectLimit - 1,
    capacityOf(call, record),
  );
  const length = declaredLength(call, checks.chunked);
  if (length >= call.service.settings.putObjectLimit) {
    throw new S3Fault(
      400,
      "EntityTooLarge",
      `PutObject takes bodies under ${call.service.settings.putObjectLimit} bytes; this one has ${length}: upload it in parts (multipart upload)`,
      {
        ProposedSize: String(length),
        MaxSizeAllowed: String(call.service.settings.putObjectLimit - 1),
      },
    );
  }
  // Checked before a byte is stored, a file it replaces counted as freed; the body is then held to its length.
  const replaced = key.endsWith("/") ? 0 : await files.dir.sizeAt(key);
  if ((await files.dir.used()) - replaced + length > checks.capacityBytes) {
    throw new S3Fault(
      403,
      "QuotaExceeded",
      `the volume's ${record.size} GB cannot take ${length} more bytes: grow the volume or delete files`,
    );
  }
  const received = await files.dir.receive(call.req.raw, { ...checks, maxBytes: length, capacityBytes: Infinity });
  if (key.endsWith("/")) {
    await files.dir.discard(received);
    if (received.size > 0) throw invalidArgument("Key", key, "names a folder: its body must be empty");
    await files.dir.makeFolder(key);
    return call.reply
      .code(200)
      .header("etag", `"${received.md5.toString("hex")}"`)
      .send();
  }
  const st = await files.dir.place(received, files.dir.pathOf(key), key);
  const etag = `"${received.md5.toString("hex")}"`;
  files.dir.etags.record(key, etag, st.size, st.mtimeMs);
  return call.reply.code(200).header("etag", etag).send();
}

/** The object at the call's key, or `NoSuchKey`. */
async function existing(call: S3Call): Promise<ObjectInfo> {
  const key = call.key ?? "";
  if (volumeKeyProblem(key, true)) throw noSuchKey(key);
  const info = await volumeOf(call).files.dir.info(key);
  if (!info) throw noSuchKey(key);
  return info;
}

/** HeadObject. */
export async function headObject(call: S3Call): Promise<FastifyReply> {
  const info = await existing(call);
  return objectHeaders(call, info).header("content-length", String(info.size)).code(200).send();
}

/** `Range: bytes=a-b` (one range) as offsets, or undefined for the whole body; `InvalidRange` beyond the end. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  const start = m[1] === "" ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  const end = m[1] === "" || m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) {
    throw new S3Fault(416, "InvalidRange", "The requested range is not satisfiable", {
      ActualObjectSize: String(size),
    });
  }
  return { start, end };
}

/** GetObject, whole or one byte range, streamed from disk. */
export async function getObject(call: S3Call): Promise<FastifyReply> {
  const info = await existing(call);
  const reply = objectHeaders(call, info);
  if (info.folder) return reply.header("content-length", "0").code(200).send("");
  const range = rangeOf(call.req.headers.range, info.size);
  const file = volumeOf(call).files.dir.pathOf(info.key);
  if (!range) return reply.header("content-length", String(info.size)).code(200).send(createReadStream(file));
  return reply
    .code(206)
    .header("content-range", `bytes ${range.start}-${range.end}/${info.size}`)
    .header("content-length", String(range.end - range.start + 1))
    .send(createReadStream(file, { start: range.start, end: range.end }));
}

/** DeleteObject: a file, or an empty folder (`dir/`); a missing key is no error. */
export async function deleteObject(call: S3Call): Promise<FastifyReply> {
  const key = call.key ?? "";
  const { files } = volumeOf(call);
  if (!volumeKeyProblem(key, true)) await files.dir.remove(key);
  return call.reply.code(204).send();
}

/**
 * CopyObject: `x-amz-copy-source` (`bucket/key`, a volume of the account in this data center) to
 * the call's key. Like the platform, it does not check for free space first: a copy that fills
 * the volume fails part way, and nothing of it stays.
 */
export async function copyObject(call: S3Call): Promise<FastifyReply> {
  const key = keyOf(call);
  const { record, files } = volumeOf(call);
  const raw = String(call.req.headers["x-amz-copy-source"]);
  const [pathPart, query = ""] = raw.split("?");
  if (parseQuery(query).versionId !== undefined)
    throw invalidArgument("x-amz-copy-source", raw, "versions are not supported");
  const source = decodeURIComponent(pathPart!.replace(/^\//, ""));
  const cut = source.indexOf("/");
  if (cut <= 0) throw invalidArgument("x-amz-copy-source", raw, "must be BUCKET/KEY");
  const from = volumeNamed(call, source.slice(0, cut));
  const sourceKey = source.slice(cut + 1);
  const info = volumeKeyProblem(sourceKey) ? undefined : await from.files.dir.info(sourceKey);
  if (!info || info.folder) throw noSuchKey(sourceKey);
  const checks = {
    ...receiveChecks(call, "CopyObject's source", VOLUME_FILE_LIMITS.fileBytes, capacityOf(call, record)),
    sha256: undefined,
    md5Base64: undefined,
    chunked: false,
  };
  const received = await files.dir.receive(createReadStream(from.files.dir.pathOf(sourceKey)), checks);
  const st = await files.dir.place(received, files.dir.pathOf(key), key);
  const etag = `"${received.md5.toString("hex")}"`;
  files.dir.etags.record(key, etag, st.size, st.mtimeMs);
  return sendXml(call, "CopyObjectResult", { ETag: etag, LastModified: isoTime(st.mtimeMs) });
}

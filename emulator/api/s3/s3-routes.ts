import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../server/server-context";
import { headBucket, listBuckets, listMultipartUploads, listObjects } from "./bucket-ops";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listParts,
  uploadPart,
} from "./multipart-ops";
import { copyObject, deleteObject, getObject, headObject, putObject } from "./object-ops";
import { has, type S3Call } from "./s3-call";
import { notImplemented, S3Fault } from "../../s3/s3-fault";
import { s3ErrorDocument } from "../../s3/s3-xml";
import { checkSignature, parseQuery } from "../../s3/sigv4-check";
import { countRequest } from "../../store/account-stats";

/** Where each data center's S3-compatible API answers: `/s3api-<data center id in lower case>`. */
export const S3_PATH_PREFIX = "/s3api-";

/**
 * Sub-resources the platform does not implement, with the operation's name for the answer
 * (`NotImplemented`, 501): versioning, ACLs, policies, tagging, encryption, object lock, and the
 * rest of S3's bucket configuration.
 */
const REFUSED_SUBRESOURCES: Readonly<Record<string, string>> = {
  location: "GetBucketLocation",
  versioning: "Bucket versioning",
  versions: "ListObjectVersions",
  versionId: "Object versions",
  acl: "ACLs",
  policy: "Bucket policies",
  policyStatus: "Bucket policies",
  tagging: "Object tagging",
  encryption: "Encryption",
  "object-lock": "Object lock",
  retention: "Object lock",
  "legal-hold": "Object lock",
  lifecycle: "Bucket lifecycle",
  cors: "Bucket CORS",
  website: "Bucket websites",
  logging: "Bucket logging",
  notification: "Bucket notifications",
  replication: "Replication",
  accelerate: "Transfer acceleration",
  requestPayment: "Requester pays",
  ownershipControls: "Ownership controls",
  publicAccessBlock: "Public access blocks",
  restore: "RestoreObject",
  select: "SelectObjectContent",
  torrent: "GetObjectTorrent",
  attributes: "GetObjectAttributes",
};

/** The operation a bucket-level request asks for. */
function bucketOperation(call: S3Call): (call: S3Call) => unknown {
  switch (call.req.method) {
    case "GET":
      return has(call, "uploads") ? listMultipartUploads : listObjects;
    case "HEAD":
      return headBucket;
    case "PUT":
      throw notImplemented(
        "CreateBucket",
        "a bucket is a network volume, made through the management API or the console",
      );
    case "DELETE":
      throw notImplemented(
        "DeleteBucket",
        "a bucket is a network volume, deleted through the management API or the console",
      );
    case "POST":
      if (has(call, "delete")) throw notImplemented("DeleteObjects", "delete objects one by one with DeleteObject");
  }
  throw notImplemented(`${call.req.method} on a bucket`);
}

/** The operation an object-level request asks for. */
function objectOperation(call: S3Call): (call: S3Call) => unknown {
  const copy = call.req.headers["x-amz-copy-source"] !== undefined;
  switch (call.req.method) {
    case "GET":
      return has(call, "uploadId") ? listParts : getObject;
    case "HEAD":
      return headObject;
    case "PUT":
      if (has(call, "uploadId")) {
        if (copy) throw notImplemented("UploadPartCopy");
        return uploadPart;
      }
      return copy ? copyObject : putObject;
    case "DELETE":
      return has(call, "uploadId") ? abortMultipartUpload : deleteObject;
    case "POST":
      if (has(call, "uploads")) return createMultipartUpload;
      if (has(call, "uploadId")) return completeMultipartUpload;
  }
  throw notImplemented(`${call.req.method} on an object`);
}

/** `/s3api-<dc>/<bucket>/<key>` as data center, bucket and key (decoded), from the path as sent. */
function pathParts(rawPath: string): { dc: string; bucket?: string; key?: string } {
  const rest = rawPath.slice(S3_PATH_PREFIX.length);
  const slash = rest.indexOf("/");
  const dc = slash < 0 ? rest : rest.slice(0, slash);
  if (slash < 0 || slash === rest.length - 1) return { dc };
  const after = rest.slice(slash + 1);
  const cut = after.indexOf("/");
  const bucket = decodeURIComponent(cut < 0 ? after : after.slice(0, cut));
  if (cut < 0 || cut === after.length - 1) return { dc, bucket };
  return { dc, bucket, key: decodeURIComponent(after.slice(cut + 1)) };
}

async function handle(ctx: ServerContext, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const q = req.url.indexOf("?");
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  const rawQuery = q < 0 ? "" : req.url.slice(q + 1);
  let parts: ReturnType<typeof pathParts>;
  try {
    parts = pathParts(rawPath);
  } catch {
    throw new S3Fault(400, "InvalidURI", "Couldn't parse the specified URI.");
  }
  const dataCenter = ctx.catalog.dataCenters().find((d) => d.id.toLowerCase() === parts.dc);
  if (!dataCenter)
    throw new S3Fault(404, "NoSuchDataCenter", `no S3-compatible API at s3api-${parts.dc}: no data center has that id`);
  const service = ctx.s3;
  const signer = await checkSignature(
    { method: req.method, rawPath, rawQuery, headers: req.headers },
    {
      secretOf: (id) => service.keyOf(id)?.secret,
      dataCenterId: dataCenter.id,
      now: service.settings.now,
      maxClockSkewMs: service.settings.maxClockSkewMs,
    },
  );
  const account = service.keyOf(signer.accessKeyId)!.account;
  // Counted in the account's stats as every authenticated request is (`/_emulator/stats`), so a
  // test can say "no request" of the volumes' files too.
  countRequest(account.stats, `${req.method} ${req.routeOptions.url ?? rawPath}`, reply.raw);
  const call: S3Call = {
    req,
    reply,
    service,
    dataCenterId: dataCenter.id,
    account,
    bucket: parts.bucket,
    key: parts.key,
    query: parseQuery(rawQuery),
    contentSha256: signer.contentSha256,
  };
  const refused = Object.keys(call.query).find((name) => REFUSED_SUBRESOURCES[name] !== undefined);
  if (refused) throw notImplemented(REFUSED_SUBRESOURCES[refused]!);
  if (call.bucket === undefined) {
    if (req.method === "GET") return listBuckets(call);
    throw notImplemented(`${req.method} on the service`);
  }
  return (call.key === undefined ? bucketOperation(call) : objectOperation(call))(call);
}

function sendFault(req: FastifyRequest, reply: FastifyReply, fault: S3Fault): FastifyReply {
  return reply
    .code(fault.status)
    .header("content-type", "application/xml")
    .header("x-amz-request-id", req.id)
    .send(s3ErrorDocument({ Code: fault.code, Message: fault.message, ...fault.details, RequestId: req.id }));
}

/**
 * Each data center's S3-compatible API, path-style, under `/s3api-<dc>` on the emulator's origin
 * (docs/emulator.md, "Volume files"): requests are authenticated by their SigV4 signature, not by
 * the bearer key (so the routes are `public` to the bearer check), bodies are streamed to disk
 * unparsed, and errors are S3's `<Error>` documents.
 */
export function registerS3Routes(app: FastifyInstance, ctx: ServerContext): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Bodies stay unread here: each operation streams its own (to disk, or as XML).
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    scope.setErrorHandler((error: FastifyError, req, reply) => {
      if (error instanceof S3Fault) return sendFault(req, reply, error);
      if (error.statusCode !== undefined && error.statusCode < 500) {
        return sendFault(req, reply, new S3Fault(error.statusCode, "InvalidRequest", error.message));
      }
      process.stderr.write(`emulator: unexpected error on ${req.method} ${req.url}: ${error.stack}\n`);
      return sendFault(
        req,
        reply,
        new S3Fault(500, "InternalError", "We encountered an internal error. Please try again."),
      );
    });
    const handler = (req: FastifyRequest, reply: FastifyReply) => handle(ctx, req, reply);
    for (const url of [`${S3_PATH_PREFIX}:dc`, `${S3_PATH_PREFIX}:dc/:bucket`, `${S3_PATH_PREFIX}:dc/:bucket/*`]) {
      scope.route({
        method: ["GET", "HEAD", "PUT", "POST", "DELETE"],
        url,
        handler,
        exposeHeadRoute: false,
        config: { public: true },
      });
    }
  });
}

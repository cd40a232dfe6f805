import { createHash, createHmac, type Hash, type Hmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { SignatureV4 } from "@smithy/signature-v4";
import { notImplemented, S3Fault } from "./s3-fault";

/*
 * AWS Signature Version 4 as the platform checks it: the signature a client sent is compared with
 * the one the AWS SDK's own signer (@smithy/signature-v4) computes for the same request with the
 * key's secret. The emulator parses the Authorization header and checks the credential scope; the
 * signing itself is the library's.
 */

type SourceData = string | ArrayBuffer | ArrayBufferView;

/** SHA-256 (or HMAC-SHA-256 with a secret) on node:crypto, in the shape the signer asks for. */
class NodeSha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(this.secret));
  }
}

function bytes(data: SourceData): Buffer {
  if (typeof data === "string") return Buffer.from(data, "utf8");
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** What a signed request is made of, as it arrived. */
export interface ArrivedRequest {
  method: string;
  /** The path exactly as sent (percent-encoded), without the query. */
  rawPath: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

/** Who signed a request, and with what. */
export interface Signer {
  accessKeyId: string;
  /** `x-amz-content-sha256`: a hex digest, `UNSIGNED-PAYLOAD` or a `STREAMING-...` mode. */
  contentSha256: string;
}

/** The rules the check applies. */
export interface SignatureRules {
  /** The secret of an access key id, or undefined for an unknown one. */
  secretOf(accessKeyId: string): string | undefined;
  /** The data center whose API this is: the region the request must be signed for. */
  dataCenterId: string;
  now(): number;
  maxClockSkewMs: number;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;_-]+),\s*Signature=([0-9a-f]{64})$/;
const PRESIGNED = ["x-amz-signature", "x-amz-credential", "x-amz-algorithm", "signature", "awsaccesskeyid"];
const signers = new Map<string, SignatureV4>();

/** The query as the signer takes it: decoded names and values, repeated names as arrays. */
export function parseQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const pair of raw.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decode(pair.slice(eq + 1));
    const prior = query[name];
    query[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  return query;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Fault(400, "InvalidArgument", `the query holds a malformed percent-encoding: ${JSON.stringify(text)}`);
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** `20260101T120000Z` as a time, or undefined. */
function amzDate(text: string | undefined): number | undefined {
  const m = text ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text) : null;
  if (!m) return undefined;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

const malformed = (message: string, details: Record<string, string> = {}) =>
  new S3Fault(400, "AuthorizationHeaderMalformed", message, details);

/**
 * Checks a request's SigV4 signature, credential scope and time; throws the S3 error the
 * platform answers (`SignatureDoesNotMatch` for a wrong secret, `RequestTimeTooSkewed` beyond
 * the allowed skew, `AuthorizationHeaderMalformed` for another region, `InvalidAccessKeyId` for an
 * unknown key), and answers who signed. Presigned URLs are refused: the platform has none.
 */
export async function checkSignature(req: ArrivedRequest, rules: SignatureRules): Promise<Signer> {
  const query = parseQuery(req.rawQuery);
  if (Object.keys(query).some((name) => PRESIGNED.includes(name.toLowerCase()))) {
    throw notImplemented(
      "A presigned URL",
      "the platform's S3-compatible API does not support presigned URLs; sign each request in its Authorization header",
    );
  }
  const authorization = header(req.headers, "authorization");
  if (!authorization) {
    throw new S3Fault(
      403,
      "AccessDenied",
      "Anonymous access is refused: sign requests with an S3 API key (AWS Signature Version 4)",
    );
  }
  const m = AUTH.exec(authorization.trim());
  if (!m) {
    throw malformed(
      "The authorization header is malformed: the platform takes AWS4-HMAC-SHA256 (Signature Version 4) only",
    );
  }
  const [, accessKeyId, scopeDate, region, service, signedHeaderList, signature] = m as unknown as string[];
  const secret = rules.secretOf(accessKeyId!);
  if (secret === undefined) {
    throw new S3Fault(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.", {
      AWSAccessKeyId: accessKeyId!,
    });
  }
  if (region!.toUpperCase() !== rules.dataCenterId.toUpperCase()) {
    throw malformed(
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${rules.dataCenterId}', the data center of this endpoint`,
      { Region: rules.dataCenterId },
    );
  }
  if (service !== "s3")
    throw malformed(`The authorization header is malformed; the service '${service}' is wrong; expecting 's3'`);
  const dateText = header(req.headers, "x-amz-date");
  const signedAt = amzDate(dateText);
  if (signedAt === undefined)
    throw new S3Fault(403, "AccessDenied", "AWS authentication requires a valid x-amz-date header");
  if (dateText!.slice(0, 8) !== scopeDate)
    throw malformed(`The credential's date ${scopeDate} is not the day of x-amz-date ${dateText}`);
  const skew = Math.abs(rules.now() - signedAt);
  if (skew > rules.maxClockSkewMs) {
    throw new S3Fault(
      403,
      "RequestTimeTooSkewed",
      `The difference between the request time and the server's time is too large (${Math.round(skew / 1000)} s; at most ${rules.maxClockSkewMs / 1000} s).`,
      {
        RequestTime: dateText!,
        ServerTime: new Date(rules.now()).toISOString(),
      },
    );
  }
  const contentSha256 = header(req.headers, "x-amz-content-sha256");
  if (!contentSha256)
    throw new S3Fault(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
  const signedHeaders = signedHeaderList!.split(";");
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = header(req.headers, name);
    if (value === undefined) throw signatureMismatch();
    headers[name] = value;
  }
  let signer = signers.get(`${accessKeyId}\u0000${secret}`);
  if (!signer) {
    signer = new SignatureV4({
      credentials: { accessKeyId: accessKeyId!, secretAccessKey: secret },
      region: region!,
      service: "s3",
      sha256: NodeSha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    if (signers.size > 256) signers.clear();
    signers.set(`${accessKeyId}\u0000${secret}`, signer);
  }
  const signed = await signer.sign(
    { method: req.method, protocol: "http:", hostname: "", path: req.rawPath, query, headers },
    {
      signingDate: new Date(signedAt),
      signingRegion: region!,
      signingService: "s3",
      signableHeaders: new Set(signedHeaders),
    },
  );
  const expected = /Signature=([0-9a-f]{64})$/.exec(String(signed.headers.authorization))?.[1] ?? "";
  if (expected.length !== 64 || !timingSafeEqual(Buffer.from(expected), Buffer.from(signature!)))
    throw signatureMismatch();
  return { accessKeyId: accessKeyId!, contentSha256 };
}

function signatureMismatch(): S3Fault {
  return new S3Fault(
    403,
    "SignatureDoesNotMatch",
    "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
  );
}

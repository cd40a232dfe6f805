import { Transform, type TransformCallback } from "node:stream";
import { S3Fault } from "./s3-fault";

/**
 * Whether a body comes in `aws-chunked` framing: the `STREAMING-...` payload modes of
 * `x-amz-content-sha256` (chunks with a signature each, or unsigned with trailing checksums), as
 * botocore and the AWS SDKs send streamed bodies with checksums.
 */
export function isAwsChunked(contentSha256: string, contentEncoding: string | undefined): boolean {
  return (
    contentSha256.startsWith("STREAMING-") || (contentEncoding ?? "").split(",").some((e) => e.trim() === "aws-chunked")
  );
}

const MAX_LINE = 4096;
const bad = () => new S3Fault(400, "IncompleteBody", "the aws-chunked body is malformed");

/**
 * Strips the `aws-chunked` framing, passing on the payload's bytes only:
 * `<hex size>[;chunk-signature=...]\r\n<bytes>\r\n` per chunk, then a zero-size chunk and any
 * trailing headers (checksums), which are not checked. Chunk signatures are not checked either: the
 * request's seed signature is, by the signature check.
 */
export class AwsChunkedDecoder extends Transform {
  private state: "size" | "data" | "crlf" | "trailer" = "size";
  private line = "";
  private remaining = 0;
  private crlfLeft = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === "data") {
        const n = Math.min(this.remaining, chunk.length - i);
        this.push(chunk.subarray(i, i + n));
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) {
          this.state = "crlf";
          this.crlfLeft = 2;
        }
      } else if (this.state === "crlf") {
        i++;
        if (--this.crlfLeft === 0) this.state = "size";
      } else if (this.state === "trailer") {
        // Trailing checksum headers, then the end: nothing more of the payload.
        i = chunk.length;
      } else {
        const byte = chunk[i++]!;
        if (byte !== 0x0a) {
          this.line += String.fromCharCode(byte);
          if (this.line.length > MAX_LINE) return done(bad());
          continue;
        }
        const size = Number.parseInt(this.line.replace(/\r$/, "").split(";")[0]!, 16);
        this.line = "";
        if (!Number.isSafeInteger(size) || size < 0) return done(bad());
        if (size === 0) this.state = "trailer";
        else {
          this.state = "data";
          this.remaining = size;
        }
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    done(this.state === "trailer" ? null : bad());
  }
}

import { RunpodError, type RunpodErrorCode } from "../errors";

/** Which request of the S3-compatible API an error belongs to (never a credential). */
export interface S3RequestInfo {
  /** The S3 operation, e.g. `PutObject`. */
  operation: string;
  dataCenterId: string;
  /** The bucket: a network volume id. */
  volumeId?: string | undefined;
  key?: string | undefined;
  /** The access key id that signed it (the user id; not a secret). */
  accessKeyId?: string | undefined;
}

/**
 * An error of a network volume's S3-compatible API: what was asked (`operation`, `dataCenterId`,
 * `volumeId`, `key`), S3's error code (`s3Code`, e.g. `SignatureDoesNotMatch`) and the HTTP status
 * when there was an answer. The message says what it means in the platform's terms ("the S3 key
 * was refused"), never S3's raw XML, and never a secret. `code` follows the client's codes:
 * `unauthorized` for a refused key, `not_found`, `payload_too_large`, `unsupported_operation`,
 * `server_error`, `connection_error`, `timeout`, `aborted`, else `api_error`.
 */
export class S3Error extends RunpodError {
  override name = "S3Error";
  readonly operation: string;
  readonly dataCenterId: string;
  readonly volumeId: string | undefined;
  readonly key: string | undefined;

  constructor(
    code: RunpodErrorCode,
    message: string,
    request: S3RequestInfo,
    /** S3's error code, when the service answered with one. */
    readonly s3Code: string | undefined,
    /** The HTTP status, when there was an answer. */
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.operation = request.operation;
    this.dataCenterId = request.dataCenterId;
    this.volumeId = request.volumeId;
    this.key = request.key;
  }
}

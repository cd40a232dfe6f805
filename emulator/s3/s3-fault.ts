/**
 * An S3 error answer: the code and status S3 clients branch on (botocore, the AWS SDKs), and a
 * message for people. Thrown anywhere below a route; the S3 routes' error handler renders it as
 * S3's `<Error>` document.
 */
export class S3Fault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra elements of the `<Error>` document, e.g. `{ Key: "a.txt" }`. */
    readonly details: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** The refused operations' code: what the platform does not implement (docs/emulator.md, "Volume files"). */
export function notImplemented(
  operation: string,
  why = "the platform's S3-compatible API does not support it",
): S3Fault {
  return new S3Fault(501, "NotImplemented", `${operation} is not implemented: ${why}`);
}

/** `NoSuchBucket`: the bucket is not a network volume of this account in this data center. */
export function noSuchBucket(bucket: string, dataCenterId: string): S3Fault {
  return new S3Fault(
    404,
    "NoSuchBucket",
    `${bucket} is not a network volume of this account in data center ${dataCenterId}`,
    { BucketName: bucket },
  );
}

/** `NoSuchKey`: no file at this key. */
export function noSuchKey(key: string): S3Fault {
  return new S3Fault(404, "NoSuchKey", "The specified key does not exist.", { Key: key });
}

/** `NoSuchUpload`: no multipart upload of this id for this key. */
export function noSuchUpload(uploadId: string): S3Fault {
  return new S3Fault(404, "NoSuchUpload", "The specified multipart upload does not exist.", { UploadId: uploadId });
}

/** `InvalidArgument` naming the argument, its value and the rule. */
export function invalidArgument(name: string, value: string, rule: string): S3Fault {
  return new S3Fault(400, "InvalidArgument", `${name} = ${JSON.stringify(value)}: ${rule}`, {
    ArgumentName: name,
    ArgumentValue: value,
  });
}

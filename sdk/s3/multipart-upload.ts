import { VOLUME_FILE_LIMITS } from "../schemas/volume-files";
import { forEachLimited } from "./pool";

/** S3's largest number of parts in one upload. */
export const MAX_PARTS = 10_000;

/** The requests of one multipart upload, bound to its volume and key. */
export interface PartRequests {
  create(): Promise<string>;
  /** Sends bytes `start` to `end` (inclusive) of the file as part `partNumber`; answers its ETag. */
  uploadPart(uploadId: string, partNumber: number, start: number, end: number): Promise<string>;
  complete(uploadId: string, parts: readonly { PartNumber: number; ETag: string }[]): Promise<string>;
  abort(uploadId: string): Promise<void>;
}

/**
 * The part size for a file: `preferred`, raised so the file needs at most 10,000 parts, and
 * refused above the platform's largest part (only a file over the 4 TB limit gets there).
 */
export function partSizeFor(size: number, preferred: number): number {
  const partSize = Math.max(preferred, Math.ceil(size / MAX_PARTS));
  if (partSize > VOLUME_FILE_LIMITS.partBytes) {
    throw new RangeError(
      `a file of ${size} bytes needs parts over ${VOLUME_FILE_LIMITS.partBytes} bytes; the platform's largest file is ${VOLUME_FILE_LIMITS.fileBytes} bytes`,
    );
  }
  return partSize;
}

/**
 * Uploads a file of `size` bytes in parts of `partSize`, `concurrency` at a time, each streamed
 * from its byte range on disk (memory does not grow with the file). A failure (after each
 * request's own retries) aborts the upload, so no parts are left behind, and is thrown; the
 * object appears under its key only when CompleteMultipartUpload succeeds.
 */
export async function uploadInParts(
  requests: PartRequests,
  size: number,
  partSize: number,
  concurrency: number,
): Promise<{ etag: string; parts: number }> {
  const ranges: { partNumber: number; start: number; end: number }[] = [];
  for (let start = 0, n = 1; start < size; start += partSize, n++) {
    ranges.push({ partNumber: n, start, end: Math.min(size, start + partSize) - 1 });
  }
  const uploadId = await requests.create();
  try {
    const etags: string[] = [];
    await forEachLimited(ranges, concurrency, async (range) => {
      etags[range.partNumber - 1] = await requests.uploadPart(uploadId, range.partNumber, range.start, range.end);
    });
    const etag = await requests.complete(
      uploadId,
      ranges.map((r) => ({ PartNumber: r.partNumber, ETag: etags[r.partNumber - 1]! })),
    );
    return { etag, parts: ranges.length };
  } catch (error) {
    await requests.abort(uploadId).catch(() => undefined);
    throw error;
  }
}

import { LIMITS } from "./limits";

/**
 * The rules of a network volume's S3-compatible API (docs/client.md, "Volume files"; docs/emulator.md),
 * in one place: the client and the sync library obey them, the emulator enforces them. A volume
 * is a file system: an object key is a file's path on it, so a key is what a path may be.
 */
export const VOLUME_FILE_LIMITS = {
  /** A PutObject body must be smaller than this (the platform: "under 500 MB"); larger files go multipart. */
  putObjectBytes: 500_000_000,
  /** A multipart part is at most this large; there is no minimum (the platform does not enforce 5 MB). */
  partBytes: 500_000_000,
  /** The largest file: the largest volume (4096 GB). */
  fileBytes: LIMITS.volumeSizeGbV2.max * 1_000_000_000,
  /** Bytes in one GB of a volume's `size` (decimal, the smaller reading, so a plan never promises too much). */
  bytesPerGb: 1_000_000_000,
  /** An object key's length in UTF-8 bytes (S3's bound). */
  keyBytes: 1024,
  /** One path segment's length in UTF-8 bytes (a file name on the volume's file system). */
  segmentBytes: 255,
} as const;

/**
 * The hidden folder at a volume's root where the platform keeps multipart uploads in progress
 * (cleaned up on complete or abort). No key may lie under it.
 */
export const MULTIPART_FOLDER = ".s3compat_uploads";

/**
 * Why `key` cannot name a file on a volume, or undefined when it can. `directory` allows the one
 * trailing `/` of a folder marker (`models/`).
 */
export function volumeKeyProblem(key: string, directory = false): string | undefined {
  if (key === "") return "must not be empty";
  if (key.startsWith("/")) return "must not start with /: keys are paths relative to the volume's root";
  if (key.includes("\u0000")) return "must not contain a NUL character";
  if (Buffer.byteLength(key, "utf8") > VOLUME_FILE_LIMITS.keyBytes) {
    return `must be at most ${VOLUME_FILE_LIMITS.keyBytes} bytes in UTF-8`;
  }
  const body = directory && key.endsWith("/") ? key.slice(0, -1) : key;
  if (body.endsWith("/")) return "must not end with /: that names a folder, not a file";
  const segments = body.split("/");
  for (const segment of segments) {
    if (segment === "") return "must not contain an empty path segment (//)";
    if (segment === "." || segment === "..") return `must not contain the path segment "${segment}"`;
    if (Buffer.byteLength(segment, "utf8") > VOLUME_FILE_LIMITS.segmentBytes) {
      return `each path segment must be at most ${VOLUME_FILE_LIMITS.segmentBytes} bytes in UTF-8`;
    }
  }
  if (segments[0] === MULTIPART_FOLDER) return `must not lie under ${MULTIPART_FOLDER}/, the platform's own folder`;
  return undefined;
}

/** The platform's S3-compatible API: `{dc}` is a data center id in lower case. */
export const DEFAULT_S3_URL = "https://s3api-{dc}.runpod.io";

/** The S3 endpoint of a data center: `{dc}` in the URL template replaced by its id in lower case. */
export function s3EndpointOf(urlTemplate: string, dataCenterId: string): string {
  return urlTemplate.replaceAll("{dc}", dataCenterId.toLowerCase()).replace(/\/+$/, "");
}

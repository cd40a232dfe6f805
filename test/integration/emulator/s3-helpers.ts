import { S3Client } from "@aws-sdk/client-s3";
import type { RunningEmulator } from "../../../emulator";
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_SECRET_ACCESS_KEY } from "../../../emulator/s3/s3-options";
import type { Client } from "./helpers";

/** The documented default S3 key of the default (first) account. */
export const S3_KEY = { accessKeyId: DEFAULT_S3_ACCESS_KEY_ID, secretAccessKey: DEFAULT_S3_SECRET_ACCESS_KEY };

/**
 * The AWS SDK's own S3 client against one data center's S3-compatible API of the emulator,
 * path-style, signing for `region` (default: the data center), with `credentials` (default: the
 * documented key). No checksum trailers, as the platform documents none; no retries, so a test sees
 * each answer.
 */
export function s3Of(
  emu: RunningEmulator,
  dataCenterId: string,
  options: { credentials?: { accessKeyId: string; secretAccessKey: string }; region?: string } = {},
): S3Client {
  return new S3Client({
    endpoint: emu.s3Url.replace("{dc}", dataCenterId.toLowerCase()),
    region: options.region ?? dataCenterId,
    forcePathStyle: true,
    credentials: options.credentials ?? S3_KEY,
    maxAttempts: 1,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** Creates a network volume through management API v1 and answers its id. */
export async function createVolume(api: Client, size = 10, dataCenterId = "EU-RO-1"): Promise<string> {
  const res = await api.post("/v1/networkvolumes", { name: `v-${Math.random()}`, size, dataCenterId });
  if (res.status !== 200) throw new Error(`volume creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** The S3 error a promise rejected with: its code (the SDK's `name`) and HTTP status. */
export async function s3Failure(
  promise: Promise<unknown>,
): Promise<{ code: string; status: number | undefined; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { code: e.name, status: e.$metadata?.httpStatusCode, message: e.message };
  }
  throw new Error("the request succeeded; a failure was expected");
}

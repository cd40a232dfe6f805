import type { S3Client } from "@aws-sdk/client-s3";
import { s3EndpointOf } from "../schemas/volume-files";
import { withRetries } from "./s3-calls";
import type { S3RequestInfo } from "./s3-errors";
import { requireS3Credentials, type ResolvedS3Settings } from "./s3-settings";

/** The AWS SDK's S3 module, loaded on first use. */
export type S3Sdk = typeof import("@aws-sdk/client-s3");

/** The per-request options the AWS SDK takes. */
export interface HttpOptions {
  abortSignal: AbortSignal | undefined;
  requestTimeout: number;
}

const quiet = () => undefined;
/** A logger that says nothing: the SDK never prints a request (or anything of a key). */
const SILENT = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet };

/** A network volume, as its S3-compatible API addresses it: its data center and its id (the bucket). */
export interface VolumeRef {
  /** The volume's data center id, e.g. `EU-RO-1`: it picks the endpoint and is the signing region. */
  dataCenterId: string;
  volumeId: string;
}

/**
 * One AWS SDK client per data center (its own endpoint and signing region), and the one way a
 * request is sent: with {@link withRetries}, each attempt built anew.
 */
export class S3Connections {
  private readonly clients = new Map<string, Promise<{ s3: S3Client; sdk: S3Sdk }>>();

  constructor(readonly settings: ResolvedS3Settings) {}

  /** What an error of this request names (never the secret). */
  info(operation: string, volume: VolumeRef, key?: string): S3RequestInfo {
    const { dataCenterId, volumeId } = volume;
    return { operation, dataCenterId, volumeId, key, accessKeyId: this.settings.accessKeyId };
  }

  /** One request with retries: `run` sends it anew on each attempt. */
  async call<T>(
    request: S3RequestInfo,
    run: (s3: S3Client, sdk: S3Sdk, http: HttpOptions) => Promise<T>,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<T> {
    const { s3, sdk } = await this.clientFor(request.dataCenterId);
    const http = { abortSignal: signal, requestTimeout: timeoutMs ?? this.settings.requestTimeoutMs };
    return withRetries(this.settings, request, () => run(s3, sdk, http), signal);
  }

  /** Closes every connection. */
  close(): void {
    for (const client of this.clients.values())
      void client.then(
        ({ s3 }) => s3.destroy(),
        () => undefined,
      );
    this.clients.clear();
  }

  private clientFor(dataCenterId: string): Promise<{ s3: S3Client; sdk: S3Sdk }> {
    let client = this.clients.get(dataCenterId);
    if (!client) {
      const credentials = requireS3Credentials(this.settings);
      client = import("@aws-sdk/client-s3").then((sdk) => ({
        sdk,
        s3: new sdk.S3Client({
          endpoint: s3EndpointOf(this.settings.url, dataCenterId),
          region: dataCenterId,
          forcePathStyle: true,
          credentials,
          // Retries are withRetries' (each attempt needs a fresh body stream).
          maxAttempts: 1,
          // The platform documents no support for the SDK's default CRC32 trailers: send and check none.
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
          // The SDK's warnings (a failed streaming request) are this client's to report, as S3Errors.
          logger: SILENT,
          requestHandler: {
            requestTimeout: this.settings.requestTimeoutMs,
            connectionTimeout: 30_000,
            httpAgent: { keepAlive: true, maxSockets: 64 },
          },
        }),
      }));
      this.clients.set(dataCenterId, client);
    }
    return client;
  }
}

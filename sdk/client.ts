import { type ApiVersion, type RunpodClientOptions, resolveClientConfig } from "./config";
import { EndpointJobs } from "./jobs/endpoint-jobs";
import type {
  BillingOperations,
  ContainerRegistryAuthOperations,
  EndpointOperations,
  ManagementApi,
  NetworkVolumeOperations,
  PodOperations,
  TemplateOperations,
} from "./management/neutral/api";
import { ManagementV1 } from "./management/v1/management-v1";
import { ManagementV2 } from "./management/v2/management-v2";
import { NeutralEndpointsOverV2 } from "./management/neutral/over-v2/endpoints";
import { GpuCatalogCache } from "./management/neutral/over-v2/gpu-catalog-cache";
import { NeutralNetworkVolumesOverV2 } from "./management/neutral/over-v2/network-volumes";
import { NeutralContainerRegistryAuthsOverV2 } from "./management/neutral/over-v2/registry-auths";
import { NeutralTemplatesOverV2 } from "./management/neutral/over-v2/templates";
import { NeutralBillingOverV2 } from "./management/neutral/over-v2/billing";
import { NeutralPodsOverV2 } from "./management/neutral/over-v2/pods";
import type { VolumeS3ClientOptions } from "./s3/s3-settings";
import { VolumeS3Client } from "./s3/volume-s3-client";
import { type PinnedFetch, type PinnedFetchOptions, pinnedFetch } from "./jobs/pinned-fetch";
import { Transport } from "./transport";

/**
 * Typed client for the platform's documented API: management, in both versions, and the
 * queue-based job operations (`/v2/<endpoint_id>/...`).
 *
 * The management base URL (`apiUrl`) names the version: `https://api.runpod.io/v2` (the default)
 * or a URL ending in `/v1`. `networkVolumes`, `endpoints`, `templates`,
 * `containerRegistryAuth`, `pods` and `billing` are the version-neutral operations (v1's field names, on either
 * version); `v1` and `v2` hold each version's own operations, and refuse, before sending, to
 * run on a client that talks the other version.
 *
 * ```ts
 * const client = new RunpodClient(); // RUNPOD_API_KEY, RUNPOD_API_URL, RUNPOD_QUEUE_URL
 * const volume = await client.networkVolumes.create({ name: "models", size: 50, dataCenterId: "EU-RO-1" });
 * const job = await client.jobs("my-endpoint-id").runSync({ input: { prompt: "hi" } });
 * ```
 */
export class RunpodClient implements ManagementApi {
  /** The management API version this client talks (from `apiUrl`). */
  readonly apiVersion: ApiVersion;
  /** Network volumes, on either version. */
  readonly networkVolumes: NetworkVolumeOperations;
  /** Serverless endpoints, on either version. */
  readonly endpoints: EndpointOperations;
  /** Templates, on either version. */
  readonly templates: TemplateOperations;
  /** Container registry credentials, on either version. */
  readonly containerRegistryAuth: ContainerRegistryAuthOperations;
  /** Pods, on either version (`reset` is v1's alone). */
  readonly pods: PodOperations;
  /** Billing of pods, serverless endpoints and network volumes, on either version. */
  readonly billing: BillingOperations;
  /** Management API v1's own operations (`https://rest.runpod.io/v1`). */
  readonly v1: ManagementV1;
  /** Management API v2's own operations (`https://api.runpod.io/v2`). */
  readonly v2: ManagementV2;
  /** @internal */
  readonly transport: Transport;

  constructor(options: RunpodClientOptions = {}) {
    this.transport = new Transport(resolveClientConfig(options));
    this.apiVersion = this.transport.config.apiVersion;
    this.v1 = new ManagementV1(this.transport);
    this.v2 = new ManagementV2(this.transport);
    const onV2 = this.apiVersion === "v2";
    this.networkVolumes = onV2 ? new NeutralNetworkVolumesOverV2(this.v2.networkVolumes) : this.v1.networkVolumes;
    // The live GPU catalog maps gpuTypeIds to pools on v2; read once per client and kept a few minutes.
    const gpuCatalog = new GpuCatalogCache(() => this.v2.catalog.gpus());
    this.endpoints = onV2 ? new NeutralEndpointsOverV2(this.v2.serverless, gpuCatalog) : this.v1.endpoints;
    this.templates = onV2 ? new NeutralTemplatesOverV2(this.v2.templates) : this.v1.templates;
    this.containerRegistryAuth = onV2
      ? new NeutralContainerRegistryAuthsOverV2(this.v2.registries)
      : this.v1.containerRegistryAuth;
    this.pods = onV2 ? new NeutralPodsOverV2(this.v2.pods) : this.v1.pods;
    this.billing = onV2 ? new NeutralBillingOverV2(this.v2.billing) : this.v1.billing;
  }

  /** Job operations of an endpoint or a pre-deployed model id. */
  jobs(endpointId: string): EndpointJobs {
    return new EndpointJobs(this.transport, endpointId);
  }

  /** The base URL of an endpoint's job operations: `{queueUrl}/<id>`. */
  endpointUrl(endpointId: string): string {
    return `${this.transport.config.queueUrl}/${endpointId}`;
  }

  /**
   * A client of network volumes' S3-compatible API (docs/client.md, "Volume files") with this
   * client's S3 settings (`s3AccessKeyId`, `s3SecretAccessKey`, `s3Url`, or their environment
   * variables); `options` tunes it. Close it when done.
   */
  volumeFiles(
    options: Omit<VolumeS3ClientOptions, "s3AccessKeyId" | "s3SecretAccessKey" | "s3Url"> = {},
  ): VolumeS3Client {
    const { s3AccessKeyId, s3SecretAccessKey, s3Url } = this.transport.config;
    return new VolumeS3Client({ ...options, s3AccessKeyId, s3SecretAccessKey, s3Url });
  }

  /**
   * A `fetch` that pins a session to one worker of a load-balancing endpoint (worker affinity:
   * `X-Runpod-Worker-Id`, docs/client.md "Worker affinity"), for the `openai` package's `fetch`
   * option or plain HTTP. It pins to the worker that answers its first request (or to `worker`),
   * and adds the API key to requests of the platform's that carry none. A `worker` that is not a
   * worker id is refused here, before any request.
   *
   * ```ts
   * const session = client.pinnedFetch(); // soft; { mode: "strict" } for only that worker
   * const openai = new OpenAI({ apiKey, baseURL: `${lbUrl}/v1`, fetch: session });
   * ```
   */
  pinnedFetch(options: PinnedFetchOptions = {}): PinnedFetch {
    const config = this.transport.config;
    return pinnedFetch(options, config.apiKey, config.queueUrl);
  }

  /** Closes pooled keep-alive connections. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

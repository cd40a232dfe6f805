import { type RunpodClientOptions, resolveClientConfig } from "./config";
import { EndpointJobs } from "./jobs/endpoint-jobs";
import { ContainerRegistryAuths } from "./management/container-registry-auths";
import { Endpoints } from "./management/endpoints";
import { NetworkVolumes } from "./management/network-volumes";
import { Templates } from "./management/templates";
import { Transport } from "./transport";

/**
 * Typed client for the platform's documented API: management (`/v1`) and queue-based job
 * operations (`/v2/<endpoint_id>/...`).
 *
 * ```ts
 * const client = new RunpodClient(); // RUNPOD_API_KEY, RUNPOD_API_URL, RUNPOD_QUEUE_URL
 * const volume = await client.networkVolumes.create({ name: "models", size: 50, dataCenterId: "EU-RO-1" });
 * const job = await client.jobs("my-endpoint-id").runSync({ input: { prompt: "hi" } });
 * ```
 */
export class RunpodClient {
  /** Network volumes (`/v1/networkvolumes`). */
  readonly networkVolumes: NetworkVolumes;
  /** Serverless endpoints (`/v1/endpoints`). */
  readonly endpoints: Endpoints;
  /** Templates (`/v1/templates`). */
  readonly templates: Templates;
  /** Container registry auths (`/v1/containerregistryauth`). */
  readonly containerRegistryAuth: ContainerRegistryAuths;
  /** @internal */
  readonly transport: Transport;

  constructor(options: RunpodClientOptions = {}) {
    this.transport = new Transport(resolveClientConfig(options));
    this.networkVolumes = new NetworkVolumes(this.transport);
    this.endpoints = new Endpoints(this.transport);
    this.templates = new Templates(this.transport);
    this.containerRegistryAuth = new ContainerRegistryAuths(this.transport);
  }

  /** Job operations of an endpoint or a pre-deployed model id. */
  jobs(endpointId: string): EndpointJobs {
    return new EndpointJobs(this.transport, endpointId);
  }

  /** The base URL of an endpoint's job operations: `{queueUrl}/<id>`. */
  endpointUrl(endpointId: string): string {
    return `${this.transport.config.queueUrl}/${endpointId}`;
  }

  /** Closes pooled keep-alive connections. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

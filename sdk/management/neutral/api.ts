import type { ApiVersion } from "../../config";
import type {
  BillingRecord,
  ContainerRegistryAuth,
  ContainerRegistryAuthCreateInput,
  Endpoint,
  EndpointCreateInput,
  EndpointBillingQuery,
  EndpointUpdateInput,
  NetworkVolume,
  NetworkVolumeBillingQuery,
  NetworkVolumeBillingRecord,
  NetworkVolumeCreateInput,
  NetworkVolumeUpdateInput,
  Pod,
  PodBillingQuery,
  PodCreateInput,
  PodUpdateInPlaceInput,
  PodUpdateInput,
  Template,
  TemplateCreateInput,
  TemplateUpdateInput,
} from "../../schemas";
import type { CallOptions } from "../../transport";

/*
 * The version-neutral management API: what both API versions can do, in one shape, so code that
 * does not care which version it talks to (the provider, the CLI) is written once. Its inputs and
 * answers take v1's field names (`dataCenterId`, `gpuTypeIds`, `workersMin`, `imageName`), which
 * users' programs and states already hold. On v1 the `*V1` classes implement it as they are; on
 * v2 the `Neutral*OverV2` classes (over-v2/) translate to and from v2's wire. An input only one version has is refused on the other before anything is sent
 * (`VERSION_ONLY_FIELDS`, a `RequestValidationError` naming the field and both versions).
 *
 * `client.networkVolumes` (and the others) implement these on whichever version the client's
 * `apiUrl` names; `client.v1` and `client.v2` hold each version's own operations.
 */

/** Options of a network volume update. */
export interface NetworkVolumeUpdateOptions extends CallOptions {
  /**
   * The volume's current size, when the caller knows it. The size-only-grows rule is checked
   * against it before any request; without it, the client reads the volume first.
   */
  currentSize?: number | undefined;
}

/** Network volumes, on either version. */
export interface NetworkVolumeOperations {
  /** Creates one. Not idempotent: a lost answer is never retried. */
  create(input: NetworkVolumeCreateInput, options?: CallOptions): Promise<NetworkVolume>;
  /** Reads one; a missing one is a `NotFoundError`. */
  get(id: string, options?: CallOptions): Promise<NetworkVolume>;
  /** Lists the account's. */
  list(options?: CallOptions): Promise<NetworkVolume[]>;
  /** Renames and/or grows one; a size that does not grow is refused before sending. */
  update(id: string, input: NetworkVolumeUpdateInput, options?: NetworkVolumeUpdateOptions): Promise<NetworkVolume>;
  /** Deletes one; a missing one is a `NotFoundError`. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/**
 * Serverless endpoints, on either version. On v2 a create needs a `name`; `gpuTypeIds` travel as
 * the GPU pools holding them (read back in catalog order: v2 keeps no order); the answer's
 * `templateId` is undefined (v2 copies a template's settings once and keeps no link); `type`,
 * `gpuPools`, `excludedGpuTypes` and `PRIORITY_FLASHBOOT` exist on v2 only.
 */
export interface EndpointOperations {
  /** Creates one. Not idempotent: a lost answer is never retried. */
  create(input: EndpointCreateInput, options?: CallOptions): Promise<Endpoint>;
  /** Reads one; a missing one is a `NotFoundError`. */
  get(id: string, options?: CallOptions): Promise<Endpoint>;
  /** Lists the account's. */
  list(options?: CallOptions): Promise<Endpoint[]>;
  /** Updates one in place (a rolling release on the platform). */
  update(id: string, input: EndpointUpdateInput, options?: CallOptions): Promise<Endpoint>;
  /** Deletes one, with its workers; a missing one is a `NotFoundError`. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/**
 * Templates, on either version. On v2, `dockerStartCmd` travels as one `args` string, the volume
 * as a persistent mount, and `readme` and a non-empty `dockerEntrypoint` are refused; `startSsh`,
 * `startJupyter` and `args` exist on v2 only.
 */
export interface TemplateOperations {
  /** Creates one (names are unique in the account). Not idempotent. */
  create(input: TemplateCreateInput, options?: CallOptions): Promise<Template>;
  /** Reads one of the account's; a missing one is a `NotFoundError`. */
  get(id: string, options?: CallOptions): Promise<Template>;
  /** Lists the account's. */
  list(options?: CallOptions): Promise<Template[]>;
  /** Updates one in place. */
  update(id: string, input: TemplateUpdateInput, options?: CallOptions): Promise<Template>;
  /** Deletes one (refused while something uses it); a missing one is a `NotFoundError`. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/** Container registry credentials, on either version. There is no update: the password is write-only. */
export interface ContainerRegistryAuthOperations {
  /** Creates one (names are unique in the account). Not idempotent. */
  create(input: ContainerRegistryAuthCreateInput, options?: CallOptions): Promise<ContainerRegistryAuth>;
  /** Reads one (id and name: the credentials never come back). */
  get(id: string, options?: CallOptions): Promise<ContainerRegistryAuth>;
  /** Lists the account's. */
  list(options?: CallOptions): Promise<ContainerRegistryAuth[]>;
  /** Deletes one (refused while a template uses it); a missing one is a `NotFoundError`. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/** Options of a pod read: v1's `include*` flags (v2 answers the same facts always, and ignores them). */
export interface PodReadOptions extends CallOptions {
  /** Include the machine the pod runs on (v1 `machine`: its data center, GPU type, ...). */
  includeMachine?: boolean | undefined;
  /** Include the attached network volume (v1 `networkVolume`). */
  includeNetworkVolume?: boolean | undefined;
  /** Include the savings plans applied to the pod. */
  includeSavingsPlans?: boolean | undefined;
  /** Include the pod's template. */
  includeTemplate?: boolean | undefined;
  /** List serverless workers too (v1 only). */
  includeWorkers?: boolean | undefined;
}

/**
 * Filters of a pod list (OpenAPI v1 `GET /pods`). On v2, whose list has no filters, the client
 * applies them to the answer; `templateId` and `endpointId` are v1-only (`VERSION_ONLY_FIELDS.podList`).
 */
export interface PodListOptions extends PodReadOptions {
  /** Only GPU or only CPU pods. */
  computeType?: "GPU" | "CPU" | undefined;
  /** Only CPU pods of one of these flavors. */
  cpuFlavorId?: readonly string[] | undefined;
  /** Only pods in one of these data centers. */
  dataCenterId?: readonly string[] | undefined;
  /** Only pods in this state. */
  desiredStatus?: "RUNNING" | "EXITED" | "TERMINATED" | undefined;
  /** Only workers of this serverless endpoint (v1 only, with `includeWorkers`). */
  endpointId?: string | undefined;
  /** Only pods with one of these GPU types. */
  gpuTypeId?: readonly string[] | undefined;
  /** Only this pod. */
  id?: string | undefined;
  /** Only pods of this image. */
  imageName?: string | undefined;
  /** Only pods of this name. */
  name?: string | undefined;
  /** Only pods with this network volume attached. */
  networkVolumeId?: string | undefined;
  /** Only pods created from this template (v1 only). */
  templateId?: string | undefined;
}

/**
 * Pods, on either version. The lifecycle: `stop` (to `EXITED`: compute released, disks kept),
 * `start` (back to `RUNNING`, which needs free GPUs again), `restart` (the container restarts in
 * place), `delete`. `update` changes the container: on v1 through `POST /pods/{id}/update`, which
 * resets the pod, and on v2 through `PATCH`; on both the running container is replaced on the new
 * settings and its container disk wiped, while the pod volume and a network volume keep their
 * data. `updateInPlace` (name, locked) touches nothing that runs. `reset` is v1's alone.
 */
export interface PodOperations {
  /** Creates one (placed on free GPUs or vCPUs, or a `BadRequestError` saying what was not found). Not idempotent. */
  create(input: PodCreateInput, options?: CallOptions): Promise<Pod>;
  /** Reads one; a missing one is a `NotFoundError`. */
  get(id: string, options?: PodReadOptions): Promise<Pod>;
  /** Lists the account's, filtered. */
  list(options?: PodListOptions): Promise<Pod[]>;
  /** Renames and/or locks or unlocks one, without touching what runs. */
  updateInPlace(id: string, input: PodUpdateInPlaceInput, options?: CallOptions): Promise<Pod>;
  /** Changes the container (image, env, ports, disks, ...): the container restarts and its disk is wiped. */
  update(id: string, input: PodUpdateInput, options?: CallOptions): Promise<Pod>;
  /** Starts a stopped pod (`EXITED` to `RUNNING`); starting a running one changes nothing. */
  start(id: string, options?: CallOptions): Promise<void>;
  /** Stops a running pod (refused while it is locked); stopping a stopped one changes nothing. */
  stop(id: string, options?: CallOptions): Promise<void>;
  /** Restarts a running pod's container in place. */
  restart(id: string, options?: CallOptions): Promise<void>;
  /**
   * Resets a pod: its container restarts and its container disk is wiped (refused while locked).
   * v1 only: on v2 an `UnsupportedOperationError` (use `update`, which v2 applies by `PATCH`, or `restart`).
   */
  reset(id: string, options?: CallOptions): Promise<void>;
  /** Deletes (terminates) one; a missing one is a `NotFoundError`. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/**
 * Billing, on either version: per kind of resource, records of an amount per time bucket and
 * group, in v1's shape (`BillingRecord`, `NetworkVolumeBillingRecord`). On v2 the client reads
 * `/v2/billing/pods`, `/v2/billing/serverless` and `/v2/billing/network-volumes` and answers the
 * same shape (one record per resource and bucket; v2 has no GPU-type grouping).
 */
export interface BillingOperations {
  /** What pods cost: grouped by pod (`grouping: "podId"`, both versions) or GPU type (v1 only, v1's default). */
  pods(query?: PodBillingQuery, options?: CallOptions): Promise<BillingRecord[]>;
  /** What serverless endpoints cost: grouped by endpoint (both versions), worker or GPU type (v1 only). */
  endpoints(query?: EndpointBillingQuery, options?: CallOptions): Promise<BillingRecord[]>;
  /** What network volume storage costs, per bucket (all volumes; one volume with `networkVolumeId`, v2 only). */
  networkVolumes(query?: NetworkVolumeBillingQuery, options?: CallOptions): Promise<NetworkVolumeBillingRecord[]>;
}

/** Everything both management API versions can do, in one shape. */
export interface ManagementApi {
  /** The version this client talks (from its `apiUrl`). */
  readonly apiVersion: ApiVersion;
  /** Network volumes. */
  readonly networkVolumes: NetworkVolumeOperations;
  /** Serverless endpoints. */
  readonly endpoints: EndpointOperations;
  /** Templates. */
  readonly templates: TemplateOperations;
  /** Container registry credentials. */
  readonly containerRegistryAuth: ContainerRegistryAuthOperations;
  /** Pods. */
  readonly pods: PodOperations;
  /** Billing. */
  readonly billing: BillingOperations;
}

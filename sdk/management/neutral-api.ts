import type { ApiVersion } from "../config";
import type {
  ContainerRegistryAuth,
  ContainerRegistryAuthCreateInput,
  Endpoint,
  EndpointCreateInput,
  EndpointUpdateInput,
  NetworkVolume,
  NetworkVolumeCreateInput,
  NetworkVolumeUpdateInput,
  Template,
  TemplateCreateInput,
  TemplateUpdateInput,
} from "../schemas";
import type { CallOptions } from "../transport";

/*
 * The version-neutral management interface (issue 27, item 2): what both API versions can do,
 * in one shape, so code that does not care which version it talks to (the provider, the CLI)
 * is written once. Its inputs and answers take v1's field names (`dataCenterId`, `gpuTypeIds`,
 * `workersMin`, `imageName`), which users' programs and states already hold; v2's dialect
 * translates them. An input only one version has is refused on the other before anything is sent
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
}

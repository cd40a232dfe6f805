import type { ContainerRegistryAuthArgs } from "./container-registry-auth";
import type { NetworkVolumeArgs } from "./network-volume";
import type { RunpodResourceType } from "./runpod-resource";
import type { ServerlessEndpointArgs } from "./serverless-endpoint";
import type { TemplateArgs } from "./template";

/**
 * How each input property changes a deployed resource: in place, or by replacement. The tables
 * below are the single source for `diff`, the README's replace/update table and the tests.
 */
export interface FieldRule {
  /** A change replaces the resource instead of updating it. */
  replaces?: boolean;
  /** Arrays only: whether order is meaningful (a reorder is an update). Default true. */
  ordered?: boolean;
}

/**
 * Inputs every resource may have that are no platform field, so no table lists them: `adoptId`
 * takes an existing resource under management at create and is ignored afterwards.
 */
export type BookkeepingInput = "adoptId";

/**
 * The field table of a resource whose inputs are `Args`: exactly one rule per input (issue 29).
 * An input added to `Args` without a rule, or a rule whose key is not an input (a typo), is a
 * `tsc` error where the table is declared.
 */
export type FieldTable<Args> = { readonly [K in Exclude<keyof Args, BookkeepingInput>]-?: FieldRule };

/**
 * The inputs of each resource type. A resource type added to {@link RunpodResourceType} without
 * its entry here (and its table in {@link FIELD_RULES}) does not compile.
 */
export interface ResourceArgsByType {
  /** {@link NetworkVolumeArgs}. */
  NetworkVolume: NetworkVolumeArgs;
  /** {@link ServerlessEndpointArgs}. */
  ServerlessEndpoint: ServerlessEndpointArgs;
  /** {@link TemplateArgs}. */
  Template: TemplateArgs;
  /** {@link ContainerRegistryAuthArgs}. */
  ContainerRegistryAuth: ContainerRegistryAuthArgs;
}

/** NetworkVolume inputs. `size` may only grow (checked in `check`). */
export const NETWORK_VOLUME_FIELDS: FieldTable<NetworkVolumeArgs> = {
  name: {},
  size: {},
  // A volume lives in one data center; moving it means a new, empty volume.
  dataCenterId: { replaces: true },
  // A storage tier is chosen at creation (v2's `type` is immutable).
  type: { replaces: true },
};

/** ServerlessEndpoint inputs. */
export const SERVERLESS_ENDPOINT_FIELDS: FieldTable<ServerlessEndpointArgs> = {
  templateId: {},
  name: {},
  // A priority list: the first type is rented when available, so order is meaningful.
  gpuTypeIds: { ordered: true },
  gpuCount: {},
  workersMin: {},
  workersMax: {},
  idleTimeout: {},
  // The update input has no computeType: GPU and CPU endpoints are different resources.
  computeType: { replaces: true },
  scalerType: {},
  scalerValue: {},
  executionTimeoutMs: {},
  flashboot: {},
  networkVolumeId: {},
  networkVolumeIds: { ordered: false },
  dataCenterIds: { ordered: false },
  allowedCudaVersions: { ordered: false },
  minCudaVersion: {},
  // CPU flavors are rented in list order, like GPU types.
  cpuFlavorIds: { ordered: true },
  vcpuCount: {},
};

/**
 * Template inputs (OpenAPI `TemplateCreateInput`). Everything `TemplateUpdateInput` carries
 * updates in place through `POST /templates/{id}/update`, which rolls the endpoints that use the
 * template; `category` and `isServerless` are not in the update input, so they replace.
 */
export const TEMPLATE_FIELDS: FieldTable<TemplateArgs> = {
  name: {},
  imageName: {},
  category: { replaces: true },
  isServerless: { replaces: true },
  containerDiskInGb: {},
  volumeInGb: {},
  volumeMountPath: {},
  // Exposed ports are a set: "8888/http" and "22/tcp" in any order are the same ports.
  ports: { ordered: false },
  env: {},
  // An entrypoint and a start command are argument lists: order is meaning.
  dockerEntrypoint: { ordered: true },
  dockerStartCmd: { ordered: true },
  containerRegistryAuthId: {},
  readme: {},
  isPublic: {},
};

/** ContainerRegistryAuth inputs. The API has no update: every change replaces. */
export const CONTAINER_REGISTRY_AUTH_FIELDS: FieldTable<ContainerRegistryAuthArgs> = {
  name: { replaces: true },
  username: { replaces: true },
  password: { replaces: true },
};

/**
 * Every resource type's field table, by type name. Typed over {@link RunpodResourceType}, so a
 * new resource (Pod) adds its `Args` to {@link ResourceArgsByType} and one table here, and
 * compiles only once both are in.
 */
export const FIELD_RULES: { readonly [T in RunpodResourceType]: FieldTable<ResourceArgsByType[T]> } = {
  NetworkVolume: NETWORK_VOLUME_FIELDS,
  ServerlessEndpoint: SERVERLESS_ENDPOINT_FIELDS,
  Template: TEMPLATE_FIELDS,
  ContainerRegistryAuth: CONTAINER_REGISTRY_AUTH_FIELDS,
};

import type { ContainerRegistryAuthArgs } from "./container-registry-auth";
import type { NetworkVolumeArgs } from "./network-volume";
import type { PodArgs } from "./pod";
import type { RunpodResourceType } from "./runpod-resource";
import type { ServerlessEndpointArgs } from "./serverless-endpoint";
import type { TemplateArgs } from "./template";

/**
 * How each input property changes a deployed resource: in place, through a reset, or by
 * replacement. The tables below are the single source for `diff`, the README's replace/update
 * table and the tests.
 */
export interface FieldRule {
  /** A change replaces the resource instead of updating it. */
  replaces?: boolean;
  /**
   * A change updates the same resource, but through an update that restarts what runs and wipes
   * its local disk (a pod's reset update on v1, its `PATCH` on v2); the preview says so. Never
   * together with `replaces`.
   */
  resets?: boolean;
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
  /** {@link PodArgs}. */
  Pod: PodArgs;
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

/** A field a pod's update input carries, and which the platform applies by replacing the container. */
const RESETS: FieldRule = { resets: true };
/** A field the pod update input cannot carry: the pod's placement and machine are fixed at creation. */
const FIXED: FieldRule = { replaces: true };

/**
 * Pod inputs (OpenAPI v1 `PodCreateInput`, plus v2's `startSsh`/`startJupyter`/`minCudaVersion`
 * and `desiredStatus`). `name` and `locked` update in place (`PATCH`), `desiredStatus` stops or
 * starts the same pod; the rest of `PodUpdateInput` updates through the reset update on v1 and
 * `PATCH` on v2, both of which replace the running container and wipe its container disk (the pod
 * volume and a network volume keep their data). What the update input cannot carry (the machine:
 * GPU or CPU type and count, cloud, data centers, spot, the network volume, the template, and the
 * filters and switches that only choose a machine at creation) replaces the pod.
 */
export const POD_FIELDS: FieldTable<PodArgs> = {
  name: {},
  locked: {},
  desiredStatus: {},
  imageName: RESETS,
  env: RESETS,
  // Exposed ports are a set, as for templates.
  ports: { resets: true, ordered: false },
  containerDiskInGb: RESETS,
  volumeInGb: RESETS,
  volumeMountPath: RESETS,
  dockerEntrypoint: RESETS,
  dockerStartCmd: RESETS,
  containerRegistryAuthId: RESETS,
  globalNetworking: RESETS,
  templateId: FIXED,
  computeType: FIXED,
  cloudType: FIXED,
  // Priority lists: their order chose the machine, which is fixed once the pod is placed.
  gpuTypeIds: FIXED,
  gpuTypePriority: FIXED,
  gpuCount: FIXED,
  cpuFlavorIds: FIXED,
  cpuFlavorPriority: FIXED,
  vcpuCount: FIXED,
  dataCenterIds: { replaces: true, ordered: false },
  dataCenterPriority: FIXED,
  countryCodes: { replaces: true, ordered: false },
  allowedCudaVersions: { replaces: true, ordered: false },
  minCudaVersion: FIXED,
  interruptible: FIXED,
  networkVolumeId: FIXED,
  supportPublicIp: FIXED,
  minRAMPerGPU: FIXED,
  minVCPUPerGPU: FIXED,
  minDiskBandwidthMBps: FIXED,
  minDownloadMbps: FIXED,
  minUploadMbps: FIXED,
  // What happens once, when the pod is created (v2): an SSH key or a Jupyter password injected.
  startSsh: FIXED,
  startJupyter: FIXED,
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
  Pod: POD_FIELDS,
};

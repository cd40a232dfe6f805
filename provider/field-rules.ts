import type { ApiVersion } from "../sdk/config";
import type { ClusterArgs } from "./cluster";
import type { ContainerRegistryAuthArgs } from "./container-registry-auth";
import type { NetworkVolumeArgs } from "./network-volume";
import type { PodArgs } from "./pod";
import type { RunpodResourceType } from "./runpod-resource";
import type { SecretArgs } from "./secret";
import type { ServerlessEndpointArgs } from "./serverless-endpoint";
import type { TemplateArgs } from "./template";

/**
 * How each input property changes a deployed resource: in place, through a reset, or by
 * replacement. The tables below are the single source for `diff` and `update`; the tables of
 * docs/resources.md and the REPLACES/RESETS words of each input's doc comment are checked against
 * them (test/unit/provider/field-docs.test.ts), and the pod table against the platform's pod
 * update input (pod-provider.ts).
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
  /**
   * Arrays only: order is meaningful on this management API version alone; on the other, a
   * reorder is no change (v2 rents from GPU pools and keeps no order among types).
   */
  orderedOnlyOn?: ApiVersion;
  /**
   * The value's meaning, when two spellings mean the same (flash boot's `true` and
   * `"FLASHBOOT"`): values are compared after it, so a respelling alone is no change.
   */
  meaning?: (value: unknown) => unknown;
}

/**
 * Inputs that are no platform field, so no table lists them: `adoptId` (every resource) takes an
 * existing resource under management at create and is ignored afterwards; `waitForRollout`,
 * `rollbackOnFailure` and `rolloutTimeoutSeconds` (endpoints and templates) say how a step waits
 * for the endpoints it rolls (rollout-settings.ts). Never sent, never a diff on their own.
 */
export type BookkeepingInput = "adoptId" | "waitForRollout" | "rollbackOnFailure" | "rolloutTimeoutSeconds";

/**
 * The field table of a resource whose inputs are `Args`: exactly one rule per input.
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
  /** {@link ClusterArgs}. */
  Cluster: ClusterArgs;
  /** {@link SecretArgs}. */
  Secret: SecretArgs;
}

/** NetworkVolume inputs. `size` may only grow (checked in `check`). */
export const NETWORK_VOLUME_FIELDS: FieldTable<NetworkVolumeArgs> = {
  name: {},
  size: {},
  // A volume lives in one data center; moving it means a new, empty volume.
  dataCenterId: { replaces: true },
  // A storage tier is chosen at creation (v2's `type` is immutable).
  // Unset is a queue, so declaring `type: "QUEUE"` on a deployed endpoint is no change.
  type: { replaces: true, meaning: (v) => v ?? "QUEUE" },
};

/** Flash boot's meaning: v1's `true`/`false` are v2's `FLASHBOOT`/`OFF`. */
export function flashbootMeaning(value: unknown): unknown {
  return value === true ? "FLASHBOOT" : value === false ? "OFF" : value;
}

/** ServerlessEndpoint inputs. */
export const SERVERLESS_ENDPOINT_FIELDS: FieldTable<ServerlessEndpointArgs> = {
  // v1 keeps the link (a template update rolls the endpoint); v2 re-applies a new one with PATCH.
  templateId: {},
  name: {},
  // A queue and a load balancer are different kinds of endpoint: v2's update has no `type`.
  // Unset is a queue, so declaring `type: "QUEUE"` on a deployed endpoint is no change.
  type: { replaces: true, meaning: (v) => v ?? "QUEUE" },
  // v1: a priority list, the first type rented when available, so order is meaningful. v2 rents
  // from pools and keeps no order: a reorder alone is no change there.
  gpuTypeIds: { ordered: true, orderedOnlyOn: "v1" },
  // Pools and the types taken out of them are sets (v2 only).
  gpuPools: { ordered: false },
  excludedGpuTypes: { ordered: false },
  gpuCount: {},
  workersMin: {},
  workersMax: {},
  idleTimeout: {},
  // The update input has no computeType: GPU and CPU endpoints are different resources.
  computeType: { replaces: true },
  scalerType: {},
  scalerValue: {},
  executionTimeoutMs: {},
  flashboot: { meaning: flashbootMeaning },
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
 * Template inputs (OpenAPI `TemplateCreateInput`, and v2's `startSsh`, `startJupyter`, `args`).
 * Everything the update inputs carry updates in place (v1 rolls the endpoints linked to the
 * template; on v2 the provider re-applies the template to the endpoints created from it:
 * template-rollout.ts); `category` and `isServerless` are not in v1's update input, so they replace.
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
  // v2 only: the SSH and Jupyter switches and the command as one string update in place.
  startSsh: {},
  startJupyter: {},
  args: {},
};

/** ContainerRegistryAuth inputs. The API has no update: every change replaces. */
export const CONTAINER_REGISTRY_AUTH_FIELDS: FieldTable<ContainerRegistryAuthArgs> = {
  name: { replaces: true },
  username: { replaces: true },
  password: { replaces: true },
};

/** A field a pod's update input carries, and which the platform applies by replacing the container. */
const RESETS = { resets: true } as const;
/** A field the pod update input cannot carry: the pod's placement and machine are fixed at creation. */
const FIXED = { replaces: true } as const;

// The pod table with its rules' literal types, which pod-provider.ts compares with the
// platform's update inputs (see PodFieldsWhere); exported as POD_FIELDS.
const POD_FIELD_RULES = {
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
} as const satisfies FieldTable<PodArgs>;

/**
 * Pod inputs (OpenAPI v1 `PodCreateInput`, plus v2's `startSsh`/`startJupyter`/`minCudaVersion`
 * and `desiredStatus`). `name` and `locked` update in place (`PATCH`), `desiredStatus` stops or
 * starts the same pod; the rest of `PodUpdateInput` updates through the reset update on v1 and
 * `PATCH` on v2, both of which replace the running container and wipe its container disk (the pod
 * volume and a network volume keep their data). What the update input cannot carry (the machine:
 * GPU or CPU type and count, cloud, data centers, spot, the network volume, the template, and the
 * filters and switches that only choose a machine at creation) replaces the pod.
 */
export const POD_FIELDS: FieldTable<PodArgs> = POD_FIELD_RULES;

/**
 * The pod inputs whose rule is `Rule`, by the rules' literal types: `PodFieldsWhere<{ resets: true }>`
 * are the fields that reset, `PodFieldsWhere<{ resets?: undefined; replaces?: undefined }>` those
 * that change in place. pod-provider.ts compares them with the platform's update inputs.
 */
export type PodFieldsWhere<Rule> = {
  [K in keyof typeof POD_FIELD_RULES]: (typeof POD_FIELD_RULES)[K] extends Rule ? K : never;
}[keyof typeof POD_FIELD_RULES];

/** A cluster's container setting: fixed at creation, its values compared as the pod's field of the same name (ports and data centers are sets). */
function fixedAsInPod(field: keyof typeof POD_FIELDS): FieldRule {
  const { ordered } = POD_FIELDS[field];
  return ordered === undefined ? FIXED : { ...FIXED, ordered };
}

/**
 * Cluster inputs (OpenAPI v2 `CreateClusterRequest`, the container settings named as a pod's).
 * The platform's only update is a rename (`PATCH /v2/clusters/{id}`): the type, the compute shape
 * and the container settings of every member pod are fixed at creation, so a change to any of
 * them replaces the cluster.
 */
export const CLUSTER_FIELDS: FieldTable<ClusterArgs> = {
  name: {},
  type: FIXED,
  gpuTypeId: FIXED,
  gpuCountPerPod: FIXED,
  podCount: FIXED,
  imageName: fixedAsInPod("imageName"),
  env: fixedAsInPod("env"),
  ports: fixedAsInPod("ports"),
  containerDiskInGb: fixedAsInPod("containerDiskInGb"),
  volumeInGb: fixedAsInPod("volumeInGb"),
  volumeMountPath: fixedAsInPod("volumeMountPath"),
  dockerStartCmd: fixedAsInPod("dockerStartCmd"),
  networkVolumeId: fixedAsInPod("networkVolumeId"),
  dataCenterIds: fixedAsInPod("dataCenterIds"),
  startSsh: fixedAsInPod("startSsh"),
  startJupyter: fixedAsInPod("startJupyter"),
};

/**
 * Secret inputs. The platform cannot rename a secret (its name is what env values refer to), so a
 * new name replaces it; a new value is a rotation and a new description an update, both in place.
 * No description, `null` and `""` all mean none.
 */
export const SECRET_FIELDS: FieldTable<SecretArgs> = {
  name: { replaces: true },
  value: {},
  description: { meaning: (v) => v ?? "" },
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
  Cluster: CLUSTER_FIELDS,
  Secret: SECRET_FIELDS,
};

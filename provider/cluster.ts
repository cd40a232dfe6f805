import * as pulumi from "@pulumi/pulumi";
// From platform-enums.ts itself, not the schemas index: a program that type-checks its use of this
// class then never type-checks zod's declarations (see serverless-endpoint.ts).
import { CLUSTER_TYPES, type ClusterType, type GpuTypeId } from "../sdk/schemas/platform-enums";
import { namingInputs } from "./auto-name";
import { warnAboutPlatformValues } from "./platform-value-warnings";
import type { PodArgs } from "./pod";
import {
  type InputsAsOutputs,
  isResourceOfType,
  RunpodResource,
  typeToken,
  withSecretOutputs,
} from "./runpod-resource";

/**
 * Inputs of a {@link Cluster}, named as the platform's `CreateClusterRequest` (management API v2)
 * for the shape and as a {@link PodArgs | Pod}'s inputs for the container settings every member
 * pod runs, with the pod's rules and defaults. Only `name` changes in place (the platform's one
 * update is a rename); a change to anything else replaces the cluster (`@replaces`): a new cluster
 * is placed, then the old one is deleted with its pods. The preview says so in words. A member pod
 * cannot be reset on its own (the pod routes refuse a cluster's members).
 */
export interface ClusterArgs {
  /**
   * Name on the platform: the platform's one update of a cluster is a rename. Default: the logical
   * name plus a stack-unique suffix.
   */
  name?: pulumi.Input<string>;
  /**
   * `TRAINING`, `SLURM`, `RAY` or `APPLICATION`. An open value: a type this release does not know
   * passes with a warning, and the platform decides at `pulumi up`.
   * @replaces
   */
  type: pulumi.Input<ClusterType>;
  /**
   * The GPU type of every member pod.
   * @replaces
   */
  gpuTypeId: pulumi.Input<GpuTypeId>;
  /**
   * GPUs in each member pod, at least 1 (at most the GPU type's per-pod maximum).
   * @replaces
   */
  gpuCountPerPod: pulumi.Input<number>;
  /**
   * Member pods (nodes), 2 to 250, all placed in one data center.
   * @replaces
   */
  podCount: pulumi.Input<number>;
  /**
   * The container image every member pod runs.
   * @replaces
   */
  imageName: NonNullable<PodArgs["imageName"]>;
  /**
   * Environment of every member's container; values may be `pulumi.secret(...)`: the whole `env`
   * output is always secret. The platform adds `NODE_RANK` (and `PUBLIC_KEY`, `JUPYTER_PASSWORD`
   * with `startSsh`, `startJupyter`).
   * @replaces
   */
  env?: PodArgs["env"];
  /**
   * Exposed ports as `<port>/<http|tcp>` (default `["8888/http", "22/tcp"]`).
   * @replaces @unordered
   */
  ports?: PodArgs["ports"];
  /**
   * Container disk of each member in GB (default 50).
   * @replaces
   */
  containerDiskInGb?: PodArgs["containerDiskInGb"];
  /**
   * Pod volume of each member in GB (default 20; none with `networkVolumeId`).
   * @replaces
   */
  volumeInGb?: PodArgs["volumeInGb"];
  /**
   * Where the pod volume (or network volume) is mounted (default `/workspace`).
   * @replaces
   */
  volumeMountPath?: PodArgs["volumeMountPath"];
  /**
   * Overrides the image's CMD (sent as v2's `args`).
   * @replaces
   */
  dockerStartCmd?: PodArgs["dockerStartCmd"];
  /**
   * A network volume every member mounts, e.g. `volume.id`; the cluster is placed in its data center.
   * @replaces
   */
  networkVolumeId?: PodArgs["networkVolumeId"];
  /**
   * Data centers the cluster may be placed in (the whole cluster goes to one of them).
   * @replaces @unordered
   */
  dataCenterIds?: PodArgs["dataCenterIds"];
  /**
   * Inject the account's SSH keys as `PUBLIC_KEY` into every member at creation.
   * @replaces
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * Start Jupyter on every member, with a generated `JUPYTER_PASSWORD`, at creation.
   * @replaces
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Id of an existing cluster to take under management instead of creating one. Its type, shape
   * and image must match; a different name is renamed.
   */
  adoptId?: pulumi.Input<string>;
}

/** A member pod of a {@link Cluster}, as its `pods` output lists it (by rank). */
export interface ClusterPod {
  /** The pod's id (a pod of the cluster: the pod routes refuse to stop or delete it on its own). */
  id: string;
  /** Its node rank (`NODE_RANK`): 0 is the primary node (for SLURM, the controller). */
  rank?: number;
  /** Its address on the cluster's private overlay network. */
  clusterIp?: string;
  /** Its public IP, when it has one and runs. */
  publicIp?: string;
  /** Public port of each exposed private port (`{ "22": 10341 }`), when it runs. */
  portMappings?: Record<string, number>;
}

/** The inputs that are always outputs: the name (a default one when the program gives none) and the required ones. */
type AlwaysSet = "name" | "type" | "gpuTypeId" | "gpuCountPerPod" | "podCount" | "imageName";

// The outputs of a Cluster that repeat its inputs: the name, type, shape and image always, the
// others when the program sets them.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface Cluster extends InputsAsOutputs<
  ClusterArgs,
  AlwaysSet,
  Exclude<keyof ClusterArgs, AlwaysSet | "adoptId">
> {}

/**
 * An instant cluster (management API v2 only): `podCount` identical GPU pods of `gpuCountPerPod`
 * GPUs of one type, placed together in one data center on a private network. Renaming is the only
 * change in place; any other change replaces the cluster, which needs the stock of both clusters
 * for a moment unless the resource sets the `deleteBeforeReplace` option. On management API v1 it
 * fails at preview.
 *
 * Outputs: `name`, `type`, `gpuTypeId`, `gpuCountPerPod`, `podCount`, `imageName`, `dataCenterId`
 * (where it was placed), `pods` (each member's id and addresses), `costPerHr` (the members' sum),
 * and each other input the program sets.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class Cluster extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("Cluster");

  /** The data center the platform placed the cluster in. */
  declare readonly dataCenterId: pulumi.Output<string | undefined>;
  /** The member pods by rank: ids and addresses, as the platform reported them at the last create, update or refresh. */
  declare readonly pods: pulumi.Output<ClusterPod[]>;
  /** Dollars per hour of the whole cluster: the members' current costs summed. */
  declare readonly costPerHr: pulumi.Output<number>;

  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      ...namingInputs(name, "Cluster", args.name),
      // Which resource the provider's preview notice is about (diff has no URN of its own).
      __urn: pulumi.createUrn(name, typeToken("Cluster"), opts?.parent),
      // Output-only: listed (undefined) so the engine registers them as output properties.
      dataCenterId: undefined,
      pods: undefined,
      costPerHr: undefined,
    };
    super("Cluster", name, props, withSecretOutputs(opts, ["env"]));
    warnAboutPlatformValues(this, "Cluster", args);
    warnAboutClusterType(this, args.type);
  }

  /** Whether `obj` is a Cluster, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Cluster {
    return isResourceOfType(obj, "Cluster");
  }
}

/**
 * The warning at preview for a cluster type this release does not know: the set is open (the
 * platform decides at `pulumi up`), as for GPU types and data centers.
 */
export function clusterTypeWarning(type: unknown): string | undefined {
  if (typeof type !== "string" || (CLUSTER_TYPES as readonly string[]).includes(type)) return undefined;
  const near = CLUSTER_TYPES.find((known) => known === type.trim().toUpperCase());
  const hint = near ? ` (did you mean ${JSON.stringify(near)}?)` : "";
  return `type = ${JSON.stringify(type)}: is not in this release's list of cluster types (${CLUSTER_TYPES.join(", ")})${hint}; it may be newer than this release of runpod-iac, and the platform decides at \`pulumi up\``;
}

function warnAboutClusterType(resource: pulumi.Resource, type: pulumi.Input<ClusterType>): void {
  pulumi.output(type).apply((value) => {
    const warning = clusterTypeWarning(value);
    if (warning) void pulumi.log.warn(warning, resource);
  });
}

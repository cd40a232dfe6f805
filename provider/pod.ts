import * as pulumi from "@pulumi/pulumi";
// From platform-enums.ts itself, not the schemas index: a program that type-checks its use of this
// class then never type-checks zod's declarations (see serverless-endpoint.ts).
import type { ComputeType, CudaVersion, DataCenterId, GpuTypeId, PodCpuFlavorId } from "../sdk/schemas/platform-enums";
import { namingInputs } from "./auto-name";
import { warnAboutPlatformValues } from "./platform-value-warnings";
import {
  type InputsAsOutputs,
  isResourceOfType,
  RunpodResource,
  typeToken,
  withSecretOutputs,
} from "./runpod-resource";

/** What a pod is asked to be: running (billed) or stopped (its GPUs released, its disks kept). */
export type PodDesiredStatus = "RUNNING" | "EXITED";

/**
 * Inputs of a {@link Pod}, named as the platform's `PodCreateInput` (management API v1), plus
 * `desiredStatus` and v2's `startSsh`/`startJupyter`/`minCudaVersion`/placement filters. A change applies in place,
 * through a reset (`@resets`: the same pod, its container restarted on the new settings and its
 * container disk wiped, which the preview says in words) or by replacement (`@replaces`: what
 * chose the machine at creation). An `@apiVersion` input fails at preview on the other version.
 */
export interface PodArgs {
  /** Name on the platform (need not be unique). Default: the logical name plus a stack-unique suffix. */
  name?: pulumi.Input<string>;
  /** A locked pod cannot be stopped or reset (default false). */
  locked?: pulumi.Input<boolean>;
  /**
   * `RUNNING` (default) or `EXITED`: a change stops or starts the same pod (`/stop`, `/start`). A
   * stopped pod releases its GPUs and costs nothing; its volumes and container disk keep their
   * data. Starting needs free GPUs on its machine again: when they are taken, `up` fails with the
   * platform's message and the pod stays stopped.
   */
  desiredStatus?: pulumi.Input<PodDesiredStatus>;
  /**
   * The container image, e.g. `pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime`. Needed unless
   * `templateId` gives one.
   * @resets
   * @wire v2 image
   */
  imageName?: pulumi.Input<string>;
  /**
   * Environment of the container. Values may be `pulumi.secret(...)`: the whole `env` output is
   * always secret. Env the platform injects (`PUBLIC_KEY` with `startSsh`, a generated
   * `JUPYTER_PASSWORD`) is kept when this changes.
   * @resets
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Exposed ports as `<port>/<http|tcp>` (default `["8888/http", "22/tcp"]`).
   * @resets @unordered
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Container disk in GB (default 50; at least 1 on v2), wiped on every reset.
   * @resets
   * @wire v2 disk
   */
  containerDiskInGb?: pulumi.Input<number>;
  /**
   * Pod volume in GB (default 20; on v2 0 (none) or at least 10), kept across resets and stops.
   * @resets
   * @wire v2 mounts.persistent.size
   */
  volumeInGb?: pulumi.Input<number>;
  /**
   * Where the pod volume (or network volume) is mounted (default `/workspace`).
   * @resets
   * @wire v2 mounts.persistent.path
   * @wire v2 mounts.network.*.path
   */
  volumeMountPath?: pulumi.Input<string>;
  /**
   * Overrides the image's ENTRYPOINT. v2 runs the image's entrypoint and passes `args`.
   * @resets
   * @apiVersion v1 entrypoint overrides (dockerEntrypoint)
   * @neutral []
   * @freeText
   */
  dockerEntrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /** Overrides the image's CMD. @resets @wire v2 args */
  dockerStartCmd?: pulumi.Input<pulumi.Input<string>[]>;
  /** Credentials to pull a private image: a `ContainerRegistryAuth`'s `id`. @resets @wire v2 registry */
  containerRegistryAuthId?: pulumi.Input<string>;
  /** Join the global network (default false). @resets */
  globalNetworking?: pulumi.Input<boolean>;
  /** A pod template to start from (its image, env, ports, disks). @replaces */
  templateId?: pulumi.Input<string>;
  /** `GPU` (default) or `CPU`. @replaces */
  computeType?: pulumi.Input<ComputeType>;
  /** `SECURE` (default) or `COMMUNITY`. @replaces @wire v2 cloud */
  cloudType?: pulumi.Input<"SECURE" | "COMMUNITY">;
  /**
   * GPU types the pod may rent, in priority order (GPU pods): a reorder is a change too.
   * @replaces
   * @wire v2 gpu.id
   * @wire v2 gpu
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<GpuTypeId>[]>;
  /**
   * `availability` (v1's default: the most available type) or `custom` (the list's order). v2
   * places one named GPU type per create, trying the list in its order: `custom`.
   * @replaces
   * @apiVersion v1 GPU type priorities other than "custom"
   * @neutral "custom"
   */
  gpuTypePriority?: pulumi.Input<"availability" | "custom">;
  /** GPUs in the pod, at least 1 (default 1). @replaces @wire v2 gpu.count */
  gpuCount?: pulumi.Input<number>;
  /**
   * CPU flavors the pod may rent, in priority order (CPU pods; pods also rent `cpu3m` and `cpu5m`).
   * @replaces
   * @wire v2 cpu.id
   */
  cpuFlavorIds?: pulumi.Input<pulumi.Input<PodCpuFlavorId>[]>;
  /**
   * `availability` (v1's default) or `custom` (v2 always).
   * @replaces
   * @apiVersion v1 CPU flavor priorities other than "custom"
   * @neutral "custom"
   */
  cpuFlavorPriority?: pulumi.Input<"availability" | "custom">;
  /** vCPUs of a CPU pod (default 2). @replaces @wire v2 cpu.vcpuCount */
  vcpuCount?: pulumi.Input<number>;
  /** Data centers the pod may be placed in. @replaces @unordered */
  dataCenterIds?: pulumi.Input<pulumi.Input<DataCenterId>[]>;
  /**
   * `availability` (default) or `custom`. v2's scheduler chooses among `dataCenterIds`: `availability`.
   * @replaces
   * @apiVersion v1 data center priorities other than "availability"
   * @neutral "availability"
   */
  dataCenterPriority?: pulumi.Input<"availability" | "custom">;
  /**
   * Countries the pod may be placed in, ISO 3166-1 alpha-2. On v2, find a country's data centers
   * with the catalog's `countryCodes` filter.
   * @replaces @unordered
   * @apiVersion v1 country filters of a pod create
   * @neutral []
   */
  countryCodes?: pulumi.Input<pulumi.Input<string>[]>;
  /** CUDA versions the machine may run. @replaces @unordered @wire v2 gpu.allowedCudaVersions */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<CudaVersion>[]>;
  /**
   * Lowest CUDA version of the machine.
   * @replaces
   * @apiVersion v2 CUDA version floors of pods (minCudaVersion)
   * @wire v2 gpu.minCudaVersion
   */
  minCudaVersion?: pulumi.Input<CudaVersion>;
  /**
   * An interruptible (spot) pod: cheaper, and the platform may stop it at any time. Every v2 pod
   * is on-demand.
   * @replaces
   * @apiVersion v1 interruptible (spot) pods
   * @neutral false
   */
  interruptible?: pulumi.Input<boolean>;
  /**
   * A network volume to mount instead of a pod volume, e.g. `volume.id`; the pod is placed in its
   * data center.
   * @replaces
   * @wire v2 mounts.network.*.volumeId
   */
  networkVolumeId?: pulumi.Input<string>;
  /**
   * Ask for a public IP. On v2 a pod's direct SSH address comes with a published `22/tcp`.
   * @replaces
   * @apiVersion v1 public IP requests (supportPublicIp)
   * @neutral false
   */
  supportPublicIp?: pulumi.Input<boolean>;
  /**
   * Least GB of RAM per GPU of the machine the pod is placed on, at least 1: a placement filter,
   * not a request (`allocatedMemoryGb` says what the pod got, which may be more). Both versions:
   * v1 calls it `minRAMPerGPU` on the wire.
   * @replaces
   * @wire v2 gpu.minRamPerGpu
   */
  minRamPerGpu?: pulumi.Input<number>;
  /**
   * Least vCPUs per GPU of the machine the pod is placed on, at least 1: a placement filter
   * (`allocatedVcpuCount` says what the pod got, which may be more). Both versions: v1 calls it
   * `minVCPUPerGPU` on the wire.
   * @replaces
   * @wire v2 gpu.minVcpuCountPerGpu
   */
  minVcpuCountPerGpu?: pulumi.Input<number>;
  /** Least disk bandwidth of the machine, MB/s. @replaces @apiVersion v1 machine filters (minDiskBandwidthMBps) */
  minDiskBandwidthMBps?: pulumi.Input<number>;
  /** Least download speed of the machine, Mb/s. @replaces @apiVersion v1 machine filters (minDownloadMbps) */
  minDownloadMbps?: pulumi.Input<number>;
  /** Least upload speed of the machine, Mb/s. @replaces @apiVersion v1 machine filters (minUploadMbps) */
  minUploadMbps?: pulumi.Input<number>;
  /**
   * Inject the account's SSH keys as `PUBLIC_KEY` at creation.
   * @replaces
   * @apiVersion v2 SSH key injection at create (startSsh)
   * @neutral false
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * Start Jupyter with a generated `JUPYTER_PASSWORD` (output `jupyterPassword`, secret) at creation.
   * @replaces
   * @apiVersion v2 Jupyter start flags (startJupyter)
   * @neutral false
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Id of an existing pod to take under management instead of creating one. The pod's compute
   * type, GPU count and network volume must match.
   */
  adoptId?: pulumi.Input<string>;
}

// The outputs of a Pod that repeat its inputs: `name` and `desiredStatus` always, the others when
// the program sets them.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface Pod extends InputsAsOutputs<
  PodArgs,
  "name" | "desiredStatus",
  Exclude<keyof PodArgs, "name" | "desiredStatus" | "adoptId">
> {}

/**
 * A pod: a dedicated GPU or CPU machine running one container, billed while `RUNNING`. Set
 * `desiredStatus: "EXITED"` to stop it (GPUs released, disks kept) and `"RUNNING"` to start it
 * again. A change to the container's settings resets the container (its disk wiped), which the
 * preview states; a change of machine replaces the pod.
 *
 * Outputs: `desiredStatus`, `costPerHr`, `adjustedCostPerHr`, `publicIp` and `portMappings`
 * (when the platform has them), `allocatedVcpuCount` and `allocatedMemoryGb`, `name`,
 * `jupyterPassword` (secret, with `startJupyter`), and each input the program sets (the
 * platform's value where a pod read reports it: what refresh compares).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class Pod extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("Pod");

  /** Dollars per hour, as the platform reports it: the pod's price on v1; on v2 its current cost, 0 while stopped. */
  declare readonly costPerHr: pulumi.Output<number>;
  /** {@link costPerHr} after savings plans (v2 has none: the same). */
  declare readonly adjustedCostPerHr: pulumi.Output<number>;
  /** The pod's public IP, when it has one and is running. */
  declare readonly publicIp: pulumi.Output<string | undefined>;
  /** Public port of each exposed private port (`{ "22": 10341 }`), when running. */
  declare readonly portMappings: pulumi.Output<Record<string, number> | undefined>;
  /** The Jupyter password the platform generated (with `startJupyter`). Secret. */
  declare readonly jupyterPassword: pulumi.Output<string | undefined>;
  /** vCPUs the pod was given in all (a GPU pod: its machine's per GPU times its GPUs): may be more than its filters ask. */
  declare readonly allocatedVcpuCount: pulumi.Output<number | undefined>;
  /** GB of RAM the pod was given in all: may be more than `minRamPerGpu` times its GPUs. */
  declare readonly allocatedMemoryGb: pulumi.Output<number | undefined>;

  constructor(name: string, args: PodArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      ...namingInputs(name, "Pod", args.name),
      // Always an input, so that refresh's `EXITED` after an out-of-band stop is a change the next `up` undoes.
      desiredStatus: args.desiredStatus ?? "RUNNING",
      // Which resource the provider's preview notice is about (diff has no URN of its own).
      __urn: pulumi.createUrn(name, typeToken("Pod"), opts?.parent),
      // Output-only: listed (undefined) so the engine registers them as output properties.
      costPerHr: undefined,
      adjustedCostPerHr: undefined,
      publicIp: undefined,
      portMappings: undefined,
      jupyterPassword: undefined,
      allocatedVcpuCount: undefined,
      allocatedMemoryGb: undefined,
    };
    super("Pod", name, props, withSecretOutputs(opts, ["env", "jupyterPassword"]));
    warnAboutPlatformValues(this, "Pod", args);
  }

  /** Whether `obj` is a Pod, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Pod {
    return isResourceOfType(obj, "Pod");
  }
}

import * as pulumi from "@pulumi/pulumi";
// From platform-enums.ts itself, not the schemas index: a program that type-checks its use of this
// class then never type-checks zod's declarations (which need esModuleInterop, off in Pulumi's template).
import type {
  ComputeType,
  CpuFlavorId,
  CudaVersion,
  DataCenterId,
  EndpointType,
  FlashBootMode,
  GpuPoolId,
  GpuTypeId,
  ScalerType,
} from "../sdk/schemas/platform-enums";
import { namingInputs } from "./auto-name";
import { warnAboutPlatformValues } from "./platform-value-warnings";
import type { RolloutInput } from "./rollout-settings";
import { type InputsAsOutputs, isResourceOfType, RunpodResource, typeToken } from "./runpod-resource";

/**
 * Inputs of a {@link ServerlessEndpoint}. Bounds are checked at `pulumi preview`, and so is what
 * the configured management API version cannot do (a load-balancing endpoint, GPU pools or
 * priority flash boot on v1), naming the field and the version.
 */
export interface ServerlessEndpointArgs {
  /**
   * Template the workers run (in the emulator: `echo`, `sleep`, `fail`, `stream` or a handler
   * file). Required. v1 links the endpoint to the template, v2 copies its settings into the
   * endpoint; v2 answers no template id, so the state keeps this one.
   */
  templateId: pulumi.Input<string>;
  /**
   * Name on the platform (at most 191 characters; not empty on v2). Default: the logical name plus a stack-unique
   * suffix, as a volume's.
   */
  name?: pulumi.Input<string>;
  /**
   * `QUEUE` (default: jobs through the queue at `url`) or `LOAD_BALANCER` (no queue: requests go
   * straight to the workers' HTTP servers at `url`, and it scales on `REQUEST_COUNT`).
   * @replaces
   * @meaning queueWhenUnset
   * @apiVersion v2 load-balancing endpoints (type LOAD_BALANCER)
   * @neutral "QUEUE"
   */
  type?: pulumi.Input<EndpointType>;
  /**
   * GPU types the workers may rent: exactly these cards, and no others, on both API versions. On
   * v1 a priority list (the first is rented when available: a reorder is an update); on v2 the
   * pools holding them, with every other type of those pools excluded and no order (a reorder is
   * no change). On v2 a type in no serverless pool fails at preview, naming it.
   * @orderedOn v1
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<GpuTypeId>[]>;
  /**
   * GPU pools, e.g. `["ADA_24", "AMPERE_48"]`: any type of these pools, for users who think in
   * pools; instead of `gpuTypeIds`. Open values: a pool the platform added since is accepted.
   * @unordered
   * @apiVersion v2 GPU pools (gpuPools; on v1 name the GPU types in gpuTypeIds)
   * @wire v2 gpu.pools
   */
  gpuPools?: pulumi.Input<pulumi.Input<GpuPoolId>[]>;
  /**
   * GPU types taken out of `gpuPools`.
   * @unordered
   * @apiVersion v2 GPU types excluded from pools (excludedGpuTypes)
   * @wire v2 gpu.excludedTypes
   */
  excludedGpuTypes?: pulumi.Input<pulumi.Input<GpuTypeId>[]>;
  /**
   * GPUs per worker, at least 1 (platform default 1).
   * @wire v2 gpu.count
   */
  gpuCount?: pulumi.Input<number>;
  /**
   * Workers kept running even when idle (billed), at least 0 and at most `workersMax` (checked at
   * preview).
   * @wire v2 workers.min
   */
  workersMin?: pulumi.Input<number>;
  /**
   * Most workers at once, at least 0.
   * @wire v2 workers.max
   */
  workersMax?: pulumi.Input<number>;
  /**
   * Seconds an idle worker lives before scale-down, 1..3600 (platform default 10 on v2, 5 on v1).
   * @wire v2 workers.idleTimeout
   */
  idleTimeout?: pulumi.Input<number>;
  /**
   * `GPU` (default) or `CPU`: the update API cannot change it.
   * @replaces
   */
  computeType?: pulumi.Input<ComputeType>;
  /**
   * `QUEUE_DELAY` (default for a queue endpoint) or `REQUEST_COUNT` (default, and the only one,
   * for a load-balancing endpoint: `QUEUE_DELAY` on one fails at preview).
   * @wire v2 scaling.type
   * @wire v2 scaling
   */
  scalerType?: pulumi.Input<ScalerType>;
  /**
   * Scaler threshold, at least 1 (platform default 4): seconds of queue delay, or requests per worker.
   * @wire v2 scaling.queueDelay
   * @wire v2 scaling.requestCount
   */
  scalerValue?: pulumi.Input<number>;
  /**
   * Longest a single job (or request) may run, in ms (platform default 300000 on v2, 600000 on v1).
   * @wire v2 timeout
   */
  executionTimeoutMs?: pulumi.Input<number>;
  /**
   * Flash boot: `true` (= `FLASHBOOT`), `false` (= `OFF`), or one of v2's three modes: `OFF`,
   * `FLASHBOOT`, `PRIORITY_FLASHBOOT`. `true` and `"FLASHBOOT"` are the same setting (respelling
   * one as the other is no change).
   * @meaning flashboot
   * @apiVersion v2 priority flash-boot modes (PRIORITY_FLASHBOOT)
   * @neutral true
   * @neutral false
   * @neutral "OFF"
   * @neutral "FLASHBOOT"
   */
  flashboot?: pulumi.Input<boolean | FlashBootMode>;
  /** Network volume to attach, e.g. `volume.id`. */
  networkVolumeId?: pulumi.Input<string>;
  /**
   * Network volumes to attach to a multi-region endpoint.
   * @unordered
   * @wire v2 networkVolumes
   */
  networkVolumeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Data centers workers may run in.
   * @unordered
   */
  dataCenterIds?: pulumi.Input<pulumi.Input<DataCenterId>[]>;
  /**
   * Acceptable CUDA versions.
   * @unordered
   * @wire v2 gpu.allowedCudaVersions
   */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<CudaVersion>[]>;
  /**
   * Minimum CUDA version.
   * @wire v2 gpu.minCudaVersion
   */
  minCudaVersion?: pulumi.Input<CudaVersion>;
  /**
   * CPU flavors in priority order (CPU endpoints), like `gpuTypeIds` on v1.
   * @wire v2 cpu.*.id
   * @wire v2 cpu
   */
  cpuFlavorIds?: pulumi.Input<pulumi.Input<CpuFlavorId>[]>;
  /**
   * vCPUs per CPU worker: at least 1 on v1, 2 on v2 (platform default 2).
   * @wire v2 cpu.*.vcpuCount
   */
  vcpuCount?: pulumi.Input<number>;
  /** Id of an existing endpoint to take under management instead of creating one. */
  adoptId?: pulumi.Input<string>;
  /**
   * Whether `pulumi up` waits, after a change to what the endpoint's workers run, until the
   * endpoint serves it: no worker left on the older configuration and `workersMin` workers of the
   * new one started (docs/resources.md "When an endpoint is deployed"). Default `true`; `false`
   * ends the step once the platform took the change. Never sent to the platform.
   */
  waitForRollout?: pulumi.Input<boolean>;
  /**
   * Whether a rollout that fails puts the endpoint back to the configuration it served before, the state
   * staying as it was so the next `pulumi up` tries again. Default `true`; needs `waitForRollout`.
   * Never sent to the platform.
   */
  rollbackOnFailure?: pulumi.Input<boolean>;
  /**
   * How long a rollout may take before it fails, in seconds (1 to 86400; default 1800, as real
   * image pulls take minutes). The provider plugin also stops by the step's `customTimeouts`.
   * Never sent to the platform.
   */
  rolloutTimeoutSeconds?: pulumi.Input<number>;
}

// The outputs of a ServerlessEndpoint that repeat its inputs: `templateId` and `name` always, the
// others when the program sets them.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface ServerlessEndpoint extends InputsAsOutputs<
  ServerlessEndpointArgs,
  "templateId" | "name",
  Exclude<keyof ServerlessEndpointArgs, "templateId" | "name" | "adoptId" | RolloutInput>
> {}

/**
 * A serverless endpoint: queue-based (jobs), or load-balancing (HTTP straight to the workers,
 * management API v2).
 *
 * Outputs: `url`, `name` and `templateId` always; every other property only when the program sets
 * it (then with the platform's current value, which is what refresh compares). Platform defaults
 * of properties the program leaves unset, and platform bookkeeping (`createdAt`, `userId`,
 * `version`, `instanceIds`, the template's `env`), are not stored in state: read them with the
 * client (`client.endpoints.get(id)`).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class ServerlessEndpoint extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("ServerlessEndpoint");

  /**
   * Where requests go: the job address `{queueUrl}/<id>` of a queue endpoint (`/run`,
   * `/runsync`, ... below it), or the base address of a load-balancing endpoint's HTTP servers.
   */
  declare readonly url: pulumi.Output<string>;
  /** The health address: `{url}/health` of a queue endpoint, the workers' health route of a load-balancing one. */
  declare readonly healthUrl: pulumi.Output<string>;

  constructor(name: string, args: ServerlessEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    // `url` and `healthUrl` are output-only: listed (undefined) so the engine registers them as output properties.
    const props = {
      ...args,
      ...namingInputs(name, "ServerlessEndpoint", args.name),
      // Which resource a rollout's progress is shown under (the host gives create no URN).
      __urn: pulumi.createUrn(name, typeToken("ServerlessEndpoint"), opts?.parent),
      url: undefined,
      healthUrl: undefined,
    };
    super("ServerlessEndpoint", name, props, opts);
    warnAboutPlatformValues(this, "ServerlessEndpoint", args);
  }

  /** Whether `obj` is a ServerlessEndpoint, even across copies of this package. */
  static override isInstance(obj: unknown): obj is ServerlessEndpoint {
    return isResourceOfType(obj, "ServerlessEndpoint");
  }
}

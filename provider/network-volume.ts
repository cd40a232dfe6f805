import type * as pulumi from "@pulumi/pulumi";
import { namingInputs } from "./auto-name";
import { warnAboutPlatformValues } from "./platform-value-warnings";
import { type InputsAsOutputs, isResourceOfType, RunpodResource, typeToken } from "./runpod-resource";

/**
 * Inputs of a {@link NetworkVolume}. Each input's tags say how a change to it applies
 * (`@replaces`; none: in place), which management API version alone carries it (`@apiVersion`)
 * and what v2's wire calls it (`@wire`): docs/design.md, "Adding a field".
 */
export interface NetworkVolumeArgs {
  /**
   * Name on the platform (need not be unique). Default: the logical name plus a 7-character
   * suffix unique to project, stack and logical name.
   */
  name?: pulumi.Input<string>;
  /**
   * Size in GB: 10 to 4096 on management API v2 (the default), 0 to 4000 on v1; outside its
   * version's range it is refused at `pulumi preview`. May only grow: a smaller size fails
   * `pulumi preview` (`size can only grow: the volume has 50 GB and 40 GB was requested`) and
   * nothing is sent to the platform.
   */
  size: pulumi.Input<number>;
  /**
   * Data center, e.g. `EU-RO-1`. A new volume starts empty: **the data on the old one is lost**.
   * Use `protect: true` so Pulumi refuses, and `retainOnDelete: true` to keep the old volume on
   * the platform.
   * @replaces
   * @wire v2 dataCenter
   */
  dataCenterId: pulumi.Input<string>;
  /**
   * Storage tier: `STANDARD`, `HIGH_PERFORMANCE`, or a tier the platform added since (an open
   * value). Default: the data center's primary tier. A tier is fixed at creation, so a change makes
   * a new, empty volume.
   * @replaces
   * @apiVersion v2 storage tiers (STANDARD, HIGH_PERFORMANCE)
   */
  type?: pulumi.Input<string>;
  /**
   * Id of an existing volume to take under management instead of creating one (docs/resources.md,
   * "Adopting existing resources"). Its data center must match; its name and size are converged to
   * these inputs.
   */
  adoptId?: pulumi.Input<string>;
}

// The outputs of a NetworkVolume that repeat its inputs: `name`, `size` and `dataCenterId` always,
// and the storage tier `type` as the platform reports it when the program sets it (on v2; v1 has no
// tiers).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface NetworkVolume extends InputsAsOutputs<NetworkVolumeArgs, "name" | "size" | "dataCenterId", "type"> {}

/** A network volume: persistent storage in one data center. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class NetworkVolume extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("NetworkVolume");

  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super("NetworkVolume", name, { ...args, ...namingInputs(name, "NetworkVolume", args.name) }, opts);
    warnAboutPlatformValues(this, "NetworkVolume", args);
  }

  /** Whether `obj` is a NetworkVolume, even across copies of this package. */
  static override isInstance(obj: unknown): obj is NetworkVolume {
    return isResourceOfType(obj, "NetworkVolume");
  }
}

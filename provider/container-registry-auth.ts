import * as pulumi from "@pulumi/pulumi";
import { namingInputs } from "./auto-name";
import {
  type InputsAsOutputs,
  isResourceOfType,
  RunpodResource,
  typeToken,
  withSecretOutputs,
} from "./runpod-resource";

/** Inputs of a {@link ContainerRegistryAuth}. */
export interface ContainerRegistryAuthArgs {
  /**
   * Name on the platform, unique in an account. Default: the logical name plus a stack-unique
   * suffix, and `-<n>` appended on each replacement, so the new credential exists before the old
   * one is deleted. With a name you choose, a change deletes the old credential first, which the
   * platform refuses while a template uses it: change the name along with the password.
   * @replaces
   */
  name?: pulumi.Input<string>;
  /**
   * Registry user name. The platform has no update for credentials.
   * @replaces
   */
  username: pulumi.Input<string>;
  /**
   * Registry password or token. Always secret, even when given as a plain string; the platform
   * never returns it.
   * @replaces
   */
  password: pulumi.Input<string>;
}

// The outputs of a ContainerRegistryAuth that repeat its inputs: all three (`password` secret).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface ContainerRegistryAuth extends InputsAsOutputs<
  ContainerRegistryAuthArgs,
  "name" | "username" | "password"
> {}

/**
 * Credentials a template pulls a private image with (`template.containerRegistryAuthId = auth.id`).
 * The platform cannot update them, so a change (a rotated password) creates a new credential,
 * repoints the templates that use it, and deletes the old one.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class ContainerRegistryAuth extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("ContainerRegistryAuth");

  constructor(name: string, args: ContainerRegistryAuthArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      password: pulumi.secret(args.password),
      ...namingInputs(name, "ContainerRegistryAuth", args.name),
    };
    super("ContainerRegistryAuth", name, props, withSecretOutputs(opts, ["password"]));
  }

  /** Whether `obj` is a ContainerRegistryAuth, even across copies of this package. */
  static override isInstance(obj: unknown): obj is ContainerRegistryAuth {
    return isResourceOfType(obj, "ContainerRegistryAuth");
  }
}

import * as pulumi from "@pulumi/pulumi";
import { namingInputs } from "./auto-name";
import { isResourceOfType, RunpodResource, typeToken, withSecretOutputs } from "./runpod-resource";

/** Inputs of a {@link ContainerRegistryAuth}. */
export interface ContainerRegistryAuthArgs {
  /**
   * Name on the platform; names are unique in an account. Default: the logical name plus a
   * stack-unique suffix, and `-<n>` after each rotation, so the new credential exists before the
   * old one is deleted. With a name you choose, a change deletes the old credential first, which
   * the platform refuses while a template uses it: change the name along with the password.
   */
  name?: pulumi.Input<string>;
  /** Registry user name. A change replaces the credential. */
  username: pulumi.Input<string>;
  /** Registry password or token. Always secret; never returned by the platform. A change replaces the credential. */
  password: pulumi.Input<string>;
}

/**
 * Credentials a template pulls a private image with (`template.containerRegistryAuthId = auth.id`).
 * The platform cannot update them, so a change (a rotated password) creates a new credential,
 * repoints the templates that use it, and deletes the old one.
 */
export class ContainerRegistryAuth extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("ContainerRegistryAuth");

  /** Name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** Registry user name. */
  declare readonly username: pulumi.Output<string>;
  /** Registry password or token. Secret: only ciphertext in the state. */
  declare readonly password: pulumi.Output<string>;

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

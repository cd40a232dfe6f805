import * as pulumi from "@pulumi/pulumi";
import { secretReference } from "../sdk/schemas/v2/secret-reference";
import { namingInputs } from "./auto-name";
import {
  type InputsAsOutputs,
  isResourceOfType,
  RunpodResource,
  typeToken,
  withSecretOutputs,
} from "./runpod-resource";

/** Inputs of a {@link Secret}. */
export interface SecretArgs {
  /**
   * Name on the platform: unique in the account, 1 to 191 characters, a letter or `_` first, then
   * letters, digits and `_ . - /`; a name beginning with `RUNPOD`, in any case, is refused (the
   * platform reserves it). Env values refer to it as `{{ RUNPOD_SECRET_<name> }}` (the `reference`
   * output). The platform cannot rename a secret: the new one is created, what refers to
   * `reference` is updated to the new placeholder, then the old one is deleted. Default: the
   * logical name plus a 7-character suffix, when that fits the rules (otherwise the preview says
   * so: set `name`).
   * @replaces
   */
  name?: pulumi.Input<string>;
  /**
   * The value, required: strictly under 16 MiB of UTF-8. Always secret, even when given as a plain
   * string: ciphertext in the state, `[secret]` in previews, never repeated by an error. The
   * platform never returns it. A change rotates it in place: pods and workers get the new value
   * the next time they start; one already running keeps the value it started with.
   */
  value: pulumi.Input<string>;
  /**
   * What the secret is for, at most 65,535 bytes of UTF-8. None, `null` and `""` are the same.
   * @meaning emptyWhenUnset
   */
  description?: pulumi.Input<string>;
  /**
   * Id of an existing secret to take under management instead of creating one. Its name must be
   * `name`; the platform never returns a value, so `value` is set again (a rotation) on adoption.
   */
  adoptId?: pulumi.Input<string>;
}

// The outputs of a Secret that repeat its inputs: `name` and `value` (secret: only ciphertext in
// the state) always, and `description` when the program sets it.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface Secret extends InputsAsOutputs<SecretArgs, "name" | "value", "description"> {}

/**
 * An account secret of management API v2: a value kept by the platform and referred to from an
 * env value as `{{ RUNPOD_SECRET_<name> }}`, so no template, endpoint or pod holds it in plain
 * text. Put `secret.reference` in an env map (`env: { HF_TOKEN: token.reference }`); the platform
 * puts the value in when the pod or worker starts. On management API v1 (which has no secrets)
 * it fails at preview.
 *
 * Refresh reads the description and when the value was last set (`valueLastUpdatedAt`), never
 * the value: a rotation made outside Pulumi shows at the next preview as a change of `value`,
 * which `pulumi up` undoes by setting the program's value again.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class Secret extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("Secret");

  /** The env value that refers to this secret: `{{ RUNPOD_SECRET_<name> }}`. */
  declare readonly reference: pulumi.Output<string>;
  /** When the value was last set (creation or rotation), as the platform reports it. */
  declare readonly valueLastUpdatedAt: pulumi.Output<string>;

  constructor(name: string, args: SecretArgs, opts?: pulumi.CustomResourceOptions) {
    const naming = namingInputs(name, "Secret", args.name);
    const props = {
      ...args,
      value: pulumi.secret(args.value),
      ...naming,
      // Which resource the provider's preview notice is about (diff has no URN of its own).
      __urn: pulumi.createUrn(name, typeToken("Secret"), opts?.parent),
      // Made from the name here as well as by the provider: a preview of an update (a rotation)
      // shows a dynamic resource's inputs as its outputs, so a reference known from the name keeps
      // the env values that hold it known, and the resources that hold them unchanged.
      reference: pulumi.output(naming.name).apply(secretReference),
      // Output-only: listed (undefined) so the engine registers it as an output property.
      valueLastUpdatedAt: undefined,
    };
    super("Secret", name, props, withSecretOutputs(opts, ["value"]));
  }

  /**
   * The env value that refers to the secret named `name`, for a secret this stack does not
   * declare (made by hand, or by another stack): `{{ RUNPOD_SECRET_<name> }}`.
   */
  static referenceTo(name: string): string {
    return secretReference(name);
  }

  /** Whether `obj` is a Secret, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Secret {
    return isResourceOfType(obj, "Secret");
  }
}

import type * as pulumi from "@pulumi/pulumi";
import type { TemplateCategory } from "../sdk/schemas/platform-enums";
import { namingInputs } from "./auto-name";
import { isResourceOfType, RunpodResource, typeToken, withSecretOutputs } from "./runpod-resource";

/** Inputs of a {@link Template}, named as the platform's `TemplateCreateInput`. */
export interface TemplateArgs {
  /**
   * Name on the platform; names are unique in an account. Default: the logical name plus a
   * stack-unique suffix (and `-<n>` after the template is replaced, so old and new can coexist).
   * Renames in place.
   */
  name?: pulumi.Input<string>;
  /** The worker image, e.g. `ghcr.io/acme/worker:1.4.2`. A change is an in-place update that rolls the endpoints using the template. */
  imageName: pulumi.Input<string>;
  /** `true` for serverless workers (what endpoints need); the platform's default is `false` (pods). A change REPLACES the template. */
  isServerless?: pulumi.Input<boolean>;
  /** `NVIDIA` (platform default), `AMD` or `CPU`. A change REPLACES the template. */
  category?: pulumi.Input<TemplateCategory>;
  /** Container disk in GB (platform default 50). */
  containerDiskInGb?: pulumi.Input<number>;
  /** Local volume in GB (platform default 20). */
  volumeInGb?: pulumi.Input<number>;
  /** Where volumes are mounted (platform default `/workspace`). */
  volumeMountPath?: pulumi.Input<string>;
  /** Exposed ports as `<port>/<http|tcp>`, e.g. `["8000/http"]` (compared as a set). */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Environment of the workers. Values may be `pulumi.secret(...)`: the whole `env` output is
   * always secret, stored as ciphertext and masked in previews, diffs and logs.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Overrides the image's ENTRYPOINT (`[]`: the image's own). */
  dockerEntrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /** Overrides the image's CMD (`[]`: the image's own). */
  dockerStartCmd?: pulumi.Input<pulumi.Input<string>[]>;
  /** Credentials to pull a private image: a {@link ContainerRegistryAuth}'s `id`. */
  containerRegistryAuthId?: pulumi.Input<string>;
  /** Markdown shown in the console. */
  readme?: pulumi.Input<string>;
  /** Whether other platform users may use the template (platform default `false`). */
  isPublic?: pulumi.Input<boolean>;
  /** Id of an existing template to take under management instead of creating one. */
  adoptId?: pulumi.Input<string>;
}

/**
 * A template: the image, disk and environment a serverless endpoint's workers run. Point an
 * endpoint at it with `templateId: template.id`; changing the image updates the template in
 * place and the platform rolls the endpoints onto it (the endpoint itself does not change).
 *
 * Outputs: `name`, `imageName`, and each other property the program sets, with the platform's
 * current value (what refresh compares).
 */
export class Template extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("Template");

  /** Name on the platform. */
  declare readonly name: pulumi.Output<string>;
  /** The worker image. */
  declare readonly imageName: pulumi.Output<string>;
  /** Whether the template is for serverless workers (when set). */
  declare readonly isServerless: pulumi.Output<boolean | undefined>;
  /** `NVIDIA`, `AMD` or `CPU` (when set). */
  declare readonly category: pulumi.Output<TemplateCategory | undefined>;
  /** Container disk in GB (when set). */
  declare readonly containerDiskInGb: pulumi.Output<number | undefined>;
  /** Local volume in GB (when set). */
  declare readonly volumeInGb: pulumi.Output<number | undefined>;
  /** Where volumes are mounted (when set). */
  declare readonly volumeMountPath: pulumi.Output<string | undefined>;
  /** Exposed ports, `<port>/<http|tcp>` (when set). */
  declare readonly ports: pulumi.Output<string[] | undefined>;
  /** Environment of the workers (when set). Secret: the whole map is ciphertext in the state. */
  declare readonly env: pulumi.Output<Record<string, string> | undefined>;
  /** The image's ENTRYPOINT override (when set). */
  declare readonly dockerEntrypoint: pulumi.Output<string[] | undefined>;
  /** The image's CMD override (when set). */
  declare readonly dockerStartCmd: pulumi.Output<string[] | undefined>;
  /** Credentials the image is pulled with (when set). */
  declare readonly containerRegistryAuthId: pulumi.Output<string | undefined>;
  /** Markdown shown in the console (when set). */
  declare readonly readme: pulumi.Output<string | undefined>;
  /** Whether other platform users may use the template (when set). */
  declare readonly isPublic: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Template",
      name,
      { ...args, ...namingInputs(name, "Template", args.name) },
      withSecretOutputs(opts, ["env"]),
    );
  }

  /** Whether `obj` is a Template, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Template {
    return isResourceOfType(obj, "Template");
  }
}

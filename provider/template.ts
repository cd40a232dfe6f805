import * as pulumi from "@pulumi/pulumi";
import type { TemplateCategory } from "../sdk/schemas/platform-enums";
import { namingInputs } from "./auto-name";
import type { RolloutInput } from "./rollout-settings";
import {
  type InputsAsOutputs,
  isResourceOfType,
  RunpodResource,
  typeToken,
  withSecretOutputs,
} from "./runpod-resource";

/**
 * Inputs of a {@link Template}, named as the platform's v1 `TemplateCreateInput`, plus v2's
 * `startSsh`, `startJupyter` and `args`. What the configured management API version cannot carry
 * fails at preview naming the field and the version (`readme` and a non-empty `dockerEntrypoint`
 * on v2; `startSsh`, `startJupyter` and `args` on v1).
 */
export interface TemplateArgs {
  /**
   * Name on the platform, unique in an account. Default: the logical name plus a stack-unique
   * suffix, and `-<n>` appended on each replacement so the new template exists before the old one
   * is deleted.
   */
  name?: pulumi.Input<string>;
  /**
   * The worker image, e.g. `ghcr.io/acme/worker:1.4.2`. A change rolls the endpoints using the
   * template onto the new image: v1's platform rolls the endpoints linked to it; on v2, which keeps
   * no link, the provider re-applies the template to the endpoints created from it
   * (docs/api-versions.md). The endpoints' own state does not change.
   * @wire v2 image
   */
  imageName: pulumi.Input<string>;
  /**
   * `NVIDIA` (platform default), `AMD` or `CPU`: the hardware its containers need. v1's update
   * input cannot carry it (the same rule on v2, so a stack behaves alike on both).
   * @replaces
   */
  category?: pulumi.Input<TemplateCategory>;
  /**
   * `true` for serverless workers (what endpoints need); the platform's default is `false` (a pod
   * template). The update input cannot carry it.
   * @replaces
   * @wire v2 serverless
   */
  isServerless?: pulumi.Input<boolean>;
  /**
   * Container disk in whole GB (platform default 50; at least 1 on v2).
   * @wire v2 disk
   */
  containerDiskInGb?: pulumi.Input<number>;
  /**
   * Local volume in whole GB (platform default 20; on v2 0 (none) or at least 10).
   * @wire v2 mounts.persistent.size
   */
  volumeInGb?: pulumi.Input<number>;
  /**
   * Where volumes are mounted: an absolute path (platform default `/workspace`).
   * @wire v2 mounts.persistent.path
   */
  volumeMountPath?: pulumi.Input<string>;
  /**
   * Exposed ports as `<port>/<http|tcp>`, e.g. `["8000/http"]`.
   * @unordered
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Environment of the workers. Values may be `pulumi.secret(...)`: the whole `env` output is
   * always secret (ciphertext in state, `[secret]` in previews and diffs). That protects the state
   * only: the platform shows env values as plain text to everyone on the account, so keep
   * credentials in a `Secret` and put its `reference` here. What the platform injects
   * (`PUBLIC_KEY`, `JUPYTER_PASSWORD`: see `startSsh`, `startJupyter`) is kept apart, in
   * `injectedEnv`: no drift at refresh, and sent along with every env update, so the SSH key and
   * the Jupyter password survive.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Overrides the image's ENTRYPOINT (`[]`: the image's own). An argument list: order matters.
   * @apiVersion v1 entrypoint overrides (dockerEntrypoint; v2 runs the image's entrypoint with args)
   * @neutral []
   * @freeText
   */
  dockerEntrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Overrides the image's CMD (`[]`: the image's own). An argument list: order matters. On v2 it
   * travels as one `args` string.
   */
  dockerStartCmd?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Credentials to pull a private image: a {@link ContainerRegistryAuth}'s `id`.
   * @wire v2 registry
   */
  containerRegistryAuthId?: pulumi.Input<string>;
  /**
   * Markdown shown in the console. v2 templates have none.
   * @apiVersion v1 template readmes (readme)
   * @neutral ""
   * @freeText
   */
  readme?: pulumi.Input<string>;
  /**
   * Whether other platform users may use the template (platform default `false`).
   * @wire v2 public
   */
  isPublic?: pulumi.Input<boolean>;
  /**
   * Provision SSH in containers created from the template (platform default `true`): the platform
   * injects a `PUBLIC_KEY` env var with the account's registered SSH keys, unless `env` sets one.
   * @apiVersion v2 template SSH switches (startSsh)
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * Start JupyterLab in containers created from the template (platform default `true`): the
   * platform injects a generated `JUPYTER_PASSWORD` env var, unless `env` sets one; it is kept in
   * the secret output `injectedEnv`.
   * @apiVersion v2 template Jupyter switches (startJupyter)
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * The container's arguments as one string, e.g. `"--port 8000"`; instead of `dockerStartCmd`
   * (give one of them).
   * @apiVersion v2 container arguments as one string (args; on v1 give dockerStartCmd)
   * @freeText
   */
  args?: pulumi.Input<string>;
  /**
   * Id of an existing template to take under management instead of creating one. Its `category`
   * and `isServerless` must match.
   */
  adoptId?: pulumi.Input<string>;
  /**
   * Whether `pulumi up` waits, after a change to what the template's container runs, until the
   * endpoints it rolls serve it: no worker left on the older configuration and `workersMin`
   * workers of the new one started (docs/resources.md "When an endpoint is deployed"). Default
   * `true`; `false` ends the step once the platform took the change. Never sent to the platform.
   */
  waitForRollout?: pulumi.Input<boolean>;
  /**
   * Whether a rollout that fails puts the template and the endpoints its change rolled back to
   * the configuration they served before, the state staying as it was so the next `pulumi up`
   * tries again. Default `true`; needs `waitForRollout`. Never sent to the platform.
   */
  rollbackOnFailure?: pulumi.Input<boolean>;
  /**
   * How long a rollout may take before it fails, in seconds (1 to 86400; default 1800, as real
   * image pulls take minutes). The provider plugin also stops by the step's `customTimeouts`.
   * Never sent to the platform.
   */
  rolloutTimeoutSeconds?: pulumi.Input<number>;
}

// The outputs of a Template that repeat its inputs: `name` and `imageName` always, the others when
// the program sets them.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface Template extends InputsAsOutputs<
  TemplateArgs,
  "name" | "imageName",
  Exclude<keyof TemplateArgs, "name" | "imageName" | "adoptId" | RolloutInput>
> {}

/**
 * A template: the image, disk and environment a serverless endpoint's workers run. Point an
 * endpoint at it with `templateId: template.id`; changing the image updates the template in
 * place and the platform rolls the endpoints onto it (the endpoint itself does not change).
 *
 * Outputs: `name`, `imageName`, and each other property the program sets, with the platform's
 * current value (what refresh compares).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class Template extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("Template");

  /**
   * Env the platform injected that the program did not set (`PUBLIC_KEY`, a generated
   * `JUPYTER_PASSWORD`), or undefined when there is none. Secret: ciphertext in the state.
   */
  declare readonly injectedEnv: pulumi.Output<Record<string, string> | undefined>;

  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Template",
      name,
      // `injectedEnv` is output-only: listed (undefined) so the engine registers it as an output property.
      // `__urn`: which resource a rollout's progress is shown under (the host gives create no URN).
      {
        ...args,
        ...namingInputs(name, "Template", args.name),
        __urn: pulumi.createUrn(name, typeToken("Template"), opts?.parent),
        injectedEnv: undefined,
      },
      withSecretOutputs(opts, ["env", "injectedEnv"]),
    );
  }

  /** Whether `obj` is a Template, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Template {
    return isResourceOfType(obj, "Template");
  }
}

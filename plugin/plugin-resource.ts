import * as pulumi from "@pulumi/pulumi";
import type * as dynamic from "../provider";
import type { ResourceArgsByType } from "../provider/field-rules";
import { typeToken, type RunpodResourceType } from "../provider/runpod-resource";
import { packageVersion } from "./package-root";
import { resourceShape } from "./plugin-schema";
import { pluginTypeToken } from "./type-tokens";

/**
 * The outputs of a resource class: its properties beyond those of every custom resource. A
 * plugin-backed class merges them from the dynamic class of the same name, so the two expose the
 * same outputs, declared once.
 */
export type ResourceOutputs<R> = Omit<R, keyof pulumi.CustomResource>;

/**
 * Base of the plugin-backed classes of `runpod-iac/plugin`: a custom resource of type
 * `runpod-iac:index:<Type>`, served by the provider plugin `runpod-iac` at this package's version
 * (`npx runpod-iac plugin install` puts it where the engine finds it). It takes the dynamic
 * resource's `Args` unchanged and is aliased to the dynamic resource's type, so a stack moves
 * between the two by its import line, with no change. The plugin names what a program leaves
 * unnamed, as the dynamic resources do; which outputs exist and which are secret comes from the
 * plugin's schema.
 */
export abstract class PluginResource extends pulumi.CustomResource {
  protected constructor(
    type: RunpodResourceType,
    name: string,
    args: object,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    const shape = resourceShape(type);
    const props: pulumi.Inputs = Object.fromEntries(shape.outputs.map((key) => [key, undefined]));
    for (const [key, value] of Object.entries(args)) {
      props[key] = shape.secretInputs.includes(key) ? pulumi.secret(value) : value;
    }
    super(pluginTypeToken(type), name, props, {
      ...opts,
      version: opts?.version ?? packageVersion(),
      aliases: [...(opts?.aliases ?? []), { type: typeToken(type) }],
      additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...shape.secretOutputs],
    });
  }
}

/** Whether `obj` is a plugin-backed resource of `type`, also across copies of this package (compares type tokens). */
export function isPluginResourceOfType(obj: unknown, type: RunpodResourceType): boolean {
  return (
    pulumi.CustomResource.isInstance(obj) &&
    (obj as unknown as { __pulumiType?: string }).__pulumiType === pluginTypeToken(type)
  );
}

/** The kinds of resource the plugin-backed classes stand for (each is a class of `runpod-iac`, too). */
type ClassKind = RunpodResourceType & keyof typeof dynamic;

/** A plugin-backed resource of `kind`: the outputs of the dynamic class of the same name. */
export type PluginResourceOf<K extends ClassKind> = PluginResource & ResourceOutputs<InstanceType<(typeof dynamic)[K]>>;

/**
 * The class `runpod-iac/plugin` exports for `kind`: constructed with the dynamic class's `Args`,
 * its instances hold the dynamic class's outputs, and its statics are the type token and
 * `isInstance`, as the dynamic class's are.
 */
export interface PluginResourceClass<K extends ClassKind> {
  new (name: string, args: ResourceArgsByType[K], opts?: pulumi.CustomResourceOptions): PluginResourceOf<K>;
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  readonly __pulumiType: string;
  /** Whether `obj` is a plugin-backed resource of this kind, even across copies of this package. */
  isInstance(obj: unknown): obj is PluginResourceOf<K>;
}

/**
 * The base of the plugin-backed class of `kind` (one factory for every kind): each class of
 * plugin/resources.ts extends it, adding only what is particular to it (a static helper), so the
 * classes keep their names in declarations and docs.
 */
export function pluginResourceClass<K extends ClassKind>(kind: K): PluginResourceClass<K> {
  class KindResource extends PluginResource {
    static readonly __pulumiType = pluginTypeToken(kind);
    constructor(name: string, args: ResourceArgsByType[K], opts?: pulumi.CustomResourceOptions) {
      super(kind, name, args, opts);
    }
    static override isInstance(obj: unknown): obj is PluginResourceOf<K> {
      return isPluginResourceOfType(obj, kind);
    }
  }
  return KindResource as unknown as PluginResourceClass<K>;
}

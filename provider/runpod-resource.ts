import * as pulumi from "@pulumi/pulumi";
import { dynamicTypeToken, pluginTypeTokenOf, RESOURCE_KINDS, type ResourceKind } from "../sdk/resource-kinds";

/**
 * The resources of this package, by type name (the `<type>` of `pulumi-nodejs:dynamic/runpod:<type>`):
 * the kinds of the one table, sdk/resource-kinds.ts.
 */
export type RunpodResourceType = ResourceKind;

/** The engine-visible type token of a resource (docs/design.md, "Contracts users rely on"). */
export function typeToken(type: RunpodResourceType): string {
  return dynamicTypeToken(type);
}

/**
 * The type token of the same resource served by the provider plugin `runpod-iac`
 * (`runpod-iac/plugin`, and the Python, Go and YAML SDKs): `runpod-iac:index:<type>`.
 */
export function pluginTypeToken(type: RunpodResourceType): string {
  return pluginTypeTokenOf(type);
}

/**
 * The serialized provider stored as `__provider` in each resource's state: one module reference,
 * the same in every version of this package since 0.3.0 (0.2.0, named `pulumi-runpod`, stored
 * `require("pulumi-runpod/impl")`: CHANGELOG.md, "Upgrading from pulumi-runpod"; its size is in
 * docs/benchmarks.md). The Node.js dynamic provider host
 * evaluates it and calls `handler()` for the provider object (check, diff, create, read, update,
 * delete, configure), so `refresh` and `destroy` always run the installed implementation and the
 * state holds no code, no configuration and no secret.
 *
 * `pulumi.dynamic.Resource` would serialize a provider object with Pulumi's closure serializer:
 * about 200 bytes of wrapping per method (1,968 bytes for seven), stored twice per resource and
 * rewritten into every checkpoint. That serializer emits a `require` only for a module
 * it finds under a `node_modules` path, which depends on how npm, pnpm or a link installed the
 * package; the text below is that module reference written out directly, the same everywhere.
 */
export function providerReference(type: RunpodResourceType): string {
  return `exports.handler = () => require("runpod-iac/impl").${RESOURCE_KINDS[type].impl};\n`;
}

/**
 * Base of this package's resources: a Pulumi dynamic resource (type `pulumi-nodejs:dynamic/runpod:<type>`,
 * run by the engine's Node.js dynamic provider host) whose serialized provider is
 * {@link providerReference}. It registers exactly what `pulumi.dynamic.Resource` registers, with
 * the small `__provider` text instead of a serialized closure.
 */
export abstract class RunpodResource extends pulumi.CustomResource {
  protected constructor(
    type: RunpodResourceType,
    name: string,
    props: Record<string, unknown>,
    opts: pulumi.CustomResourceOptions | undefined,
  ) {
    // Aliased to the plugin's type, so a stack of the plugin-backed classes moves back to these
    // by its import line, with no change (the plugin's classes carry the opposite alias).
    const aliases = [...(opts?.aliases ?? []), { type: pluginTypeToken(type) }];
    super(typeToken(type), name, { ...props, __provider: providerReference(type) }, { ...opts, aliases });
  }
}

/**
 * The outputs of a resource that repeat its inputs (`Args`), each typed as its input unwrapped
 * and documented by the input's own doc comment (a mapped type over `Args` keeps it): `Always`
 * are set whether or not the program sets them (a default name, a required input), `WhenSet`
 * only when the program sets them (the platform's value then: what refresh compares). A resource
 * class merges it into its instance type (`interface X extends InputsAsOutputs<...> {}` beside
 * `class X`, commented with `//`: editors would join a doc comment there to the class's), so an
 * input is declared once, in `Args`; outputs that are not inputs (ids, URLs, prices) are declared
 * on the class. The plugin's schema generator reads both (plugin/schema-gen/read-sources.ts).
 */
export type InputsAsOutputs<Args, Always extends keyof Args, WhenSet extends keyof Args = never> = {
  readonly [K in Always]-?: pulumi.Output<NonNullable<pulumi.Unwrap<Args[K]>>>;
} & {
  readonly [K in WhenSet]-?: pulumi.Output<pulumi.Unwrap<Args[K]> | undefined>;
};

/** A whole number: an output declared with it is an integer in the plugin's schema (and so the SDKs' types). */
export type Integer = number;

/** Whether `obj` is a resource of `type`, also across copies of this package (compares type tokens). */
export function isResourceOfType(obj: unknown, type: RunpodResourceType): boolean {
  return (
    pulumi.CustomResource.isInstance(obj) &&
    (obj as unknown as { __pulumiType?: string }).__pulumiType === typeToken(type)
  );
}

/** `opts` with `keys` added to `additionalSecretOutputs`: outputs that are always secret in state. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  keys: readonly string[],
): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...keys] };
}

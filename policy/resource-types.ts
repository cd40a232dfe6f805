import type { PolicyResource } from "@pulumi/policy/policy";
import type { OutputInstance, Resource } from "@pulumi/pulumi";
// Types only (erased at run time): the pack never loads provider/.
import type { ClusterArgs } from "../provider/cluster";
import type { ContainerRegistryAuthArgs } from "../provider/container-registry-auth";
import type { NetworkVolumeArgs } from "../provider/network-volume";
import type { PodArgs } from "../provider/pod";
import type { SecretArgs } from "../provider/secret";
import type { ServerlessEndpointArgs } from "../provider/serverless-endpoint";
import type { TemplateArgs } from "../provider/template";
import type { VolumeFilesArgs } from "../provider/volume-files";
import { DYNAMIC_TYPE_TOKENS, PLUGIN_TYPE_TOKENS } from "../sdk/resource-kinds";

/**
 * The engine-visible types of our dynamic resources (docs/design.md, "Contracts users rely on"):
 * `dynamic.Resource` registers `pulumi-nodejs:dynamic/<module>:<type>`, and the provider's classes
 * expose the same strings as their static `__pulumiType`. From the table of kinds.
 */
export const RESOURCE_TYPES = DYNAMIC_TYPE_TOKENS;

/**
 * The types of the same resources served by the provider plugin `runpod-iac` (`runpod-iac/plugin`
 * and the Python, Go and YAML SDKs): `runpod-iac:index:<type>`. The pack judges both alike.
 */
export const PLUGIN_RESOURCE_TYPES = PLUGIN_TYPE_TOKENS;

/** The kinds of resource the pack checks: every kind of the table (sdk/resource-kinds.ts). */
export type ResourceKind = keyof typeof RESOURCE_TYPES;

/**
 * A resource's inputs as a policy sees them (`args.props`): its `Args` with every
 * `pulumi.Input` resolved, every field optional (the policy runs on whatever the program passed;
 * rules check the values at run time too), bookkeeping inputs (`adoptId`) left out. Derived from
 * the resources' own `Args`, so a field a resource gains is a field the pack sees,
 * with its documentation. `__provider` (the serialized dynamic provider) may also be present and is
 * never read or printed.
 */
export type PolicyProps<Args> = { [K in Exclude<keyof Args, "adoptId">]?: Resolved<Args[K]> };

/** A `pulumi.Input` type resolved to its value: outputs and promises unwrapped, in lists and maps too. */
export type Resolved<T> =
  T extends OutputInstance<infer U>
    ? Resolved<U>
    : T extends Promise<infer U>
      ? Resolved<U>
      : T extends readonly (infer E)[]
        ? Resolved<E>[]
        : T extends Record<string, unknown>
          ? { [K in keyof T]: Resolved<T[K]> }
          : T;

/**
 * Inputs of a `ServerlessEndpoint` as a policy sees them: GPU types (v1: a priority order; v2: a
 * set), or GPU pools and the types excluded from them (v2), workers, scaling (`REQUEST_COUNT` on a
 * load-balancing endpoint), flash boot (`true`/`false` or a v2 mode), volumes, data centers.
 */
export type ServerlessEndpointProps = PolicyProps<ServerlessEndpointArgs>;

/** Inputs of a `NetworkVolume` as a policy sees them: name, size, data center and storage tier (`type`, v2). */
export type NetworkVolumeProps = PolicyProps<NetworkVolumeArgs>;

/** Compute category of a template (OpenAPI `TemplateCreateInput.category`, platform default `NVIDIA`). */
export type TemplateCategory = "NVIDIA" | "AMD" | "CPU";

/**
 * Inputs of a `Template` as a policy sees them, named as the OpenAPI `TemplateCreateInput` (plus
 * v2's `startSsh`, `startJupyter`, `args`). `env` values may be secrets: rules never render them.
 */
export type TemplateProps = PolicyProps<TemplateArgs>;

/**
 * Inputs of a `Pod` as a policy sees them, named as the OpenAPI `PodCreateInput`, plus
 * `desiredStatus` (`EXITED`: a stopped pod costs nothing). `env` values may be secrets: rules never
 * render them.
 */
export type PodProps = PolicyProps<PodArgs>;

/** True unless the pod explicitly asks for CPUs (the platform's default is `GPU`). */
export function isGpuPod(props: Pick<PodProps, "computeType">): boolean {
  return props.computeType !== "CPU";
}

/**
 * Inputs of a `Cluster` as a policy sees them: its type, its shape (`podCount` pods of
 * `gpuCountPerPod` GPUs of `gpuTypeId`) and the container settings of its member pods, named as a
 * pod's. `env` values may be secrets: rules never render them.
 */
export type ClusterProps = PolicyProps<ClusterArgs>;

/** Inputs of a `ContainerRegistryAuth` as a policy sees them. `password` is a secret: rules never read it. */
export type ContainerRegistryAuthProps = PolicyProps<ContainerRegistryAuthArgs>;

/** Inputs of a `Secret` as a policy sees them. `value` is a secret: rules never read it. */
export type SecretProps = PolicyProps<SecretArgs>;

/**
 * Inputs of a `VolumeFiles` as a policy sees them: the volume (`networkVolumeId`), the folder
 * (`prefix`) and the volume's size hint; `files` is the archive as the engine passes it (paths, not
 * contents).
 */
export type VolumeFilesProps = PolicyProps<VolumeFilesArgs>;

/**
 * What `validateResourceOfType` and `args.isType` need from a resource class: a construct
 * signature (only for typing: it carries the props type) and the static `__pulumiType`, which
 * @pulumi/policy compares with `args.type` (`isTypeOf` in its server.js). `isInstance` is the
 * fallback @pulumi/policy uses for classes without `__pulumiType`; it is provided for completeness.
 */
export type ResourceClassStub<TProps> = (new (name: string, props: TProps) => Resource) & {
  /** The engine-visible type token (the dynamic resource's, for a kind; the one it stands for, for one of {@link stubsOfEachType}). */
  readonly __pulumiType: string;
  /** Every type token of the kind: the dynamic resource's and the provider plugin's. */
  readonly __pulumiTypes: readonly string[];
  /** True when `obj` carries one of the kind's type tokens. */
  isInstance(obj: unknown): boolean;
};

/** A stub matching `tokens`, carrying `token` as its `__pulumiType` (none: matched by `isInstance` alone). */
function stubOf<TProps>(tokens: readonly string[], token: string | undefined): ResourceClassStub<TProps> {
  const stub = {
    ...(token !== undefined ? { __pulumiType: token } : {}),
    __pulumiTypes: tokens,
    isInstance: (obj: unknown): boolean =>
      typeof obj === "object" &&
      obj !== null &&
      tokens.includes((obj as { __pulumiType?: unknown }).__pulumiType as string),
  };
  return stub as unknown as ResourceClassStub<TProps>;
}

/**
 * A stand-in for a provider class, so the pack matches resources by type token without loading
 * `provider/` (no load-order dependency, and the pack stays light). It is never constructed.
 */
function resourceClassStub<TProps>(kind: ResourceKind): ResourceClassStub<TProps> {
  return stubOf([RESOURCE_TYPES[kind], PLUGIN_RESOURCE_TYPES[kind]], RESOURCE_TYPES[kind]);
}

/**
 * One stub per type token of `kind` (the dynamic resource's, the plugin's), each carrying its
 * token: `validateResourceOfType` attaches a class's token to the validation it returns, and the
 * analyzer skips a validation for every other type without calling it, so a kind is validated by
 * one validation per token.
 */
export function stubsOfEachType<TProps>(kind: ResourceClassStub<TProps>): ResourceClassStub<TProps>[] {
  return kind.__pulumiTypes.map((token) => stubOf<TProps>(kind.__pulumiTypes, token));
}

/**
 * A stub of `kind` that carries no type token, matched by `isInstance` alone (every token of the
 * kind): for `remediateResourceOfType`, of which a policy has one.
 */
export function anyTypeStub<TProps>(kind: ResourceClassStub<TProps>): ResourceClassStub<TProps> {
  return stubOf<TProps>(kind.__pulumiTypes, undefined);
}

/** Matches `ServerlessEndpoint` resources in `validateResourceOfType` and `isType`. */
export const ServerlessEndpointResource = resourceClassStub<ServerlessEndpointProps>("ServerlessEndpoint");

/** Matches `NetworkVolume` resources in `validateResourceOfType` and `isType`. */
export const NetworkVolumeResource = resourceClassStub<NetworkVolumeProps>("NetworkVolume");

/** Matches `Template` resources in `validateResourceOfType` and `isType`. */
export const TemplateResource = resourceClassStub<TemplateProps>("Template");

/** Matches `ContainerRegistryAuth` resources in `validateResourceOfType` and `isType`. */
export const ContainerRegistryAuthResource = resourceClassStub<ContainerRegistryAuthProps>("ContainerRegistryAuth");

/** Matches `Pod` resources in `validateResourceOfType` and `isType`. */
export const PodResource = resourceClassStub<PodProps>("Pod");

/** Matches `Cluster` resources in `validateResourceOfType` and `isType`. */
export const ClusterResource = resourceClassStub<ClusterProps>("Cluster");

/** Matches `Secret` resources in `validateResourceOfType` and `isType`. */
export const SecretResource = resourceClassStub<SecretProps>("Secret");

/** Matches `VolumeFiles` resources in `validateResourceOfType` and `isType`. */
export const VolumeFilesResource = resourceClassStub<VolumeFilesProps>("VolumeFiles");

/** True unless the endpoint explicitly asks for CPU workers (the platform's default is `GPU`). */
export function isGpuEndpoint(props: Pick<ServerlessEndpointProps, "computeType">): boolean {
  return props.computeType !== "CPU";
}

/** Another resource of the stack, as a property of a resource depends on it. */
export interface LinkedResource {
  /** Its type token. */
  readonly type: string;
  /** Its logical name. */
  readonly name: string;
  /** Its properties (outputs, in a stack policy). */
  readonly props: object;
}

/** A resource's logical name and its properties, as stack-wide rules take them. */
export interface NamedProps<P> {
  /** Logical name of the resource in the program. */
  readonly name: string;
  /** Its properties (outputs, in a stack policy). */
  readonly props: P;
  /**
   * The engine's `propertyDependencies`: for each input property, the resources of the stack its
   * value was computed from (`networkVolumeId: volume.id` depends on `volume`). Known during
   * preview even when the value itself is not.
   */
  readonly dependsOn?: Readonly<Record<string, readonly LinkedResource[]>>;
}

/** The stack's resources of one kind, in the engine's order, with typed properties and property dependencies. */
export function resourcesOfType<P>(
  resources: readonly PolicyResource[],
  resourceClass: ResourceClassStub<P>,
): NamedProps<P>[] {
  return resources
    .filter((r) => resourceClass.__pulumiTypes.includes(r.type))
    .map((r) => ({ name: r.name, props: r.props as P, dependsOn: r.propertyDependencies ?? {} }));
}

/** The resources of kind `kind` that `resource`'s property `property` depends on. */
export function linkedOfType<P>(
  resource: Pick<NamedProps<unknown>, "dependsOn">,
  property: string,
  kind: ResourceClassStub<P>,
): NamedProps<P>[] {
  return (resource.dependsOn?.[property] ?? [])
    .filter((r) => kind.__pulumiTypes.includes(r.type))
    .map((r) => ({ name: r.name, props: r.props as P }));
}

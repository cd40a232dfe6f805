import type { PolicyResource } from "@pulumi/policy/policy";
import type { Resource } from "@pulumi/pulumi";
import type { ComputeType, ScalerType } from "../sdk/schemas";

/**
 * The engine-visible types of our dynamic resources (DESIGN.md "Contracts users rely on"):
 * `dynamic.Resource` registers `pulumi-nodejs:dynamic/<module>:<type>`, and the provider's classes
 * expose the same strings as their static `__pulumiType`.
 */
export const RESOURCE_TYPES = {
  NetworkVolume: "pulumi-nodejs:dynamic/runpod:NetworkVolume",
  ServerlessEndpoint: "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint",
  Template: "pulumi-nodejs:dynamic/runpod:Template",
  ContainerRegistryAuth: "pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth",
  Pod: "pulumi-nodejs:dynamic/runpod:Pod",
} as const;

/** The kinds of resource the pack checks. */
export type ResourceKind = keyof typeof RESOURCE_TYPES;

/**
 * Inputs of a `ServerlessEndpoint` as a policy sees them (`args.props`). Every field is optional,
 * because the policy runs on whatever the program passed; rules check the values at run time too.
 * `__provider` (the serialized dynamic provider) may also be present and is never read or printed.
 */
export interface ServerlessEndpointProps {
  /** ID of the template the workers run. */
  templateId?: string;
  /** Endpoint name shown by the platform. */
  name?: string;
  /** GPU types in priority order: the first is rented if available, else the next (spec). */
  gpuTypeIds?: string[];
  /** GPUs per worker (platform default 1). */
  gpuCount?: number;
  /** Workers kept running even without requests; billed while idle (platform default 0). */
  workersMin?: number;
  /** Most workers running at once (platform default 3). */
  workersMax?: number;
  /** Seconds a worker may stay idle before it is scaled down (platform: 1 to 3600, default 5). */
  idleTimeout?: number;
  /** `GPU` or `CPU` workers (platform default `GPU`). */
  computeType?: ComputeType;
  /** Autoscaling strategy. */
  scalerType?: ScalerType;
  /** Threshold of the autoscaling strategy. */
  scalerValue?: number;
  /** Longest a single request may run, in milliseconds. */
  executionTimeoutMs?: number;
  /** Whether flash boot is enabled. */
  flashboot?: boolean;
  /** Network volume attached to the workers. */
  networkVolumeId?: string;
  /** Network volumes of a multi-region endpoint (one per data center). */
  networkVolumeIds?: string[];
  /** Data centers the workers may run in (platform default: every data center). */
  dataCenterIds?: string[];
  /** CUDA versions acceptable on GPU workers. */
  allowedCudaVersions?: string[];
  /** Lowest CUDA version acceptable on GPU workers. */
  minCudaVersion?: string;
  /** CPU flavors of a CPU endpoint, in priority order. */
  cpuFlavorIds?: string[];
  /** vCPUs per CPU worker. */
  vcpuCount?: number;
}

/** Inputs of a `NetworkVolume` as a policy sees them (`args.props`). */
export interface NetworkVolumeProps {
  /** Volume name; need not be unique. */
  name?: string;
  /** Size in GB (platform: whole number, 0 to 4000, can only grow). */
  size?: number;
  /** Data center the volume lives in. */
  dataCenterId?: string;
}

/** Compute category of a template (OpenAPI `TemplateCreateInput.category`, platform default `NVIDIA`). */
export type TemplateCategory = "NVIDIA" | "AMD" | "CPU";

/**
 * Inputs of a `Template` as a policy sees them, named as the OpenAPI `TemplateCreateInput`.
 * `env` values may be secrets: rules never render them.
 */
export interface TemplateProps {
  /** Template name. */
  name?: string;
  /** The container image, e.g. `ghcr.io/acme/worker:1.4.2` or `...@sha256:<digest>`. */
  imageName?: string;
  /** Whether the template is for serverless workers (platform default `false`: a Pod template). */
  isServerless?: boolean;
  /** Compute category (platform default `NVIDIA`). */
  category?: TemplateCategory;
  /** Container disk, in GB. */
  containerDiskInGb?: number;
  /** Pod volume, in GB. */
  volumeInGb?: number;
  /** Where a volume is mounted. */
  volumeMountPath?: string;
  /** Exposed ports, e.g. `8888/http`. */
  ports?: string[];
  /** Environment variables; values may be secrets. */
  env?: Record<string, string>;
  /** Overrides the image's ENTRYPOINT. */
  dockerEntrypoint?: string[];
  /** Overrides the image's CMD. */
  dockerStartCmd?: string[];
  /** Registry credentials for a private image. */
  containerRegistryAuthId?: string;
  /** README in Markdown. */
  readme?: string;
  /** Whether a Pod template is visible to other users. */
  isPublic?: boolean;
}

/**
 * Inputs of a `Pod` as a policy sees them, named as the OpenAPI `PodCreateInput` (the rules read
 * the fields below; the others pass through). `env` values may be secrets: rules never render them.
 */
export interface PodProps {
  /** Pod name. */
  name?: string;
  /** The container image. */
  imageName?: string;
  /** A pod template it starts from. */
  templateId?: string;
  /** `RUNNING` (default) or `EXITED`: a stopped pod costs nothing. */
  desiredStatus?: string;
  /** `GPU` (platform default) or `CPU`. */
  computeType?: ComputeType;
  /** `SECURE` (platform default) or `COMMUNITY`. */
  cloudType?: string;
  /** GPU types the pod may rent, in priority order. */
  gpuTypeIds?: string[];
  /** GPUs in the pod (platform default 1). */
  gpuCount?: number;
  /** How the GPU type is chosen (`availability` or `custom`). */
  gpuTypePriority?: string;
  /** CPU flavors of a CPU pod, in priority order (pods also rent cpu3m and cpu5m). */
  cpuFlavorIds?: string[];
  /** How the CPU flavor is chosen. */
  cpuFlavorPriority?: string;
  /** vCPUs of a CPU pod (platform default 2). */
  vcpuCount?: number;
  /** Data centers the pod may be placed in. */
  dataCenterIds?: string[];
  /** CUDA versions acceptable on the machine. */
  allowedCudaVersions?: string[];
  /** Lowest CUDA version acceptable on the machine (v2). */
  minCudaVersion?: string;
  /** Least RAM per GPU of the machine, GB. */
  minRAMPerGPU?: number;
  /** Least vCPUs per GPU of the machine. */
  minVCPUPerGPU?: number;
  /** An interruptible (spot) pod: half price, may be stopped by the platform at any time. */
  interruptible?: boolean;
  /** The network volume the pod mounts. */
  networkVolumeId?: string;
  /** Environment variables; values may be secrets. */
  env?: Record<string, string>;
}

/** True unless the pod explicitly asks for CPUs (the platform's default is `GPU`). */
export function isGpuPod(props: Pick<PodProps, "computeType">): boolean {
  return props.computeType !== "CPU";
}

/** Inputs of a `ContainerRegistryAuth` as a policy sees them. `password` is a secret: rules never read it. */
export interface ContainerRegistryAuthProps {
  /** Name of the credentials (unique per account). */
  name?: string;
  /** Registry user name. */
  username?: string;
  /** Registry password or token. */
  password?: string;
}

/**
 * What `validateResourceOfType` and `args.isType` need from a resource class: a construct
 * signature (only for typing: it carries the props type) and the static `__pulumiType`, which
 * @pulumi/policy compares with `args.type` (`isTypeOf` in its server.js). `isInstance` is the
 * fallback @pulumi/policy uses for classes without `__pulumiType`; it is provided for completeness.
 */
export type ResourceClassStub<TProps> = (new (name: string, props: TProps) => Resource) & {
  /** The engine-visible type token. */
  readonly __pulumiType: string;
  /** True when `obj` carries this class's type token. */
  isInstance(obj: unknown): boolean;
};

/**
 * A stand-in for a provider class, so the pack matches resources by type token without loading
 * `provider/` (no load-order dependency, and the pack stays light). It is never constructed.
 */
function resourceClassStub<TProps>(kind: ResourceKind): ResourceClassStub<TProps> {
  const token = RESOURCE_TYPES[kind];
  const stub = {
    __pulumiType: token,
    isInstance: (obj: unknown): boolean =>
      typeof obj === "object" && obj !== null && (obj as { __pulumiType?: unknown }).__pulumiType === token,
  };
  return stub as unknown as ResourceClassStub<TProps>;
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
    .filter((r) => r.isType(resourceClass))
    .map((r) => ({ name: r.name, props: r.props as P, dependsOn: r.propertyDependencies ?? {} }));
}

/** The resources of kind `kind` that `resource`'s property `property` depends on. */
export function linkedOfType<P>(
  resource: Pick<NamedProps<unknown>, "dependsOn">,
  property: string,
  kind: ResourceClassStub<P>,
): NamedProps<P>[] {
  return (resource.dependsOn?.[property] ?? [])
    .filter((r) => r.type === kind.__pulumiType)
    .map((r) => ({ name: r.name, props: r.props as P }));
}

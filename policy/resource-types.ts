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
  /** Data centers the workers may run in. */
  dataCenterIds?: string[];
  /** CUDA versions acceptable on GPU workers. */
  allowedCudaVersions?: string[];
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

/** True unless the endpoint explicitly asks for CPU workers (the platform's default is `GPU`). */
export function isGpuEndpoint(props: Pick<ServerlessEndpointProps, "computeType">): boolean {
  return props.computeType !== "CPU";
}

/** A resource's logical name and its properties, as stack-wide rules take them. */
export interface NamedProps<P> {
  /** Logical name of the resource in the program. */
  readonly name: string;
  /** Its properties (outputs, in a stack policy). */
  readonly props: P;
}

/** The stack's resources of one kind, in the engine's order, with typed properties. */
export function resourcesOfType<P>(
  resources: readonly PolicyResource[],
  resourceClass: ResourceClassStub<P>,
): NamedProps<P>[] {
  return resources.filter((r) => r.isType(resourceClass)).map((r) => ({ name: r.name, props: r.props as P }));
}

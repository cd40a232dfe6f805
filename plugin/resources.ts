/* eslint-disable @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type --
 * Each class merges its outputs from the dynamic class of the same name (an interface of no
 * members of its own and a class of one name), so that they are declared once; the class never
 * initializes them itself.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as dynamic from "../provider";
import type { ClusterArgs } from "../provider/cluster";
import type { SecretArgs } from "../provider/secret";
import { secretReference } from "../sdk/schemas/v2/secret-reference";
import type { ContainerRegistryAuthArgs } from "../provider/container-registry-auth";
import type { NetworkVolumeArgs } from "../provider/network-volume";
import type { PodArgs } from "../provider/pod";
import type { ServerlessEndpointArgs } from "../provider/serverless-endpoint";
import type { TemplateArgs } from "../provider/template";
import { isPluginResourceOfType, PluginResource, type ResourceOutputs } from "./plugin-resource";
import { pluginTypeToken } from "./type-tokens";

/** A network volume ({@link dynamic.NetworkVolume}'s inputs and outputs), served by the plugin. */
export interface NetworkVolume extends ResourceOutputs<dynamic.NetworkVolume> {}
/** A network volume: persistent storage in one data center, served by the plugin `runpod-iac`. */
export class NetworkVolume extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("NetworkVolume");
  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super("NetworkVolume", name, args, opts);
  }
  /** Whether `obj` is a plugin-backed NetworkVolume, even across copies of this package. */
  static override isInstance(obj: unknown): obj is NetworkVolume {
    return isPluginResourceOfType(obj, "NetworkVolume");
  }
}

/** A serverless endpoint ({@link dynamic.ServerlessEndpoint}'s inputs and outputs), served by the plugin. */
export interface ServerlessEndpoint extends ResourceOutputs<dynamic.ServerlessEndpoint> {}
/** A serverless endpoint (queue-based or load-balancing), served by the plugin `runpod-iac`. */
export class ServerlessEndpoint extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("ServerlessEndpoint");
  constructor(name: string, args: ServerlessEndpointArgs, opts?: pulumi.CustomResourceOptions) {
    super("ServerlessEndpoint", name, args, opts);
  }
  /** Whether `obj` is a plugin-backed ServerlessEndpoint, even across copies of this package. */
  static override isInstance(obj: unknown): obj is ServerlessEndpoint {
    return isPluginResourceOfType(obj, "ServerlessEndpoint");
  }
}

/** A template ({@link dynamic.Template}'s inputs and outputs), served by the plugin. */
export interface Template extends ResourceOutputs<dynamic.Template> {}
/** A template: the image, disk and environment workers run, served by the plugin `runpod-iac`. */
export class Template extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("Template");
  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super("Template", name, args, opts);
  }
  /** Whether `obj` is a plugin-backed Template, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Template {
    return isPluginResourceOfType(obj, "Template");
  }
}

/** Registry credentials ({@link dynamic.ContainerRegistryAuth}'s inputs and outputs), served by the plugin. */
export interface ContainerRegistryAuth extends ResourceOutputs<dynamic.ContainerRegistryAuth> {}
/** Credentials a template pulls a private image with, served by the plugin `runpod-iac`. */
export class ContainerRegistryAuth extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("ContainerRegistryAuth");
  constructor(name: string, args: ContainerRegistryAuthArgs, opts?: pulumi.CustomResourceOptions) {
    super("ContainerRegistryAuth", name, args, opts);
  }
  /** Whether `obj` is a plugin-backed ContainerRegistryAuth, even across copies of this package. */
  static override isInstance(obj: unknown): obj is ContainerRegistryAuth {
    return isPluginResourceOfType(obj, "ContainerRegistryAuth");
  }
}

/** A pod ({@link dynamic.Pod}'s inputs and outputs), served by the plugin. */
export interface Pod extends ResourceOutputs<dynamic.Pod> {}
/** A pod: a dedicated GPU or CPU machine running one container, served by the plugin `runpod-iac`. */
export class Pod extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("Pod");
  constructor(name: string, args: PodArgs, opts?: pulumi.CustomResourceOptions) {
    super("Pod", name, args, opts);
  }
  /** Whether `obj` is a plugin-backed Pod, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Pod {
    return isPluginResourceOfType(obj, "Pod");
  }
}

/** An instant cluster ({@link dynamic.Cluster}'s inputs and outputs), served by the plugin. */
export interface Cluster extends ResourceOutputs<dynamic.Cluster> {}
/** An instant cluster: networked multi-GPU pods of one type and shape, served by the plugin `runpod-iac`. */
export class Cluster extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("Cluster");
  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super("Cluster", name, args, opts);
  }
  /** Whether `obj` is a plugin-backed Cluster, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Cluster {
    return isPluginResourceOfType(obj, "Cluster");
  }
}

/** An account secret ({@link dynamic.Secret}'s inputs and outputs), served by the plugin. */
export interface Secret extends ResourceOutputs<dynamic.Secret> {}
/**
 * A platform secret that env values refer to by its `reference`, served by the plugin
 * `runpod-iac`: its value is always secret, and ciphertext in the state.
 */
export class Secret extends PluginResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = pluginTypeToken("Secret");
  constructor(name: string, args: SecretArgs, opts?: pulumi.CustomResourceOptions) {
    super("Secret", name, args, opts);
  }
  /** The env value that refers to the secret named `name`, one this stack does not declare: `{{ RUNPOD_SECRET_<name> }}`. */
  static referenceTo(name: string): string {
    return secretReference(name);
  }
  /** Whether `obj` is a plugin-backed Secret, even across copies of this package. */
  static override isInstance(obj: unknown): obj is Secret {
    return isPluginResourceOfType(obj, "Secret");
  }
}

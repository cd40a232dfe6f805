/*
 * The plugin-backed classes of `runpod-iac/plugin`: one per kind of the table (sdk/resource-kinds.ts),
 * each made by one factory (`pluginResourceClass`, plugin-resource.ts) that gives it the dynamic
 * class's `Args`, its outputs, its type token and `isInstance`. A class adds only what is its own.
 */
import { secretReference } from "../sdk/schemas/v2/secret-reference";
import { pluginResourceClass } from "./plugin-resource";

/** A network volume: persistent storage in one data center, served by the plugin `runpod-iac`. */
export class NetworkVolume extends pluginResourceClass("NetworkVolume") {}

/** A serverless endpoint (queue-based or load-balancing), served by the plugin `runpod-iac`. */
export class ServerlessEndpoint extends pluginResourceClass("ServerlessEndpoint") {}

/** A template: the image, disk and environment workers run, served by the plugin `runpod-iac`. */
export class Template extends pluginResourceClass("Template") {}

/** Credentials a template pulls a private image with, served by the plugin `runpod-iac`. */
export class ContainerRegistryAuth extends pluginResourceClass("ContainerRegistryAuth") {}

/** A pod: a dedicated GPU or CPU machine running one container, served by the plugin `runpod-iac`. */
export class Pod extends pluginResourceClass("Pod") {}

/** An instant cluster: networked multi-GPU pods of one type and shape, served by the plugin `runpod-iac`. */
export class Cluster extends pluginResourceClass("Cluster") {}

/**
 * A platform secret that env values refer to by its `reference`, served by the plugin
 * `runpod-iac`: its value is always secret, and ciphertext in the state.
 */
export class Secret extends pluginResourceClass("Secret") {
  /** The env value that refers to the secret named `name`, one this stack does not declare: `{{ RUNPOD_SECRET_<name> }}`. */
  static referenceTo(name: string): string {
    return secretReference(name);
  }
}

/** Files on a network volume, written through its S3-compatible API, served by the plugin `runpod-iac`. */
export class VolumeFiles extends pluginResourceClass("VolumeFiles") {}

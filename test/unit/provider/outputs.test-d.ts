// Type-level tests of the resources' outputs, compiled by `npm run lint:types` (in `npm test`)
// (test/tsconfig.type-tests.json). Outputs that repeat an input are derived from the Args
// (runpod-resource.ts `InputsAsOutputs`): each is typed as its input unwrapped, always set or
// only when the program sets it; bookkeeping inputs are no outputs.
import type * as pulumi from "@pulumi/pulumi";
import type { Expect } from "../../../provider/check-inputs";
import type { Cluster, ClusterPod } from "../../../provider/cluster";
import type { ContainerRegistryAuth } from "../../../provider/container-registry-auth";
import type { NetworkVolume } from "../../../provider/network-volume";
import type { Pod, PodDesiredStatus } from "../../../provider/pod";
import type { ServerlessEndpoint } from "../../../provider/serverless-endpoint";
import type { Template } from "../../../provider/template";
import type { ClusterType, FlashBootMode, GpuTypeId, TemplateCategory } from "../../../sdk/schemas/platform-enums";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type OutputOf<R, K extends keyof R> = R[K] extends pulumi.Output<infer T> ? T : never;

// Always set: the name (a default one when the program gives none) and the required inputs.
export type VolumeName = Expect<Same<OutputOf<NetworkVolume, "name">, string>>;
export type VolumeSize = Expect<Same<OutputOf<NetworkVolume, "size">, number>>;
export type EndpointTemplate = Expect<Same<OutputOf<ServerlessEndpoint, "templateId">, string>>;
export type TemplateImage = Expect<Same<OutputOf<Template, "imageName">, string>>;
export type AuthPassword = Expect<Same<OutputOf<ContainerRegistryAuth, "password">, string>>;
export type PodStatus = Expect<Same<OutputOf<Pod, "desiredStatus">, PodDesiredStatus>>;
export type ClusterName = Expect<Same<OutputOf<Cluster, "name">, string>>;
export type ClusterTypeOut = Expect<Same<OutputOf<Cluster, "type">, ClusterType>>;
export type ClusterPods = Expect<Same<OutputOf<Cluster, "podCount">, number>>;

// Set only when the program sets them: the input's type, unwrapped, or undefined.
export type VolumeTier = Expect<Same<OutputOf<NetworkVolume, "type">, string | undefined>>;
export type EndpointGpus = Expect<Same<OutputOf<ServerlessEndpoint, "gpuTypeIds">, GpuTypeId[] | undefined>>;
export type EndpointFlashboot = Expect<
  Same<OutputOf<ServerlessEndpoint, "flashboot">, boolean | FlashBootMode | undefined>
>;
export type TemplateCategoryOut = Expect<Same<OutputOf<Template, "category">, TemplateCategory | undefined>>;
export type TemplateEnv = Expect<Same<OutputOf<Template, "env">, Record<string, string> | undefined>>;
export type PodEnv = Expect<Same<OutputOf<Pod, "env">, Record<string, string> | undefined>>;
export type PodPorts = Expect<Same<OutputOf<Pod, "ports">, string[] | undefined>>;
export type ClusterEnv = Expect<Same<OutputOf<Cluster, "env">, Record<string, string> | undefined>>;
export type ClusterVolume = Expect<Same<OutputOf<Cluster, "networkVolumeId">, string | undefined>>;

// Outputs that are not inputs stay declared on the class.
export type EndpointUrl = Expect<Same<OutputOf<ServerlessEndpoint, "url">, string>>;
export type PodCost = Expect<Same<OutputOf<Pod, "costPerHr">, number>>;
export type ClusterCost = Expect<Same<OutputOf<Cluster, "costPerHr">, number>>;
export type ClusterMembers = Expect<Same<OutputOf<Cluster, "pods">, ClusterPod[]>>;
export type TemplateInjected = Expect<Same<OutputOf<Template, "injectedEnv">, Record<string, string> | undefined>>;

// Bookkeeping inputs are no outputs.
// @ts-expect-error adoptId is an input only
export type VolumeAdoptId = NetworkVolume["adoptId"];
// @ts-expect-error adoptId is an input only
export type PodAdoptId = Pod["adoptId"];
// @ts-expect-error adoptId is an input only
export type ClusterAdoptId = Cluster["adoptId"];

/**
 * `runpod-iac/plugin`: the same resources as `runpod-iac`, with the same `Args`, served by the
 * provider plugin `runpod-iac` (type tokens `runpod-iac:index:<Type>`) instead of as dynamic
 * resources. Install the plugin once per machine (`npx runpod-iac plugin install`); a stack moves
 * between the two by its import line (docs/languages.md). The dynamic resources stay the default.
 */
export * from "./resources";
export type {
  ClusterArgs,
  ContainerRegistryAuthArgs,
  NetworkVolumeArgs,
  PodArgs,
  SecretArgs,
  ServerlessEndpointArgs,
  TemplateArgs,
  VolumeFilesArgs,
} from "../provider";
// The schema's enum types, which the code `pulumi import` prints names (`ComputeType.GPU`).
export * from "./enums";

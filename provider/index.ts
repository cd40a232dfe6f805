export {
  getCpuFlavors,
  getCpuFlavorsOutput,
  getDataCenters,
  getDataCentersOutput,
  getGpuTypes,
  getGpuTypesOutput,
  type CatalogInputs,
} from "./catalog";
export type {
  CatalogAvailability,
  CatalogCpuFlavor,
  CatalogDataCenter,
  CatalogFunctionName,
  CatalogFunctions,
  CatalogGpuType,
  CatalogProduct,
  GetCpuFlavorsArgs,
  GetCpuFlavorsResult,
  GetDataCentersArgs,
  GetDataCentersResult,
  GetGpuTypesArgs,
  GetGpuTypesResult,
} from "./catalog-types";
export { Cluster, type ClusterArgs, type ClusterPod } from "./cluster";
export { ContainerRegistryAuth, type ContainerRegistryAuthArgs } from "./container-registry-auth";
export {
  type BookkeepingInput,
  CLUSTER_FIELDS,
  CONTAINER_REGISTRY_AUTH_FIELDS,
  type FieldRule,
  type FieldTable,
  NETWORK_VOLUME_FIELDS,
  POD_FIELDS,
  SECRET_FIELDS,
  SERVERLESS_ENDPOINT_FIELDS,
  TEMPLATE_FIELDS,
  VOLUME_FILES_FIELDS,
} from "./field-rules";
export { NetworkVolume, type NetworkVolumeArgs } from "./network-volume";
export type { InputsAsOutputs, Integer } from "./runpod-resource";
export { Pod, type PodArgs, type PodDesiredStatus } from "./pod";
export { Secret, type SecretArgs } from "./secret";
export { ServerlessEndpoint, type ServerlessEndpointArgs } from "./serverless-endpoint";
export { Template, type TemplateArgs } from "./template";
export { VolumeFiles, type VolumeFilesArgs } from "./volume-files";
export type {
  ClusterType,
  ComputeType,
  CpuFlavorId,
  CudaVersion,
  DataCenterId,
  GpuTypeId,
  PodCpuFlavorId,
  ScalerType,
  TemplateCategory,
} from "../sdk/schemas/platform-enums";

/**
 * How each input property changes a deployed resource: in place, or by replacement. This table
 * is the single source for `diff`, the README's replace/update table and the tests.
 */
export interface FieldRule {
  /** A change replaces the resource instead of updating it. */
  replaces?: boolean;
  /** Arrays only: whether order is meaningful (a reorder is an update). Default true. */
  ordered?: boolean;
}

/** NetworkVolume inputs. `size` may only grow (checked in `check`). */
export const NETWORK_VOLUME_FIELDS: Record<string, FieldRule> = {
  name: {},
  size: {},
  // A volume lives in one data center; moving it means a new, empty volume.
  dataCenterId: { replaces: true },
};

/** ServerlessEndpoint inputs. */
export const SERVERLESS_ENDPOINT_FIELDS: Record<string, FieldRule> = {
  templateId: {},
  name: {},
  // A priority list: the first type is rented when available, so order is meaningful.
  gpuTypeIds: { ordered: true },
  gpuCount: {},
  workersMin: {},
  workersMax: {},
  idleTimeout: {},
  // The update input has no computeType: GPU and CPU endpoints are different resources.
  computeType: { replaces: true },
  scalerType: {},
  scalerValue: {},
  executionTimeoutMs: {},
  flashboot: {},
  networkVolumeId: {},
  networkVolumeIds: { ordered: false },
  dataCenterIds: { ordered: false },
  allowedCudaVersions: { ordered: false },
  minCudaVersion: {},
  // CPU flavors are rented in list order, like GPU types.
  cpuFlavorIds: { ordered: true },
  vcpuCount: {},
};

/**
 * Template inputs (OpenAPI `TemplateCreateInput`). Everything `TemplateUpdateInput` carries
 * updates in place through `POST /templates/{id}/update`, which rolls the endpoints that use the
 * template; `category` and `isServerless` are not in the update input, so they replace.
 */
export const TEMPLATE_FIELDS: Record<string, FieldRule> = {
  name: {},
  imageName: {},
  category: { replaces: true },
  isServerless: { replaces: true },
  containerDiskInGb: {},
  volumeInGb: {},
  volumeMountPath: {},
  // Exposed ports are a set: "8888/http" and "22/tcp" in any order are the same ports.
  ports: { ordered: false },
  env: {},
  // An entrypoint and a start command are argument lists: order is meaning.
  dockerEntrypoint: { ordered: true },
  dockerStartCmd: { ordered: true },
  containerRegistryAuthId: {},
  readme: {},
  isPublic: {},
};

/** ContainerRegistryAuth inputs. The API has no update: every change replaces. */
export const CONTAINER_REGISTRY_AUTH_FIELDS: Record<string, FieldRule> = {
  name: { replaces: true },
  username: { replaces: true },
  password: { replaces: true },
};

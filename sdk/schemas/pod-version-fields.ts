/*
 * Which pod and billing inputs only one management API version can carry, decided field by field
 * from the two OpenAPIs (v1 `PodCreateInput`, `PodUpdateInput`, the `/pods` and `/billing/*` query
 * parameters; v2 `CreatePodRequest`, `UpdatePodRequest`, the `/v2/billing/*` parameters). Each
 * entry says why in its `what`; `neutral` lists the values that mean "not used" and so pass on
 * either version. Merged into `VERSION_ONLY_FIELDS` (api-version-fields.ts).
 */

const V1 = "v1" as const;
const V2 = "v2" as const;

/** No v2 machine filter exists: v2's pod create has no `min*` field (read the catalog, then create). */
const machineFilter = (name: string) => ({ only: V1, what: `machine filters (${name})` });

/** Pod inputs (create, reset update, list filters) only one version has. */
export const POD_VERSION_FIELDS = {
  pod: {
    // v2's CreatePodRequest has no interruptible (spot) option: every v2 pod is on-demand.
    interruptible: { only: V1, what: "interruptible (spot) pods", neutral: [false] },
    // v2 places in `dataCenterIds` only; a country is found with the catalog's countryCodes filter.
    countryCodes: { only: V1, what: "country filters of a pod create", neutral: [[]] },
    // v2 places one GPU type (or CPU flavor) per create; the client tries the list in its order,
    // which is v1's "custom". Letting the platform pick by availability has no v2 equivalent.
    gpuTypePriority: { only: V1, what: 'GPU type priorities other than "custom"', neutral: ["custom"] },
    cpuFlavorPriority: { only: V1, what: 'CPU flavor priorities other than "custom"', neutral: ["custom"] },
    // v2's scheduler chooses among `dataCenterIds` ("preferred data centers"): v1's "availability".
    dataCenterPriority: {
      only: V1,
      what: 'data center priorities other than "availability"',
      neutral: ["availability"],
    },
    minRAMPerGPU: machineFilter("minRAMPerGPU"),
    minVCPUPerGPU: machineFilter("minVCPUPerGPU"),
    minDiskBandwidthMBps: machineFilter("minDiskBandwidthMBps"),
    minDownloadMbps: machineFilter("minDownloadMbps"),
    minUploadMbps: machineFilter("minUploadMbps"),
    // v2 has no public IP switch; a pod's direct SSH address comes with a published 22/tcp.
    supportPublicIp: { only: V1, what: "public IP requests (supportPublicIp)", neutral: [false] },
    // v2 runs the image's entrypoint and passes `args`; it cannot replace the entrypoint.
    dockerEntrypoint: { only: V1, what: "entrypoint overrides (dockerEntrypoint)", neutral: [[]], freeText: true },
    startSsh: { only: V2, what: "SSH key injection at create (startSsh)", neutral: [false] },
    startJupyter: { only: V2, what: "Jupyter start flags (startJupyter)", neutral: [false] },
    minCudaVersion: { only: V2, what: "CUDA version floors of pods (minCudaVersion)" },
  },
  podUpdate: {
    dockerEntrypoint: { only: V1, what: "entrypoint overrides (dockerEntrypoint)", neutral: [[]], freeText: true },
  },
  podList: {
    // v2 pods keep no link to their template, and v2 lists no serverless workers among pods.
    templateId: { only: V1, what: "templateId filters of pod lists" },
    endpointId: { only: V1, what: "endpointId filters of pod lists (serverless workers)" },
    includeWorkers: { only: V1, what: "serverless workers in pod lists (includeWorkers)", neutral: [false] },
  },
};

/** `lastN`: the last N buckets, a v2 parameter. */
const lastN = { only: V2, what: "lastN billing windows" };

/** Billing query inputs only one version has. */
export const BILLING_VERSION_FIELDS = {
  podBilling: {
    // v2's pod records are per pod and carry no GPU type.
    grouping: { only: V1, what: "pod billing groupings by GPU type", neutral: ["podId"] },
    gpuTypeId: { only: V1, what: "gpuTypeId filters of pod billing" },
    lastN,
  },
  endpointBilling: {
    grouping: { only: V1, what: "serverless billing groupings by worker or GPU type", neutral: ["endpointId"] },
    gpuTypeId: { only: V1, what: "gpuTypeId filters of serverless billing", neutral: [[]] },
    dataCenterId: { only: V1, what: "dataCenterId filters of serverless billing", neutral: [[]] },
    imageName: { only: V1, what: "imageName filters of serverless billing" },
    templateId: { only: V1, what: "templateId filters of serverless billing" },
    lastN,
  },
  networkVolumeBilling: {
    networkVolumeId: { only: V2, what: "per-volume network volume billing (networkVolumeId)" },
    lastN,
  },
};

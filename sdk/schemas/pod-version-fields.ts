import { RESOURCE_VERSION_FIELDS } from "./resource-fields";

/*
 * Which inputs of operations no resource has (a pod's update and list filters, the billing
 * queries) only one management API version can carry, decided field by field from the two
 * OpenAPIs (v1 `PodUpdateInput`, the `/pods` and `/billing/*` query parameters; v2
 * `UpdatePodRequest`, the `/v2/billing/*` parameters). The resources' own inputs are declared by
 * the `@apiVersion` tags of their `Args` (resource-fields.ts). Each entry says why in its `what`;
 * `neutral` lists the values that mean "not used" and so pass on either version. Merged into
 * `VERSION_ONLY_FIELDS` (api-version-fields.ts).
 */

const V1 = "v1" as const;
const V2 = "v2" as const;

/** Pod inputs beyond a pod's create (reset update, list filters) only one version has. */
export const POD_VERSION_FIELDS = {
  podUpdate: {
    // The same rule as a pod's create input (PodArgs.dockerEntrypoint).
    dockerEntrypoint: RESOURCE_VERSION_FIELDS.pod.dockerEntrypoint,
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

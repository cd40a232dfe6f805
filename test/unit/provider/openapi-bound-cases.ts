/*
 * Which resource input each bound of the OpenAPI documents' create and update requests comes
 * from, per management API version and group of operations (openapi-bounds.test.ts walks the
 * documents and looks every bound up here). A bound no input reaches is an exception with its
 * reason.
 */

/** A property bag of inputs. */
export type Props = Record<string, unknown>;

/** The resources whose create and update requests are walked. */
export type Resource =
  "NetworkVolume" | "ServerlessEndpoint" | "Template" | "ContainerRegistryAuth" | "Pod" | "Cluster";

/** One input that sends the bounded wire field: a value the bound refuses, the value at the bound, the rule's words. */
export interface BoundCase {
  /** The resource input the wire field comes from. */
  input: string;
  /** A value outside the bound. */
  bad: unknown;
  /** The value at the bound, which passes (left out where the input cannot take it). */
  ok?: unknown;
  /** Words of the refusal. */
  rule: string;
  /** Other inputs the field needs to be sent (a CPU endpoint's), or `undefined` to leave one out. */
  with?: Props;
}

/** A bound's cases, or why no input reaches it. */
export type BoundEntry = BoundCase | BoundCase[] | { exception: string };

/** Operations of one resource, its valid inputs, and its bounds keyed `<wire field> <keyword>`. */
export interface BoundGroup {
  resource: Resource;
  ops: string[];
  base: Props;
  bounds: Record<string, BoundEntry>;
}

const V2 = (rule: string) => `${rule} (on management API v2)`;
const name191 = { input: "name", bad: "n".repeat(192), ok: "n".repeat(191), rule: "must be at most 191 characters" };
const notEmpty = (input: string, ok: unknown, rule = "must not be empty"): BoundCase => ({ input, bad: "", ok, rule });
const atLeast = (input: string, min: number, rule = `must be at least ${min}`, extra: Partial<BoundCase> = {}) => ({
  input,
  bad: min - 1,
  ok: min,
  rule,
  ...extra,
});

const volume = { name: "models", size: 50, dataCenterId: "EU-RO-1" };
const gpuEndpoint = { name: "api", templateId: "tpl123", gpuTypeIds: ["NVIDIA L4"] };
const cpuEndpoint = { computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4, gpuTypeIds: undefined };
const template = { name: "worker", imageName: "ghcr.io/acme/echo:1.0", isServerless: true };
const pod = { name: "trainer", imageName: "pytorch/pytorch:2.4.0", gpuTypeIds: ["NVIDIA L4"] };
const cpuPod = { computeType: "CPU", cpuFlavorIds: ["cpu3c"], vcpuCount: 4, gpuTypeIds: undefined };
const cluster = {
  name: "train",
  type: "TRAINING",
  gpuTypeId: "NVIDIA L4",
  gpuCountPerPod: 1,
  podCount: 2,
  imageName: "trainer:1.0",
};

/** A single network mount: the inputs name one volume (`networkVolumeId`), so a list of more cannot be sent. */
const ONE_NETWORK_VOLUME = {
  exception: "networkVolumeId names one network volume: no input can send a second mount, so maxItems 1 always holds",
};

/** Endpoint bounds of v1, the same on its three write operations. */
const v1Endpoint: Record<string, BoundEntry> = {
  "gpuCount minimum": atLeast("gpuCount", 1),
  "idleTimeout minimum": atLeast("idleTimeout", 1, "must be at least 1 second"),
  "idleTimeout maximum": { input: "idleTimeout", bad: 3601, ok: 3600, rule: "must be at most 3600 seconds" },
  "name maxLength": name191,
  "scalerValue minimum": atLeast("scalerValue", 1),
  "workersMax minimum": atLeast("workersMax", 0, "workersMax must be at least 0"),
  "workersMin minimum": atLeast("workersMin", 0, "workersMin must be at least 0"),
};

/** Endpoint bounds of v2, the same on its create and update. */
const v2Endpoint: Record<string, BoundEntry> = {
  "disk minimum": {
    exception:
      "no ServerlessEndpoint input reaches disk: an endpoint runs its template's container disk (Template.containerDiskInGb, walked under /v2/templates)",
  },
  "gpu.pools minItems": [
    { input: "gpuPools", bad: [], ok: ["ADA_24"], rule: V2("must list at least one"), with: { gpuTypeIds: undefined } },
    // gpuTypeIds are sent as the pools that hold them: no type, no pool.
    { input: "gpuTypeIds", bad: [], ok: ["NVIDIA L4"], rule: V2("must list at least one") },
  ],
  "gpu.count minimum": atLeast("gpuCount", 1),
  "name minLength": notEmpty("name", "a", V2("must not be empty")),
  // The neutral scalerValue is a whole number of at least 1, inside v2's 0.5 and above.
  "scaling.queueDelay minimum": atLeast("scalerValue", 1, "must be at least 1", {
    with: { scalerType: "QUEUE_DELAY" },
  }),
  "scaling.requestCount minimum": atLeast("scalerValue", 1, "must be at least 1", {
    with: { scalerType: "REQUEST_COUNT" },
  }),
  "cpu minItems": {
    input: "cpuFlavorIds",
    bad: [],
    ok: ["cpu3c"],
    rule: V2("must list at least one"),
    with: cpuEndpoint,
  },
  "cpu[].id minLength": {
    input: "cpuFlavorIds",
    bad: [""],
    ok: ["cpu3c"],
    rule: "must not be empty",
    with: cpuEndpoint,
  },
  "cpu[].vcpuCount minimum": atLeast("vcpuCount", 2, V2("must be at least 2"), { with: cpuEndpoint }),
  "templateId minLength": notEmpty("templateId", "t"),
  "workers.min minimum": atLeast("workersMin", 0, "workersMin must be at least 0"),
  "workers.max minimum": atLeast("workersMax", 0, "workersMax must be at least 0"),
  "workers.idleTimeout minimum": atLeast("idleTimeout", 1, "must be at least 1 second"),
  "workers.idleTimeout maximum": { input: "idleTimeout", bad: 3601, ok: 3600, rule: "must be at most 3600 seconds" },
};

/** Container settings of v2 (templates, pods and clusters): the disk and the persistent (pod) volume. */
const v2Container: Record<string, BoundEntry> = {
  "disk minimum": atLeast("containerDiskInGb", 1, V2("must be at least 1 GB")),
  "mounts.persistent.size minimum": atLeast("volumeInGb", 10, V2("must be at least 10 GB")),
};

/** The groups of each version. */
export const BOUND_CASES: Record<"v1" | "v2", BoundGroup[]> = {
  v1: [
    {
      resource: "Pod",
      ops: ["POST /pods", "PATCH /pods/{podId}", "POST /pods/{podId}/update"],
      base: pod,
      bounds: { "gpuCount minimum": atLeast("gpuCount", 1), "name maxLength": name191 },
    },
    {
      resource: "ServerlessEndpoint",
      ops: ["POST /endpoints", "PATCH /endpoints/{endpointId}", "POST /endpoints/{endpointId}/update"],
      base: gpuEndpoint,
      bounds: v1Endpoint,
    },
    {
      resource: "NetworkVolume",
      ops: [
        "POST /networkvolumes",
        "PATCH /networkvolumes/{networkVolumeId}",
        "POST /networkvolumes/{networkVolumeId}/update",
      ],
      base: volume,
      bounds: {
        "size minimum": atLeast("size", 0, "must be at least 0 GB"),
        "size maximum": { input: "size", bad: 4001, ok: 4000, rule: "must be at most 4000 GB" },
      },
    },
  ],
  v2: [
    {
      resource: "Pod",
      ops: ["POST /v2/pods", "PATCH /v2/pods/{id}"],
      base: pod,
      bounds: {
        ...v2Container,
        "name minLength": notEmpty("name", "p", V2("must not be empty")),
        "cpu.id minLength": {
          input: "cpuFlavorIds",
          bad: [""],
          ok: ["cpu3c"],
          rule: "must not be empty",
          with: cpuPod,
        },
        "cpu.vcpuCount minimum": atLeast("vcpuCount", 2, V2("must be at least 2"), { with: cpuPod }),
        "gpu.count minimum": atLeast("gpuCount", 1),
        "mounts.network maxItems": ONE_NETWORK_VOLUME,
        "templateId minLength": notEmpty("templateId", "t"),
      },
    },
    {
      resource: "Cluster",
      ops: ["POST /v2/clusters", "PATCH /v2/clusters/{id}"],
      base: cluster,
      bounds: {
        ...v2Container,
        "compute.gpuTypeId minLength": notEmpty("gpuTypeId", "NVIDIA L4"),
        "compute.gpuCountPerPod minimum": atLeast("gpuCountPerPod", 1),
        "compute.podCount minimum": atLeast("podCount", 2),
        "compute.podCount maximum": { input: "podCount", bad: 251, ok: 250, rule: "must be at most 250" },
        "name minLength": notEmpty("name", "c", V2("must not be empty")),
        "mounts.network maxItems": ONE_NETWORK_VOLUME,
      },
    },
    {
      resource: "ServerlessEndpoint",
      ops: ["POST /v2/serverless", "PATCH /v2/serverless/{id}"],
      base: gpuEndpoint,
      bounds: v2Endpoint,
    },
    {
      resource: "Template",
      ops: ["POST /v2/templates", "PATCH /v2/templates/{id}"],
      base: template,
      bounds: { ...v2Container, "name minLength": notEmpty("name", "w") },
    },
    {
      resource: "NetworkVolume",
      ops: ["POST /v2/network-volumes", "PATCH /v2/network-volumes/{id}"],
      base: volume,
      bounds: {
        "dataCenter minLength": notEmpty("dataCenterId", "EU-RO-1"),
        "name minLength": notEmpty("name", "m"),
        "size minimum": atLeast("size", 10, V2("must be at least 10 GB")),
        "size maximum": { input: "size", bad: 4097, ok: 4096, rule: V2("must be at most 4096 GB") },
      },
    },
    {
      resource: "ContainerRegistryAuth",
      ops: ["POST /v2/registries"],
      base: { name: "ghcr", username: "deploy-bot", password: "registry-password" },
      bounds: {
        "name minLength": notEmpty("name", "g"),
        "password minLength": notEmpty("password", "p"),
        "username minLength": notEmpty("username", "u"),
      },
    },
  ],
};

import { z } from "zod";
import { podCreateToV2, podFromV2 } from "../sdk/management/neutral/over-v2/pod-translation";
import { PodCreateInputSchema } from "../sdk/schemas";
import { platformId } from "../sdk/schemas/platform-values";
import * as V2 from "../sdk/schemas/v2";
import { changedFields } from "./diff-inputs";
import { CLUSTER_FIELDS } from "./field-rules";
import { isUnknown, pick } from "./property-values";

/*
 * What a cluster's state holds and what its create sends, as pure functions over the property
 * bags (the provider in cluster-provider.ts sends the requests). The container settings are a
 * pod's: validated by the pod's schema, translated to v2 by the pod's translation.
 */

type Props = Record<string, unknown>;

/** The inputs of the field table, in its order. */
export const CLUSTER_INPUT_KEYS = Object.keys(CLUSTER_FIELDS);

/** The container settings of every member pod: a pod's inputs of the same names. */
const CONTAINER_KEYS = [
  "imageName",
  "env",
  "ports",
  "containerDiskInGb",
  "volumeInGb",
  "volumeMountPath",
  "dockerStartCmd",
  "networkVolumeId",
  "dataCenterIds",
  "startSsh",
  "startJupyter",
] as const;

const { gpuCountPerPod, podCount } = V2.ClusterComputeSchema.shape;

/**
 * Inputs as `check` judges them: the container settings and `name` by the pod's rules
 * (PodCreateInputSchema), the shape by v2's `ClusterCompute` bounds, the type as an open value.
 */
export const ClusterInputsSchema = PodCreateInputSchema.pick({
  name: true,
  ...Object.fromEntries(CONTAINER_KEYS.map((k) => [k, true])),
} as { name: true } & { [K in (typeof CONTAINER_KEYS)[number]]: true })
  .extend({
    type: z.string('must be a cluster type (a string such as "TRAINING")').min(1, "must not be empty"),
    gpuTypeId: platformId("gpuType"),
    gpuCountPerPod,
    podCount,
    adoptId: z.string().optional(),
  })
  .required({ imageName: true });

/** The v2 create body: the container settings as a pod's create sends them (with its defaults), the type and the shape. */
export function clusterCreateBody(inputs: Props): V2.CreateClusterRequest {
  const container = pick(inputs, CONTAINER_KEYS);
  const [pod] = podCreateToV2({
    ...container,
    name: inputs.name as string,
    gpuTypeIds: [inputs.gpuTypeId as string],
    gpuCount: inputs.gpuCountPerPod as number,
  });
  // What a pod has and a cluster does not (its GPU goes into `compute`; no registry, cloud or template).
  const {
    gpu: _gpu,
    cloud: _cloud,
    registry: _registry,
    templateId: _template,
    globalNetworking: _net,
    ...rest
  } = pod!;
  return {
    ...rest,
    name: inputs.name as string,
    type: inputs.type as string,
    compute: {
      gpuTypeId: inputs.gpuTypeId as string,
      gpuCountPerPod: inputs.gpuCountPerPod as number,
      podCount: inputs.podCount as number,
    },
  };
}

/** Inputs a cluster read reports: refresh compares the platform's value; the rest are kept as declared. */
const READ_BACK: Readonly<Record<string, (cluster: V2.Cluster) => unknown>> = {
  name: (c) => c.name,
  type: (c) => c.type,
  gpuTypeId: (c) => c.compute.gpuTypeId,
  gpuCountPerPod: (c) => c.compute.gpuCountPerPod,
  podCount: (c) => c.compute.podCount,
};

/** One member pod's id and addresses, read as a pod's are (podFromV2); no key holds undefined. */
function memberOf(pod: V2.Pod): Props {
  const neutral = podFromV2(pod);
  const member: Props = { id: pod.id };
  if (typeof pod.cluster?.rank === "number") member.rank = pod.cluster.rank;
  if (pod.cluster?.ip) member.clusterIp = pod.cluster.ip;
  if (neutral.publicIp) member.publicIp = neutral.publicIp;
  if (neutral.portMappings && Object.keys(neutral.portMappings).length > 0) member.portMappings = neutral.portMappings;
  return member;
}

/**
 * The outputs of a cluster: every input the program declares (`declared`: the inputs, or the
 * previous outputs on refresh; the platform's value where {@link READ_BACK} reads it), where it
 * was placed, its member pods by rank with their addresses, and their summed cost per hour.
 */
export function clusterOutputs(cluster: V2.Cluster, members: readonly V2.Pod[], declared: Props): Props {
  const outs: Props = {};
  for (const key of CLUSTER_INPUT_KEYS) {
    const value = READ_BACK[key]?.(cluster) ?? declared[key];
    if (value !== undefined) outs[key] = value;
  }
  if (cluster.dataCenterId !== undefined) outs.dataCenterId = cluster.dataCenterId;
  const ranked = [...members].sort((a, b) => (a.cluster?.rank ?? Infinity) - (b.cluster?.rank ?? Infinity));
  outs.pods = ranked.map(memberOf);
  // Float noise (0.43 × 3) rounded away at a ten-thousandth of a cent.
  outs.costPerHr = Math.round(members.reduce((sum, p) => sum + p.cost, 0) * 1e6) / 1e6;
  return outs;
}

/** Whether a change from `olds` to `news` replaces the cluster (anything but the name). */
export function replacesCluster(olds: Props, news: Props): boolean {
  return changedFields(olds, news, CLUSTER_FIELDS).some(
    (k) => CLUSTER_FIELDS[k as keyof typeof CLUSTER_FIELDS]?.replaces,
  );
}

/** `Cluster "train"`: the resource's logical name, the last part of its URN. */
function subjectOf(news: Props): string {
  const urn = typeof news.__urn === "string" ? news.__urn : "";
  return urn ? `Cluster "${urn.slice(urn.lastIndexOf("::") + 2)}"` : `Cluster ${JSON.stringify(news.name ?? "")}`;
}

/**
 * The preview's words for a change that replaces the cluster, or undefined when it only renames
 * it (or changes nothing). Names the resource and the fields, says why the platform cannot apply
 * them in place, and what the replacement does to the member pods and the stock.
 */
export function replaceNotice(olds: Props, news: Props): string | undefined {
  const fields = changedFields(olds, news, CLUSTER_FIELDS).filter(
    (k) => CLUSTER_FIELDS[k as keyof typeof CLUSTER_FIELDS]?.replaces,
  );
  if (fields.length === 0) return undefined;
  const unknown = fields.some((k) => isUnknown(news[k])) ? " (values not known until apply count as changed)" : "";
  return `${subjectOf(news)}: changing ${fields.join(", ")} replaces the cluster: management API v2 fixes a cluster's type, shape and container settings at creation and changes only its name in place (PATCH /v2/clusters/{id}); a new cluster is placed, then the old one is deleted with its member pods, their container disks and pod volumes (a network volume stays); until then the stock must hold both, unless the resource sets deleteBeforeReplace${unknown}`;
}

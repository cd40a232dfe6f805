import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import type * as V2 from "../sdk/schemas/v2";
import { seriesName } from "./auto-name";
import {
  adoptIdFailures,
  boundFailures,
  type Expect,
  type SchemaMatchesTable,
  schemaFailures,
  versionOnlyFailures,
} from "./check-inputs";
import {
  CLUSTER_INPUT_KEYS,
  clusterCreateBody,
  ClusterInputsSchema,
  clusterOutputs,
  replaceNotice,
  replacesCluster,
} from "./cluster-state";
import { createOnce } from "./create-once";
import { diffInputs } from "./diff-inputs";
import { warnOnResource } from "./engine-notice";
import { PartialCreateError } from "./errors";
import { CLUSTER_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import { pick } from "./property-values";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof ClusterInputsSchema, typeof CLUSTER_FIELDS>>;

/** Where the account's clusters are read: one listing for a refresh's reads, or one by id. */
function clusters(client: RunpodClient): ResourceSource<V2.Cluster> {
  return {
    owner: client,
    kind: "clusters",
    list: () => client.v2.clusters.list(),
    get: (id) => client.v2.clusters.get(id),
  };
}

/**
 * The cluster and its member pods, as the outputs need them: the cluster from the refresh's
 * listing (listings.ts), its members by the cluster's own route (the pod list leaves them out).
 */
async function readCluster(client: RunpodClient, id: string): Promise<{ cluster: V2.Cluster; members: V2.Pod[] }> {
  const cluster = await readListed(clusters(client), id);
  return { cluster, members: await client.v2.clusters.pods(id) };
}

/** The outputs of a cluster just created or found, recorded in state even when reading its members fails. */
async function outputsAfterCreate(client: RunpodClient, cluster: V2.Cluster, inputs: Props): Promise<Props> {
  try {
    return clusterOutputs(cluster, await client.v2.clusters.pods(cluster.id), inputs);
  } catch (err) {
    throw new PartialCreateError(cluster.id, clusterOutputs(cluster, [], inputs), err);
  }
}

/** Brings an existing cluster (adopted, or left by a lost create) to the inputs: a rename is all it can take. */
async function converge(client: RunpodClient, found: V2.Cluster, inputs: Props): Promise<dynamic.CreateResult> {
  let cluster = found;
  if (typeof inputs.name === "string" && cluster.name !== inputs.name) {
    try {
      cluster = await client.v2.clusters.rename(found.id, inputs.name);
    } catch (err) {
      throw new PartialCreateError(found.id, clusterOutputs(found, [], { ...inputs, name: found.name }), err);
    }
  }
  return { id: cluster.id, outs: await outputsAfterCreate(client, cluster, inputs) };
}

/** A cluster's type and shape, field by field, named as the inputs name them. */
function shapeOf(cluster: V2.Cluster): Props {
  const { gpuTypeId, gpuCountPerPod, podCount } = cluster.compute;
  return { type: cluster.type, gpuTypeId, gpuCountPerPod, podCount };
}

/** Whether `cluster` has the type and shape the inputs ask for. */
function sameShape(cluster: V2.Cluster, inputs: Props): boolean {
  return Object.entries(shapeOf(cluster)).every(([field, value]) => inputs[field] === value);
}

/**
 * Takes an existing cluster under management: its type and shape must be the inputs' (they cannot
 * change in place), and so must the image its members run; a different name is renamed.
 */
async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.v2.clusters.get(id), adoptId, "cluster");
  const actual = shapeOf(found);
  for (const [field, value] of Object.entries(actual)) {
    if (inputs[field] !== value) throw immutableMismatch(adoptId, "cluster", field, value, inputs[field]);
  }
  const [primary] = await client.v2.clusters.pods(adoptId);
  if (primary && inputs.imageName !== primary.image) {
    throw immutableMismatch(adoptId, "cluster", "imageName", primary.image, inputs.imageName);
  }
  return converge(client, found, inputs);
}

/** Finds a cluster this stack created but never heard back about: same auto-name, type and shape (create-once.ts). */
function findOwnCluster(client: RunpodClient, inputs: Props, fresh: boolean): Promise<V2.Cluster | undefined> {
  return findOwnResource(
    {
      ...clusters(client),
      matches: (c) => c.name === inputs.name && sameShape(c, inputs),
      what: `clusters named ${JSON.stringify(inputs.name)} of the same type and shape`,
    },
    fresh,
  );
}

/** The dynamic provider implementation of `Cluster` (management API v2's `/v2/clusters`). */
export const clusterProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: ClusterInputsSchema,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.v2.clusters.get(id);
  },

  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [
      ...versionOnlyFailures("Cluster"),
      ...schemaFailures(ClusterInputsSchema, news),
      ...adoptIdFailures(news),
    ];
    failures.push(...boundFailures("cluster", olds, news, CLUSTER_FIELDS, failures));
    // A replacement is created before the old cluster is deleted: an auto-named one takes the next
    // name of its series, so a lost create's lookup by name never mistakes the old cluster for it.
    return { inputs: seriesName(olds, news, replacesCluster), failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    const notice = replaceNotice(olds, news);
    if (notice && typeof news.__urn === "string") await warnOnResource(news.__urn, notice);
    return diffInputs(olds, news, CLUSTER_FIELDS);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnCluster(client, inputs, fresh) : undefined,
      create: () => client.v2.clusters.create(clusterCreateBody(inputs)),
    });
    if (existed) return converge(client, resource, inputs);
    return { id: resource.id, outs: await outputsAfterCreate(client, resource, inputs) };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readCluster(client, id),
      ({ cluster, members }) => {
        const outs = clusterOutputs(cluster, members, props);
        return { id, props: outs, inputs: pick(outs, CLUSTER_INPUT_KEYS) };
      },
    );
  },

  /** Only a rename reaches update: every other change replaces the cluster. */
  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    if (news.name !== olds.name && typeof news.name === "string") await client.v2.clusters.rename(id, news.name);
    const { cluster, members } = await readCluster(client, id);
    return { outs: clusterOutputs(cluster, members, news) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.v2.clusters.delete(id));
  },
} satisfies ResourceProviderObject);

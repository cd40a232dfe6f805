import type { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import { type ImplKey, type KindOfFace, kindsOfFace, RESOURCE_KINDS } from "../sdk/resource-kinds";
import type { Pod } from "../sdk/schemas";
import type { ResourceArgsByType } from "../provider/field-rules";
import * as impl from "../provider/impl";
import type { ResourceProviderObject } from "../provider/provider-object";
import { INJECTED_ENV_NAMES } from "../provider/template-env";
import { containerOfTemplate, holdsSettings } from "../provider/template-rollout";
import { podOutputs } from "../provider/pod-state";
import { podFromV2 } from "../sdk/management/neutral/over-v2/pod-translation";
import type * as V2 from "../sdk/schemas/v2";

type Props = Record<string, unknown>;

/**
 * What the plugin knows of one resource type beyond its field table and its `Args`: its provider
 * object (with the schema of its inputs and its `fetch`) and, for some kinds, what `pulumi import`
 * needs besides.
 */
export interface PluginResource<T extends PluginResourceType> {
  /** The provider object of the dynamic resource, run as is. */
  provider: ResourceProviderObject;
  /** The zod schema `check` validates the inputs with: the schema's enums, bounds and formats come from it. */
  inputs: z.ZodObject;
  /** The platform's record of the resource with `id` (what `pulumi import` reads). */
  fetch(client: RunpodClient, id: string): Promise<object>;
  /**
   * Inputs the platform never returns (a registry password): an imported resource's state has
   * none, so the program's values are taken as what it holds (see plugin-provider.ts).
   */
  writeOnly?: readonly Extract<keyof ResourceArgsByType[T], string>[];
  /**
   * For `pulumi import`: inputs the record holds under other names or shapes than the field
   * table's, which the provider's `read` then reports as it does on refresh.
   */
  importDeclared?(record: object, client: RunpodClient): Promise<Props> | Props;
}

/** The record's env without what the platform injects (an SSH key, a generated password): never the program's. */
function envOfProgram(env: Record<string, string> | undefined): Record<string, string> | undefined {
  if (env === undefined) return undefined;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !(name in INJECTED_ENV_NAMES)));
}

/**
 * The template a v2 endpoint was created from: v2 keeps no link, so the one template of the
 * account whose container settings the endpoint holds (the rule template-rollout.ts re-applies
 * templates by); none when no template, or more than one, matches.
 */
async function templateOfEndpoint(client: RunpodClient, endpoint: object): Promise<Props> {
  const e = endpoint as { templateId?: string; container?: unknown };
  if (e.templateId !== undefined || e.container === undefined) return {};
  const templates = await client.templates.list();
  const matches = templates.filter((t) => holdsSettings(endpoint as never, containerOfTemplate(t)));
  return matches.length === 1 ? { templateId: matches[0]!.id } : {};
}

/** A pod's machine as inputs: what it rents and where, as the platform placed it. */
function podPlacement(record: object): Props {
  const pod = record as Pod;
  const cpu = pod.cpuFlavorId !== undefined && pod.cpuFlavorId !== "";
  return {
    env: envOfProgram(pod.env),
    computeType: cpu ? "CPU" : "GPU",
    ...(cpu
      ? { cpuFlavorIds: [pod.cpuFlavorId], vcpuCount: pod.vcpuCount }
      : { gpuTypeIds: pod.gpu?.id ? [pod.gpu.id] : undefined, gpuCount: pod.gpu?.count }),
    networkVolumeId: pod.networkVolume?.id,
  };
}

/** The container settings of a pod read as a pod's refresh reads them, for a cluster's import. */
const MEMBER_SETTINGS = [
  "imageName",
  "ports",
  "containerDiskInGb",
  "volumeInGb",
  "volumeMountPath",
  "dockerStartCmd",
] as const;

/** Marks a setting to be read from the member (podOutputs reads back only what is declared). */
const FROM_MEMBER = Object.freeze({});

/**
 * A cluster's type and shape, named as the inputs name them (v2 nests them under `compute`), and
 * the container settings every member runs, which v2's cluster record does not hold: read from
 * its first member as a pod's refresh reads a pod (so the printed code previews no change).
 */
async function clusterShape(record: object, client: RunpodClient): Promise<Props> {
  const cluster = record as V2.Cluster;
  const { gpuTypeId, gpuCountPerPod, podCount } = cluster.compute ?? {};
  const rank = (p: V2.Pod) => p.cluster?.rank ?? Number.POSITIVE_INFINITY;
  const [first] = (await client.v2.clusters.pods(cluster.id)).sort((a, b) => rank(a) - rank(b));
  return {
    type: cluster.type,
    gpuTypeId,
    gpuCountPerPod,
    podCount,
    ...(first ? memberSettings(podFromV2(first)) : {}),
  };
}

function memberSettings(pod: Pod): Props {
  const networkVolumeId = pod.networkVolume?.id;
  const declared: Props = { networkVolumeId, ...Object.fromEntries(MEMBER_SETTINGS.map((k) => [k, FROM_MEMBER])) };
  const read = podOutputs(pod, declared);
  const settings = MEMBER_SETTINGS.map((k) => [k, read[k]] as const).filter(
    ([, v]) => v !== FROM_MEMBER && v !== undefined,
  );
  return { ...Object.fromEntries(settings), networkVolumeId, env: envOfProgram(pod.env ?? undefined) };
}

/** The resource types the plugin serves: the kinds of the table (sdk/resource-kinds.ts) with the face `plugin`. */
export type PluginResourceType = KindOfFace<"plugin">;

/**
 * The provider objects of `runpod-iac/impl` by key: a kind whose provider object is missing there,
 * or lacks what the plugin needs, does not compile.
 */
const PROVIDERS: { readonly [K in ImplKey]: ResourceProviderObject } = impl;

/** What `pulumi import` needs beyond the provider object, for the kinds that need anything. */
const IMPORT_EXTRAS: { readonly [T in PluginResourceType]?: Pick<PluginResource<T>, "writeOnly" | "importDeclared"> } =
  {
    ServerlessEndpoint: { importDeclared: (record, client) => templateOfEndpoint(client, record) },
    ContainerRegistryAuth: { writeOnly: ["username", "password"] },
    Pod: { importDeclared: podPlacement },
    Cluster: { importDeclared: clusterShape },
    // The platform never returns a secret's value: an imported secret's program gives it again.
    Secret: { writeOnly: ["value"] },
    // The id names the volume and the prefix; the volume's record, its data center. Which files
    // the resource owns cannot be read: it starts owning none, and the program gives `files`.
    VolumeFiles: { importDeclared: (volume) => ({ dataCenterId: (volume as { dataCenterId?: string }).dataCenterId }) },
  };

/**
 * The plugin's resource types: one entry each, derived from the table of kinds, the provider
 * objects and {@link IMPORT_EXTRAS}. A kind's schema (plugin/schema.json) is generated from its
 * field table, its `Args` and its class (`npm run gen:schema`).
 */
export const PLUGIN_RESOURCES = Object.fromEntries(
  kindsOfFace("plugin").map((kind) => {
    const provider = PROVIDERS[RESOURCE_KINDS[kind].impl];
    const entry: PluginResource<PluginResourceType> = {
      provider,
      inputs: provider.inputSchema,
      fetch: (client, id) => provider.fetch(client, id),
      ...(IMPORT_EXTRAS[kind] as Pick<PluginResource<PluginResourceType>, "writeOnly" | "importDeclared">),
    };
    return [kind, entry];
  }),
) as { readonly [T in PluginResourceType]: PluginResource<T> };

/** Whether `type` is one of the plugin's resource types. */
export function isPluginResourceType(type: string | undefined): type is PluginResourceType {
  return type !== undefined && Object.prototype.hasOwnProperty.call(PLUGIN_RESOURCES, type);
}

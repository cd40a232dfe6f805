import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import { RunpodError } from "../sdk/errors";
import { type NetworkVolume, NetworkVolumeCreateInputShape, volumeSizeChangeProblem } from "../sdk/schemas";
import {
  adoptIdFailures,
  boundFailures,
  type Expect,
  type SchemaMatchesTable,
  schemaFailures,
  versionFailures,
} from "./check-inputs";
import { createOnce } from "./create-once";
import { diffInputs } from "./diff-inputs";
import { PartialCreateError } from "./errors";
import { NETWORK_VOLUME_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { isUnknown } from "./property-values";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

/** Inputs as the provider sees them after `check` (the size range is the configured version's, `boundFailures`). */
const VolumeInputsSchema = NetworkVolumeCreateInputShape.extend({ adoptId: z.string().optional() });

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof VolumeInputsSchema, typeof NETWORK_VOLUME_FIELDS>>;

/**
 * The outputs of a volume: its fields as the platform holds them (what refresh compares). The
 * storage tier is an output only when the program declares it (`declared`: the inputs, or the
 * previous outputs on refresh): a stack deployed through v1, which has no tiers, then refreshes
 * through v2 without a change (docs/api-versions.md). The bookkeeping inputs (`adoptId`, `__autoNamed`) stay
 * in the inputs only: nothing reads them from the outputs, and each stored byte is rewritten into
 * every checkpoint.
 */
function volumeOutputs(volume: NetworkVolume, declared: Props): Props {
  const outs: Props = { name: volume.name, size: volume.size, dataCenterId: volume.dataCenterId };
  if (declared.type !== undefined && volume.type !== undefined) outs.type = volume.type;
  return outs;
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.networkVolumes.get(id), adoptId, "network volume");
  if (found.dataCenterId !== inputs.dataCenterId) {
    throw new RunpodError(
      "invalid_request",
      `adoptId = ${JSON.stringify(adoptId)}: the volume is in data center ${found.dataCenterId}, but dataCenterId is ${String(inputs.dataCenterId)}; a volume cannot move, so set dataCenterId to ${found.dataCenterId}`,
    );
  }
  if (inputs.type !== undefined && found.type !== undefined && found.type !== inputs.type) {
    throw immutableMismatch(adoptId, "volume", "type", found.type, inputs.type);
  }
  const size = inputs.size as number;
  if (size < found.size) {
    throw new RunpodError(
      "invalid_request",
      `adoptId = ${JSON.stringify(adoptId)}: the volume has ${found.size} GB and size is ${size} GB; volumes cannot shrink, so set size to at least ${found.size}`,
    );
  }
  return converge(client, found, inputs);
}

/** Brings an existing volume to the inputs (rename, grow), recording it in state even if that fails. */
async function converge(client: RunpodClient, found: NetworkVolume, inputs: Props): Promise<dynamic.CreateResult> {
  const patch: { name?: string; size?: number } = {};
  if (found.name !== inputs.name) patch.name = inputs.name as string;
  if ((inputs.size as number) > found.size) patch.size = inputs.size as number;
  if (Object.keys(patch).length === 0) return { id: found.id, outs: volumeOutputs(found, inputs) };
  try {
    const updated = await client.networkVolumes.update(found.id, patch, { currentSize: found.size });
    return { id: found.id, outs: volumeOutputs(updated, inputs) };
  } catch (err) {
    throw new PartialCreateError(found.id, volumeOutputs(found, inputs), err);
  }
}

/** The account's network volumes, listed or read by id (listings.ts). */
function volumes(client: RunpodClient): ResourceSource<NetworkVolume> {
  return {
    owner: client,
    kind: "networkVolumes",
    list: () => client.networkVolumes.list(),
    get: (id) => client.networkVolumes.get(id),
  };
}

/**
 * Finds a volume this stack created but never heard back about: same auto-name and data center
 * (used for auto-named volumes only, see create-once.ts).
 */
function findOwnVolume(client: RunpodClient, inputs: Props, fresh: boolean): Promise<NetworkVolume | undefined> {
  return findOwnResource(
    {
      ...volumes(client),
      matches: (v) => v.name === inputs.name && v.dataCenterId === inputs.dataCenterId,
      what: `network volumes named ${JSON.stringify(inputs.name)} in ${String(inputs.dataCenterId)}`,
    },
    fresh,
  );
}

/** The dynamic provider implementation of `NetworkVolume`. */
export const networkVolumeProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: NetworkVolumeCreateInputShape,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.networkVolumes.get(id);
  },

  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [
      ...schemaFailures(VolumeInputsSchema, news),
      ...adoptIdFailures(news),
      ...versionFailures("networkVolume", news),
    ];
    failures.push(...boundFailures("networkVolume", olds, news, NETWORK_VOLUME_FIELDS, failures));
    const oldSize = olds.size;
    const newSize = news.size;
    const sameDataCenter = olds.dataCenterId === news.dataCenterId;
    // A new data center means a new volume, which may be any size; otherwise size only grows.
    if (typeof oldSize === "number" && typeof newSize === "number" && sameDataCenter && !isUnknown(news.dataCenterId)) {
      const problem = volumeSizeChangeProblem(oldSize, newSize);
      if (problem) failures.push({ property: "size", reason: problem });
    }
    return { inputs: news, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffInputs(olds, news, NETWORK_VOLUME_FIELDS);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const spec = {
      name: inputs.name as string,
      size: inputs.size as number,
      dataCenterId: inputs.dataCenterId as string,
      ...(inputs.type !== undefined ? { type: inputs.type as string } : {}),
    };
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnVolume(client, inputs, fresh) : undefined,
      create: () => client.networkVolumes.create(spec),
    });
    if (existed) return converge(client, resource, inputs);
    return { id: resource.id, outs: volumeOutputs(resource, inputs) };
  },

  async read(id: string, props: Props = {}): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readListed(volumes(client), id),
      (volume) => ({ id, props: volumeOutputs(volume, props), inputs: volumeOutputs(volume, props) }),
    );
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const patch: { name?: string; size?: number } = {};
    if (news.name !== olds.name) patch.name = news.name as string;
    if (news.size !== olds.size) patch.size = news.size as number;
    const client = await providerClient();
    const volume =
      Object.keys(patch).length > 0
        ? await client.networkVolumes.update(id, patch, { currentSize: olds.size as number })
        : await client.networkVolumes.get(id);
    return { outs: volumeOutputs(volume, news) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.networkVolumes.delete(id));
  },
} satisfies ResourceProviderObject);

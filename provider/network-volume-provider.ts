import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import { RunpodError } from "../sdk/errors";
import { type NetworkVolume, NetworkVolumeCreateInputSchema, volumeSizeChangeProblem } from "../sdk/schemas";
import { adoptIdFailures, schemaFailures } from "./check-inputs";
import { createOnce } from "./create-once";
import { diffInputs } from "./diff-inputs";
import { isNotFound, PartialCreateError } from "./errors";
import { NETWORK_VOLUME_FIELDS } from "./field-rules";
import { singleMatch } from "./own-resource";
import { isUnknown } from "./property-values";
import { providerClient } from "./provider-config";

type Props = Record<string, unknown>;

/** Inputs as the provider sees them after `check`. */
const VolumeInputsSchema = NetworkVolumeCreateInputSchema.extend({ adoptId: z.string().optional() });

/** The outputs of a volume: the platform's fields plus the bookkeeping inputs that must survive. */
function volumeOutputs(volume: NetworkVolume, inputs: Props): Props {
  return {
    name: volume.name,
    size: volume.size,
    dataCenterId: volume.dataCenterId,
    ...(inputs.adoptId !== undefined ? { adoptId: inputs.adoptId } : {}),
    ...(inputs.__autoNamed !== undefined ? { __autoNamed: inputs.__autoNamed } : {}),
  };
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await client.networkVolumes.get(adoptId).catch((err) => {
    if (isNotFound(err))
      throw new RunpodError(
        "not_found",
        `adoptId = ${JSON.stringify(adoptId)}: no network volume with this id exists in this account`,
      );
    throw err;
  });
  if (found.dataCenterId !== inputs.dataCenterId) {
    throw new RunpodError(
      "invalid_request",
      `adoptId = ${JSON.stringify(adoptId)}: the volume is in data center ${found.dataCenterId}, but dataCenterId is ${String(inputs.dataCenterId)}; a volume cannot move, so set dataCenterId to ${found.dataCenterId}`,
    );
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

/**
 * Finds a volume this stack created but never heard back about: same auto-name and data center
 * (used for auto-named volumes only, see create-once.ts).
 */
async function findOwnVolume(client: RunpodClient, inputs: Props): Promise<NetworkVolume | undefined> {
  const matches = (await client.networkVolumes.list()).filter(
    (v) => v.name === inputs.name && v.dataCenterId === inputs.dataCenterId,
  );
  return singleMatch(matches, `network volumes named ${JSON.stringify(inputs.name)} in ${String(inputs.dataCenterId)}`);
}

/** The dynamic provider implementation of `NetworkVolume`. */
export const networkVolumeProvider = {
  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [...schemaFailures(VolumeInputsSchema, news), ...adoptIdFailures(news)];
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
    };
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? () => findOwnVolume(client, inputs) : undefined,
      create: () => client.networkVolumes.create(spec),
    });
    if (existed) return converge(client, resource, inputs);
    return { id: resource.id, outs: volumeOutputs(resource, inputs) };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    try {
      const volume = await (await providerClient()).networkVolumes.get(id);
      const outs = volumeOutputs(volume, props);
      return { id, props: outs, inputs: outs };
    } catch (err) {
      // Deleted outside Pulumi: no id tells the engine to drop it from state.
      if (isNotFound(err)) return {};
      throw err;
    }
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
    try {
      await (await providerClient()).networkVolumes.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
};

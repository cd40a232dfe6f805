import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import type { PodReadOptions } from "../sdk/management/neutral/api";
import {
  type POD_IN_PLACE_FIELDS,
  type Pod,
  type PodCreateInput,
  PodCreateInputSchema,
  type PodUpdateInput,
} from "../sdk/schemas";
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
import { warnOnResource } from "./engine-notice";
import { PartialCreateError } from "./errors";
import type { FieldsWhere } from "./field-rule-types";
import { POD_FIELD_RULES, POD_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import {
  envToSend,
  lockProblem,
  oldsInNewSpelling,
  planPodUpdate,
  POD_INPUT_KEYS,
  podOutputs,
  resetNotice,
} from "./pod-state";
import { pick } from "./property-values";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { configuredApiVersion, configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

/** Inputs as the provider sees them after `check`: the create input, the status, `adoptId`. */
const PodInputsSchema = PodCreateInputSchema.extend({
  desiredStatus: z.enum(["RUNNING", "EXITED"], { error: "must be RUNNING or EXITED" }),
  adoptId: z.string().optional(),
});

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof PodInputsSchema, typeof POD_FIELDS>>;

/** `true` when `A` and `B` are the same set of keys, else the keys only one of them has. */
type SameFields<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never]
  ? true
  : { onlyInTable: Exclude<A, B>; onlyInPlatform: Exclude<B, A> };
/** The platform's in-place pod update (name, locked): no reset. */
type InPlaceField = (typeof POD_IN_PLACE_FIELDS)[number];
// The pod table's rules follow from the platform's update inputs, a tsc error otherwise: a field
// resets exactly when the reset update carries it and the in-place update does not; it changes in
// place exactly when the in-place update carries it (or it is `desiredStatus`: stop and start);
// every other field (the create's alone) replaces.
type _ResetsAreTheResetUpdate = Expect<
  SameFields<FieldsWhere<typeof POD_FIELD_RULES, { resets: true }>, Exclude<keyof PodUpdateInput, InPlaceField>>
>;
type _InPlaceIsTheInPlaceUpdate = Expect<
  SameFields<
    FieldsWhere<typeof POD_FIELD_RULES, { resets?: undefined; replaces?: undefined }>,
    InPlaceField | "desiredStatus"
  >
>;

/** Every input but the status goes into the create. */
const CREATE_KEYS = POD_INPUT_KEYS.filter((k) => k !== "desiredStatus");
/** v1 reports a pod's network volume only when asked; v2 always does. */
const READ: PodReadOptions = { includeNetworkVolume: true };

const computeTypeOf = (pod: Pod) => (pod.cpuFlavorId ? "CPU" : "GPU");

/** Carries out an in-place change (rename, lock, reset fields, stop or start), in the order a lock needs. */
async function applyChanges(client: RunpodClient, id: string, olds: Props, news: Props): Promise<Pod> {
  const plan = planPodUpdate(olds, news);
  if (Object.keys(plan.inPlaceFirst).length > 0) await client.pods.updateInPlace(id, plan.inPlaceFirst);
  if (plan.reset.length > 0) {
    const body = pick(news, plan.reset) as PodUpdateInput;
    if (body.env !== undefined) body.env = envToSend(body.env, (await client.pods.get(id)).env, olds.env);
    await client.pods.update(id, body);
  }
  if (plan.status === "stop") await client.pods.stop(id);
  if (plan.status === "start") await client.pods.start(id);
  if (plan.lockAfter) await client.pods.updateInPlace(id, { locked: true });
  return client.pods.get(id, READ);
}

/** Brings an existing pod (adopted, or left by a lost create) to the inputs, recording it in state even if that fails. */
async function converge(client: RunpodClient, found: Pod, inputs: Props): Promise<dynamic.CreateResult> {
  const current = podOutputs(found, inputs);
  try {
    return { id: found.id, outs: podOutputs(await applyChanges(client, found.id, current, inputs), inputs) };
  } catch (err) {
    throw new PartialCreateError(found.id, current, err);
  }
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.pods.get(id, READ), adoptId, "pod");
  const wanted = (inputs.computeType as string | undefined) ?? "GPU";
  if (computeTypeOf(found) !== wanted)
    throw immutableMismatch(adoptId, "pod", "computeType", computeTypeOf(found), wanted);
  const gpuCount = inputs.gpuCount ?? 1;
  if (found.gpu?.count !== undefined && wanted === "GPU" && found.gpu.count !== gpuCount) {
    throw immutableMismatch(adoptId, "pod", "gpuCount", found.gpu.count, gpuCount);
  }
  const volume = found.networkVolume?.id;
  if (inputs.networkVolumeId !== undefined && volume !== inputs.networkVolumeId) {
    throw immutableMismatch(adoptId, "pod", "networkVolumeId", volume ?? "none", inputs.networkVolumeId);
  }
  return converge(client, found, inputs);
}

/** The account's pods, listed or read by id (listings.ts), with v1's network volume (READ) either way. */
function pods(client: RunpodClient): ResourceSource<Pod> {
  return {
    owner: client,
    kind: "pods",
    list: () => client.pods.list(READ),
    get: (id) => client.pods.get(id, READ),
  };
}

/** Finds a pod this stack created but never heard back about: same auto-name and compute type (create-once.ts). */
function findOwnPod(client: RunpodClient, inputs: Props, fresh: boolean): Promise<Pod | undefined> {
  const computeType = (inputs.computeType as string | undefined) ?? "GPU";
  return findOwnResource(
    {
      ...pods(client),
      matches: (p) => p.name === inputs.name && computeTypeOf(p) === computeType && p.desiredStatus !== "TERMINATED",
      what: `${computeType} pods named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/** The version the provider talks, or undefined when the URL names none (`check` reports that). */
function versionOrUndefined() {
  try {
    return configuredApiVersion();
  } catch {
    return undefined;
  }
}

/** The dynamic provider implementation of `Pod`. */
export const podProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: PodCreateInputSchema,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.pods.get(id, { includeNetworkVolume: true });
  },

  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const inputs: Props = { ...news, desiredStatus: news.desiredStatus ?? "RUNNING" };
    const failures = [
      ...schemaFailures(PodInputsSchema, inputs),
      ...adoptIdFailures(inputs),
      ...versionFailures("pod", inputs),
    ];
    failures.push(...boundFailures("pod", olds, inputs, POD_FIELDS, failures));
    if (inputs.imageName === undefined && inputs.templateId === undefined && inputs.adoptId === undefined) {
      failures.push({
        property: "imageName",
        reason: "is required: give the image the pod runs (or a templateId that names one)",
      });
    }
    const locked = lockProblem(olds, inputs);
    if (locked) failures.push({ property: "locked", reason: `true: ${locked}` });
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    // A placement filter a state holds under its earlier, v1 name is the same filter.
    const before = oldsInNewSpelling(olds, news);
    const notice = resetNotice(before, news, versionOrUndefined());
    if (notice && typeof news.__urn === "string") await warnOnResource(news.__urn, notice);
    return diffInputs(before, news, POD_FIELDS);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const body = pick(inputs, CREATE_KEYS) as PodCreateInput;
    // A locked pod cannot be stopped: one meant to be stopped is locked after the stop.
    const stopFirst = inputs.desiredStatus === "EXITED";
    if (stopFirst) delete body.locked;
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnPod(client, inputs, fresh) : undefined,
      create: () => client.pods.create(body),
    });
    if (existed) return converge(client, resource, inputs);
    if (!stopFirst) return { id: resource.id, outs: podOutputs(resource, inputs) };
    try {
      await client.pods.stop(resource.id);
      if (inputs.locked === true) await client.pods.updateInPlace(resource.id, { locked: true });
      return { id: resource.id, outs: podOutputs(await client.pods.get(resource.id, READ), inputs) };
    } catch (err) {
      throw new PartialCreateError(resource.id, podOutputs(resource, { ...inputs, desiredStatus: "RUNNING" }), err);
    }
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readListed(pods(client), id),
      (pod) => {
        // A terminated pod is gone: the engine drops it from state, and the next `up` creates it again.
        if (pod.desiredStatus === "TERMINATED") return {};
        const outs = podOutputs(pod, props);
        return { id, props: outs, inputs: pick(outs, POD_INPUT_KEYS) };
      },
    );
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    return { outs: podOutputs(await applyChanges(client, id, olds, news), news) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.pods.delete(id));
  },
} satisfies ResourceProviderObject);

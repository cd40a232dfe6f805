import { argsToStartCommand, POD_IN_PLACE_FIELDS, type PodUpdateInput, startCommandToArgs } from "../../sdk/schemas";
import type * as V2 from "../../sdk/schemas/v2";
import { badField, notFound, unprocessableField } from "../errors/http-errors";
import type { PodAccount } from "./pod-account";
import { wipeContainer } from "./pod-lifecycle";
import type { PodRecord } from "./pod-record";
import { recordOfV1View, replaceRecord, v1ViewOf } from "./pod-v1-view";

/*
 * A pod's updates, one function per API version, over the one record: v1's `PATCH` and
 * `POST .../update`, v2's `PATCH`. Each changes the record and stages a container wipe where the
 * platform resets; the route then `put`s the pod.
 */

/**
 * Applies a v1 update to a pod, through the record as v1 names it: `name` and `locked` in place,
 * anything else of `PodUpdateInput` replaces the container (a reset: its disk wiped).
 */
export function updatePodV1(account: PodAccount, pod: PodRecord, input: PodUpdateInput, alwaysReset: boolean): void {
  const resets = alwaysReset || Object.keys(input).some((k) => !(POD_IN_PLACE_FIELDS as readonly string[]).includes(k));
  if (resets && pod.locked && input.locked !== false) {
    throw badField("locked", true, "the pod is locked, which disables resetting it: unlock it (locked: false) first");
  }
  if (input.containerRegistryAuthId && !account.containerRegistryAuths.has(input.containerRegistryAuthId)) {
    throw badField(
      "containerRegistryAuthId",
      input.containerRegistryAuthId,
      "is not a container registry auth of this account",
    );
  }
  const view = v1ViewOf(pod);
  if (input.name !== undefined) view.name = input.name;
  if (input.locked !== undefined) view.locked = input.locked;
  if (input.imageName !== undefined) view.imageName = input.imageName;
  if (input.env !== undefined) view.env = input.env;
  if (input.ports !== undefined) view.ports = input.ports;
  if (input.containerDiskInGb != null) view.containerDiskInGb = input.containerDiskInGb;
  if (input.volumeInGb != null && view.networkVolumeId === undefined) view.volumeInGb = input.volumeInGb;
  if (input.volumeMountPath !== undefined) view.volumeMountPath = input.volumeMountPath;
  if (input.dockerEntrypoint !== undefined) view.dockerEntrypoint = input.dockerEntrypoint;
  if (input.dockerStartCmd !== undefined) view.dockerStartCmd = input.dockerStartCmd;
  if (input.globalNetworking !== undefined) view.globalNetworking = input.globalNetworking;
  if (input.containerRegistryAuthId !== undefined) {
    if (input.containerRegistryAuthId === "") delete view.containerRegistryAuthId;
    else view.containerRegistryAuthId = input.containerRegistryAuthId;
  }
  replaceRecord(pod, recordOfV1View(view));
  if (resets) wipeContainer(account, pod, "Reset by update");
}

/** A template a v2 request names: one of the account's, not a serverless one (404 and 422 as the OpenAPI says). */
export function podTemplateV2(account: PodAccount, id: string) {
  const template = account.templates.get(id);
  if (!template) throw notFound(`template ${id} not found`);
  if (template.serverless)
    throw unprocessableField("templateId", id, "is a serverless template; a pod needs a pod template");
  return template;
}

/**
 * Applies a v2 `PATCH`: `name` and `locked` in place, `globalNetworking` kept for the next start,
 * any container field (image, args, disk, env, ports, registry, mounts, a template's settings)
 * replaces the container, its disk wiped. Mount rules of OpenAPI v2 `Mounts` (400s).
 */
export function patchPodV2(account: PodAccount, pod: PodRecord, body: V2.UpdatePodRequest): void {
  const template = body.templateId === undefined ? undefined : podTemplateV2(account, body.templateId);
  const image = body.image ?? template?.image;
  const env = body.env !== undefined || template?.env ? { ...(template?.env ?? {}), ...(body.env ?? {}) } : undefined;
  const ports = body.ports ?? template?.ports;
  const disk = body.disk ?? template?.disk;
  const registry = body.registry !== undefined ? body.registry : template?.registry;
  if (registry && !account.containerRegistryAuths.has(registry)) {
    throw badField("registry", registry, "is not a container registry credential of this account");
  }
  if (body.mounts) checkMounts(pod, body.mounts);
  if (body.name !== undefined) pod.name = body.name;
  if (body.locked !== undefined) pod.locked = body.locked;
  if (body.globalNetworking !== undefined) pod.globalNetworking = { enabled: body.globalNetworking };
  let container = false;
  const set = <K extends keyof PodRecord>(key: K, value: PodRecord[K] | undefined) => {
    if (value === undefined) return;
    pod[key] = value;
    container = true;
  };
  set("image", image);
  // PATCH semantics: an env replaces the pod's env whole (an injected PUBLIC_KEY not sent back is gone).
  set("env", env);
  set("ports", ports);
  set("disk", disk);
  if (body.args !== undefined) set("args", podArgs(body.args));
  set("registry", registry);
  const persistent = body.mounts?.persistent;
  const network = body.mounts?.network?.[0];
  if (persistent) set("mounts", { persistent: { size: persistent.size, path: persistent.path } });
  if (network) set("mounts", { network: [{ volumeId: network.volumeId, path: network.path }] });
  if (container) wipeContainer(account, pod, "Container updated");
}

/**
 * v2's `args` as the pod keeps and answers them: read as words, as v1's `dockerStartCmd` reads
 * them, and written back (`"a  b"` is `"a b"`), so both versions read one command line.
 */
export function podArgs(args: string): string {
  return startCommandToArgs(argsToStartCommand(args));
}

/** OpenAPI v2 `Mounts` PATCH rules: the kind is fixed at creation, a volume id immutable, no clearing. */
function checkMounts(pod: PodRecord, mounts: V2.Mounts): void {
  if (mounts.network !== undefined && mounts.network.length === 0) {
    throw badField("mounts.network", [], "cannot be emptied: clearing mounts is not supported");
  }
  const network = mounts.network?.[0];
  const volumeId = pod.mounts.network?.[0]?.volumeId;
  if (network && volumeId === undefined) {
    throw badField(
      "mounts.network",
      network,
      "the pod was created without a network volume; the mount kind is fixed at creation",
    );
  }
  if (network && network.volumeId !== volumeId) {
    throw badField("mounts.network.0.volumeId", network.volumeId, `is immutable: the pod mounts ${volumeId}`);
  }
  if (mounts.persistent && pod.mounts.persistent === undefined) {
    throw badField(
      "mounts.persistent",
      mounts.persistent,
      "the pod was created without a persistent mount; the mount kind is fixed at creation",
    );
  }
}

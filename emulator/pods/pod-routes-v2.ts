import type { FastifyInstance, FastifyRequest } from "fastify";
import * as V2 from "../../sdk/schemas/v2";
import { argsToStartCommand, dateTime } from "../../sdk/schemas";
import { booleanParam, enumList, type RawQuery, wholeNumber } from "../management/v2/catalog-query";
import type { ServerContext } from "../server/server-context";
import { badField, notFound, unprocessableField } from "../server/http-errors";
import type { Account } from "../store/account";
import { createPod } from "./pod-create";
import { endPod, restartPod, startPod, stopPod, wipeContainer } from "./pod-lifecycle";
import { renderEventStream, selectLogLines } from "./pod-logs";
import { podActions, type PodRecord } from "./pod-record";
import { renderPodV2 } from "./pod-render";
import { specFromV2 } from "./pod-spec";
import { conflict, parseV2Body } from "./v2-request";

type IdParams = { Params: { id: string } };

function podOf(account: Account, id: string): PodRecord {
  const pod = account.pods.get(id);
  if (!pod) throw notFound(`pod ${id} not found`);
  return pod;
}

/** OpenAPI v2: cluster members "cannot be modified or deleted via the pod endpoints" (409). */
function standalone(pod: PodRecord): PodRecord {
  if (pod.clusterId !== undefined) {
    throw conflict(
      `pod ${pod.id} belongs to cluster ${pod.clusterId}: manage it through /v2/clusters/${pod.clusterId}`,
    );
  }
  return pod;
}

/** A template a v2 request names: one of the account's, not a serverless one (404 and 422 as the OpenAPI says). */
function podTemplate(account: Account, id: string) {
  const template = account.templates.get(id);
  if (!template) throw notFound(`template ${id} not found`);
  if (template.isServerless)
    throw unprocessableField("templateId", id, "is a serverless template; a pod needs a pod template");
  return template;
}

/**
 * Applies a v2 `PATCH`: `name` and `locked` in place, `globalNetworking` kept for the next start,
 * any container field (image, args, disk, env, ports, registry, mounts, a template's settings)
 * replaces the container, its disk wiped. Mount rules of OpenAPI v2 `Mounts` (400s).
 */
function applyPatch(account: Account, pod: PodRecord, body: V2.UpdatePodRequest): void {
  const template = body.templateId === undefined ? undefined : podTemplate(account, body.templateId);
  const image = body.image ?? template?.imageName;
  const env = body.env !== undefined || template?.env ? { ...(template?.env ?? {}), ...(body.env ?? {}) } : undefined;
  const ports = body.ports ?? template?.ports;
  const disk = body.disk ?? template?.containerDiskInGb;
  const registry = body.registry !== undefined ? body.registry : template?.containerRegistryAuthId;
  if (registry && !account.containerRegistryAuths.has(registry)) {
    throw badField("registry", registry, "is not a container registry credential of this account");
  }
  if (body.mounts) checkMounts(pod, body.mounts);
  if (body.name !== undefined) pod.name = body.name;
  if (body.locked !== undefined) pod.locked = body.locked;
  if (body.globalNetworking !== undefined) pod.globalNetworking = body.globalNetworking;
  let container = false;
  const set = <K extends keyof PodRecord>(key: K, value: PodRecord[K] | undefined) => {
    if (value === undefined) return;
    pod[key] = value;
    container = true;
  };
  set("imageName", image);
  // PATCH semantics: an env replaces the pod's env whole (an injected PUBLIC_KEY not sent back is gone).
  set("env", env);
  set("ports", ports);
  set("containerDiskInGb", disk);
  if (body.args !== undefined) set("dockerStartCmd", argsToStartCommand(body.args));
  if (registry !== undefined) {
    if (registry === null) delete pod.containerRegistryAuthId;
    else pod.containerRegistryAuthId = registry;
    container = true;
  }
  const persistent = body.mounts?.persistent;
  const network = body.mounts?.network?.[0];
  if (persistent) {
    set("volumeInGb", persistent.size);
    set("volumeMountPath", persistent.path);
  }
  if (network) set("volumeMountPath", network.path);
  if (container) wipeContainer(account, pod, "Container updated");
}

/** OpenAPI v2 `Mounts` PATCH rules: the kind is fixed at creation, a volume id immutable, no clearing. */
function checkMounts(pod: PodRecord, mounts: V2.Mounts): void {
  if (mounts.network !== undefined && mounts.network.length === 0) {
    throw badField("mounts.network", [], "cannot be emptied: clearing mounts is not supported");
  }
  const network = mounts.network?.[0];
  if (network && pod.networkVolumeId === undefined) {
    throw badField(
      "mounts.network",
      network,
      "the pod was created without a network volume; the mount kind is fixed at creation",
    );
  }
  if (network && network.volumeId !== pod.networkVolumeId) {
    throw badField(
      "mounts.network.0.volumeId",
      network.volumeId,
      `is immutable: the pod mounts ${pod.networkVolumeId}`,
    );
  }
  if (mounts.persistent && (pod.networkVolumeId !== undefined || pod.volumeInGb === 0)) {
    throw badField(
      "mounts.persistent",
      mounts.persistent,
      "the pod was created without a persistent mount; the mount kind is fixed at creation",
    );
  }
}

/**
 * Management v2 routes of pods (`/v2/pods`, OpenAPI v2 tag "Pods"), over the same records as
 * v1's: create (201; one named GPU type or CPU flavor, no fallback), list (cluster members with
 * `includeClusterPods=true`), read, `PATCH`, `action` (start, stop, restart: 200 with the pod;
 * terminate: 204; an action the pod's `actions` do not list now: 409), delete (204), logs (SSE).
 */
export function registerPodRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const render = (account: Account, pod: PodRecord) => renderPodV2(pod, account.meter.now(), ctx.catalog);

  app.post("/v2/pods", async (req, reply) => {
    const body = parseV2Body(V2.CreatePodRequestSchema, req.body);
    if (body.templateId !== undefined) podTemplate(req.account, body.templateId);
    const pod = createPod(req.account, ctx, specFromV2(body));
    await req.account.pods.put(pod);
    return reply.code(201).send(render(req.account, pod));
  });

  app.get("/v2/pods", async (req) => {
    const withMembers = booleanParam(req.query as RawQuery, "includeClusterPods") ?? false;
    const pods = [...req.account.pods.values()].filter((p) => withMembers || p.clusterId === undefined);
    return { pods: pods.map((p) => render(req.account, p)) };
  });

  app.get<IdParams>("/v2/pods/:id", async (req) => render(req.account, podOf(req.account, req.params.id)));

  app.patch<IdParams>("/v2/pods/:id", async (req: FastifyRequest<IdParams>) => {
    const pod = standalone(podOf(req.account, req.params.id));
    const body = parseV2Body(V2.UpdatePodRequestSchema, req.body);
    applyPatch(req.account, pod, body);
    await req.account.pods.put(pod);
    return render(req.account, pod);
  });

  app.post<IdParams>("/v2/pods/:id/action", async (req, reply) => {
    const pod = podOf(req.account, req.params.id);
    const { action } = parseV2Body(V2.PodActionRequestSchema, req.body);
    standalone(pod);
    if (!podActions(pod).includes(action)) {
      const why =
        action === "stop" && pod.locked ? "the pod is locked, which disables stopping it" : `the pod is ${pod.status}`;
      throw conflict(`action ${action} is not valid now: ${why} (valid now: ${podActions(pod).join(", ")})`);
    }
    const account = req.account;
    if (action === "terminate") {
      endPod(account, pod);
      await account.pods.delete(pod.id);
      return reply.code(204).send();
    }
    if (action === "start" && !startPod(account, pod)) {
      throw badField(
        "action",
        action,
        `there are no instances currently available: the pod's machine in ${pod.placement.dataCenterId} has not enough free units`,
      );
    }
    if (action === "stop") stopPod(account, pod, "user");
    if (action === "restart") restartPod(account, pod);
    await account.pods.put(pod);
    return render(account, pod);
  });

  app.delete<IdParams>("/v2/pods/:id", async (req, reply) => {
    const pod = standalone(podOf(req.account, req.params.id));
    endPod(req.account, pod);
    await req.account.pods.delete(pod.id);
    return reply.code(204).send();
  });

  app.get<IdParams>("/v2/pods/:id/logs", async (req, reply) => {
    const pod = podOf(req.account, req.params.id);
    const q = req.query as RawQuery;
    const [source] = enumList(q, "source", V2.LOG_SOURCES) ?? [];
    const tail = wholeNumber(q, "tail", 0);
    if (tail !== undefined && tail > 5000) throw badField("tail", tail, "must be at most 5000");
    if (q.since !== undefined && !dateTime.safeParse(q.since).success) {
      throw unprocessableField("since", q.since, 'must be an RFC 3339 date-time, such as "2026-06-01T12:00:00Z"');
    }
    const lastEventId = req.headers["last-event-id"];
    const lines = selectLogLines(pod.logs, {
      source,
      tail,
      since: q.since === undefined ? undefined : Date.parse(q.since),
      lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
    });
    return reply
      .header("content-type", "text/event-stream; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("x-accel-buffering", "no")
      .send(renderEventStream(lines));
  });
}

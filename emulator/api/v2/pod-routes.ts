import type { FastifyInstance, FastifyRequest } from "fastify";
import { dateTime } from "../../../sdk/schemas";
import * as V2 from "../../../sdk/schemas/v2";
import { createPod } from "../../pods/pod-create";
import { endPod, restartPod, startPod, stopPod } from "../../pods/pod-lifecycle";
import { renderEventStream, selectLogLines } from "../../pods/pod-logs";
import { podActions, type PodRecord } from "../../pods/pod-record";
import { renderPodV2 } from "../../pods/pod-render";
import { specFromV2 } from "../../pods/pod-spec";
import { patchPodV2, podTemplateV2 } from "../../pods/pod-update";
import { badField, notFound, unprocessableField } from "../../errors/http-errors";
import { booleanParam, enumList, type RawQuery, single, wholeNumber } from "../../server/query-params";
import type { ServerContext } from "../../server/server-context";
import { positionIn } from "../../server/list-pages";
import type { Account } from "../../store/account";
import { conflict, parseV2Body } from "./request-body";

type IdParams = { Params: { id: string } };

function podOf(account: Account, id: string): PodRecord {
  const pod = account.pods.get(id);
  if (!pod) throw notFound(`pod ${id} not found`);
  return pod;
}

/** OpenAPI v2: cluster members "cannot be modified or deleted via the pod endpoints" (409). */
function standalone(pod: PodRecord): PodRecord {
  if (pod.cluster !== undefined) {
    const { id } = pod.cluster;
    throw conflict(`pod ${pod.id} belongs to cluster ${id}: manage it through /v2/clusters/${id}`);
  }
  return pod;
}

/**
 * Management v2 routes of pods (`/v2/pods`, OpenAPI v2 tag "Pods"), over the same records as
 * v1's: create (201; one named GPU type or CPU flavor, no fallback), list (cluster members with
 * `includeClusterPods=true`), read, `PATCH`, `action` (start, stop, restart: 200 with the pod;
 * terminate: 204; an action the pod's `actions` do not list now: 409), delete (204), logs (SSE).
 */
export function registerPodRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const render = (account: Account, pod: PodRecord) =>
    renderPodV2(pod, account.meter.now(), pod.cluster && account.clusters.get(pod.cluster.id)?.type);

  app.post("/pods", async (req, reply) => {
    const body = parseV2Body(V2.CreatePodRequestSchema, req.body);
    if (body.templateId !== undefined) podTemplateV2(req.account, body.templateId);
    const pod = createPod(req.account, ctx, specFromV2(body));
    await req.account.pods.put(pod);
    return reply.code(201).send(render(req.account, pod));
  });

  app.get("/pods", async (req) => {
    const withMembers = booleanParam(req.query as RawQuery, "includeClusterPods") ?? false;
    const pods = [...req.account.pods.values()].filter((p) => withMembers || p.cluster === undefined);
    return ctx.pages.answer(req, "pods", pods, positionIn(req.account.pods), (p) => render(req.account, p));
  });

  app.get<IdParams>("/pods/:id", async (req) => render(req.account, podOf(req.account, req.params.id)));

  app.patch<IdParams>("/pods/:id", async (req: FastifyRequest<IdParams>) => {
    const pod = standalone(podOf(req.account, req.params.id));
    const body = parseV2Body(V2.UpdatePodRequestSchema, req.body);
    patchPodV2(req.account, pod, body);
    await req.account.pods.put(pod);
    return render(req.account, pod);
  });

  app.post<IdParams>("/pods/:id/action", async (req, reply) => {
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
        `there are no instances currently available: the pod's machine in ${pod.dataCenterId} has not enough free units`,
      );
    }
    if (action === "stop") stopPod(account, pod, "user");
    if (action === "restart") restartPod(account, pod);
    await account.pods.put(pod);
    return render(account, pod);
  });

  app.delete<IdParams>("/pods/:id", async (req, reply) => {
    const pod = standalone(podOf(req.account, req.params.id));
    endPod(req.account, pod);
    await req.account.pods.delete(pod.id);
    return reply.code(204).send();
  });

  app.get<IdParams>("/pods/:id/logs", async (req, reply) => {
    const pod = podOf(req.account, req.params.id);
    const q = req.query as RawQuery;
    const [source] = enumList(q, "source", V2.LOG_SOURCES) ?? [];
    const tail = wholeNumber(q, "tail", 0);
    if (tail !== undefined && tail > 5000) throw badField("tail", tail, "must be at most 5000");
    const since = single(q, "since");
    if (since !== undefined && !dateTime.safeParse(since).success) {
      throw unprocessableField("since", since, 'must be an RFC 3339 date-time, such as "2026-06-01T12:00:00Z"');
    }
    const lastEventId = req.headers["last-event-id"];
    const lines = selectLogLines(pod.logs, {
      source,
      tail,
      since: since === undefined ? undefined : Date.parse(since),
      lastEventId: typeof lastEventId === "string" ? lastEventId : undefined,
    });
    return reply
      .header("content-type", "text/event-stream; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("x-accel-buffering", "no")
      .send(renderEventStream(lines));
  });
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import { PodCreateBodyV1Schema, PodUpdateInputSchema, versionFieldProblems } from "../../../sdk/schemas";
import { createPod } from "../../pods/pod-create";
import { endPod, restartPod, startPod, stopPod, wipeContainer } from "../../pods/pod-lifecycle";
import type { PodRecord } from "../../pods/pod-record";
import { renderPodV1 } from "../../pods/pod-render";
import { specFromV1 } from "../../pods/pod-spec";
import { v1ViewOf } from "../../pods/pod-v1-view";
import { updatePodV1 } from "../../pods/pod-update";
import { badField, badRequest, notFound, parseOr400 } from "../../errors/http-errors";
import { booleanParam, list, type RawQuery, single } from "../../server/query-params";
import type { ServerContext } from "../../server/server-context";
import type { Account } from "../../store/account";

type IdParams = { Params: { podId: string } };

/** A standalone pod of the account (v1 predates clusters: their members are v2's alone). */
function podOf(account: Account, id: string): PodRecord {
  const pod = account.pods.get(id);
  if (!pod || pod.cluster !== undefined) throw notFound(`pod ${id} not found`);
  return pod;
}

/** Whether a pod passes v1's list filters (OpenAPI v1 `GET /pods` parameters), read as v1 names the pod. */
function matches(record: PodRecord, q: RawQuery): boolean {
  const pod = v1ViewOf(record);
  const p = pod.placement;
  const inList = (name: string, value: string | undefined) => {
    const values = list(q, name);
    return !values?.length || (value !== undefined && values.includes(value));
  };
  const equal = (name: string, value: string | undefined) => {
    const wanted = single(q, name);
    return wanted === undefined || wanted === value;
  };
  return (
    equal("computeType", p.gpuTypeId !== undefined ? "GPU" : "CPU") &&
    inList("cpuFlavorId", p.cpuFlavorId) &&
    inList("dataCenterId", p.dataCenterId) &&
    equal("desiredStatus", pod.status) &&
    inList("gpuTypeId", p.gpuTypeId) &&
    equal("id", pod.id) &&
    equal("imageName", pod.imageName) &&
    equal("name", pod.name) &&
    equal("networkVolumeId", pod.networkVolumeId) &&
    equal("templateId", pod.templateId) &&
    // Serverless workers are not pods in the emulator: an endpoint filter matches none.
    q.endpointId === undefined
  );
}

/**
 * Management v1 routes of pods (OpenAPI v1 tag "pods"): create (201), list with the OpenAPI's
 * filters, read with `include*` flags, `PATCH` (in place for name and locked; any other field of
 * `PodUpdateInput` resets), `POST .../update` (the reset update), start, stop, restart, reset,
 * delete (204). A locked pod refuses stop and reset (400).
 */
export function registerPodRoutesV1(app: FastifyInstance, ctx: ServerContext): void {
  const render = (req: FastifyRequest, pod: PodRecord) => {
    const q = req.query as RawQuery;
    return renderPodV1(pod, req.account, ctx.catalog, {
      machine: booleanParam(q, "includeMachine"),
      networkVolume: booleanParam(q, "includeNetworkVolume"),
      savingsPlans: booleanParam(q, "includeSavingsPlans"),
    });
  };

  app.post("/pods", async (req, reply) => {
    const input = parseOr400(PodCreateBodyV1Schema, req.body ?? {});
    const problems = versionFieldProblems("pod", "v1", input);
    if (problems.length) throw badRequest(problems);
    if (input.templateId !== undefined && !req.account.templates.has(input.templateId)) {
      throw badField("templateId", input.templateId, "is not a template of this account");
    }
    if (input.templateId !== undefined && req.account.templates.get(input.templateId)?.serverless) {
      throw badField("templateId", input.templateId, "is a serverless template; a pod needs a pod template");
    }
    const pod = createPod(req.account, ctx, specFromV1(input));
    await req.account.pods.put(pod);
    return reply.code(201).send(render(req, pod));
  });

  app.get("/pods", async (req) => {
    const q = req.query as RawQuery;
    return [...req.account.pods.values()]
      .filter((p) => p.cluster === undefined && matches(p, q))
      .map((p) => render(req, p));
  });

  app.get<IdParams>("/pods/:podId", async (req) => render(req, podOf(req.account, req.params.podId)));

  const update = (alwaysReset: boolean) => async (req: FastifyRequest<IdParams>) => {
    const pod = podOf(req.account, req.params.podId);
    const input = parseOr400(PodUpdateInputSchema, req.body ?? {});
    updatePodV1(req.account, pod, input, alwaysReset);
    await req.account.pods.put(pod);
    return render(req, pod);
  };
  app.patch<IdParams>("/pods/:podId", update(false));
  // OpenAPI v1 PodUpdateInput: "Input for updating a Pod which will trigger a reset".
  app.post<IdParams>("/pods/:podId/update", update(true));

  app.post<IdParams>("/pods/:podId/start", async (req) => {
    const pod = podOf(req.account, req.params.podId);
    if (!startPod(req.account, pod)) {
      const what = pod.gpu ? `${pod.gpu.count} GPUs of ${pod.gpu.id}` : `${pod.cpu?.vcpuCount} vCPUs of ${pod.cpu?.id}`;
      throw badField(
        "podId",
        pod.id,
        `there are no instances currently available: the pod's machine in ${pod.dataCenterId} has not ${what} free`,
      );
    }
    await req.account.pods.put(pod);
    return render(req, pod);
  });

  app.post<IdParams>("/pods/:podId/stop", async (req) => {
    const pod = podOf(req.account, req.params.podId);
    if (pod.locked && pod.status === "RUNNING") {
      throw badField("locked", true, "the pod is locked, which disables stopping it: unlock it (locked: false) first");
    }
    stopPod(req.account, pod, "user");
    await req.account.pods.put(pod);
    return render(req, pod);
  });

  app.post<IdParams>("/pods/:podId/restart", async (req) => {
    const pod = podOf(req.account, req.params.podId);
    if (pod.status !== "RUNNING") throw badField("podId", pod.id, "the pod is not running: start it instead");
    restartPod(req.account, pod);
    await req.account.pods.put(pod);
    return render(req, pod);
  });

  app.post<IdParams>("/pods/:podId/reset", async (req) => {
    const pod = podOf(req.account, req.params.podId);
    if (pod.locked)
      throw badField("locked", true, "the pod is locked, which disables resetting it: unlock it (locked: false) first");
    wipeContainer(req.account, pod, "Reset by User");
    await req.account.pods.put(pod);
    return render(req, pod);
  });

  app.delete<IdParams>("/pods/:podId", async (req, reply) => {
    const pod = podOf(req.account, req.params.podId);
    endPod(req.account, pod);
    await req.account.pods.delete(pod.id);
    return reply.code(204).send();
  });
}

import type { FastifyInstance } from "fastify";
import { preempt } from "../../pods/preemption";
import { renderPodV1 } from "../../pods/pod-render";
import { isInterruptible } from "../../pods/pod-record";
import type { ServerContext } from "../../server/server-context";
import { badField, notFound } from "../../errors/http-errors";

/**
 * `POST /_emulator/pods/{id}/preempt`: preempts a running interruptible pod of the caller's
 * account now, as the platform may at any time, and answers the pod in v1's form. Preemption by
 * chance (`--preemption-rate`) is `pods/preemption.ts`.
 */
export function registerPreemptionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { id: string } }>("/pods/:id/preempt", { config: { admin: true } }, async (req) => {
    const pod = req.account.pods.get(req.params.id);
    if (!pod) throw notFound(`pod ${req.params.id} not found`);
    if (!isInterruptible(pod))
      throw badField("id", pod.id, "is not an interruptible pod: only interruptible pods are preempted");
    if (pod.status !== "RUNNING") throw badField("id", pod.id, "is not running");
    await preempt(req.account, pod);
    return renderPodV1(pod, req.account, ctx.catalog);
  });
}

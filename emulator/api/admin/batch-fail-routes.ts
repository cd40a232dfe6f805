import type { FastifyInstance } from "fastify";
import { BatchRefusal } from "../../jobs/batch-runtime";
import { renderBatch } from "../../jobs/batch";
import { HttpError, notFound } from "../../errors/http-errors";
import type { ServerContext } from "../../server/server-context";

type FailParams = { Params: { endpointId: string; batchId: string }; Body: { reason?: unknown } | undefined };

/**
 * `POST /_emulator/endpoints/{endpointId}/batches/{batchId}/fail`: fails an active batch of the
 * caller's account as a whole, as a failure on the platform's side would (its state FAILED; its
 * queued requests FAILED with `reason`, the running ones finish), and answers its summary. The
 * platform's batches fail as a whole only for reasons of its own, which nothing else here causes.
 */
export function registerBatchFailRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<FailParams>("/endpoints/:endpointId/batches/:batchId/fail", { config: { admin: true } }, (req) => {
    const runtime = req.account.runtime(req.params.endpointId);
    if (!runtime) throw notFound(`endpoint ${req.params.endpointId} not found`);
    const reason = typeof req.body?.reason === "string" ? req.body.reason : "the batch failed (injected)";
    try {
      return renderBatch(runtime.batches.fail(req.params.batchId, reason), ctx.scheduler.clock.epochOrigin);
    } catch (error) {
      if (error instanceof BatchRefusal)
        throw new HttpError(error.status, { error: error.code, message: error.message });
      throw error;
    }
  });
}

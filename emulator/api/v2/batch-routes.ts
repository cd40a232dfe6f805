import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { BatchAppendBodySchema, BatchCreateBodySchema, LIMITS } from "../../../sdk/schemas";
import { type BatchRecord, page, renderBatch, renderChild } from "../../jobs/batch";
import { BatchRefusal, type BatchRuntime } from "../../jobs/batch-runtime";
import { HttpError, parseOr400 } from "../../errors/http-errors";
import { type RawQuery, wholeNumber } from "../../server/query-params";
import type { ServerContext } from "../../server/server-context";
import type { Account } from "../../store/account";
import { queueRuntimeOf } from "./queue-endpoint";

type EndpointParams = { Params: { endpointId: string }; Querystring: RawQuery };
type BatchParams = { Params: { endpointId: string; batchId: string }; Querystring: RawQuery };
type RequestParams = { Params: { endpointId: string; batchId: string; requestId: string } };

/** The child-request page's default size (the platform's example) and the emulator's largest. */
const PAGE = { default: 50, max: 1000 };

/** What an update may set: the platform documents no body; the emulator takes a display `name`. */
const UpdateBodySchema = z
  .object({ name: z.string().min(1, "must not be empty").max(191, "must be at most 191 characters").optional() })
  .strict();

/** The body limit of create and append, as its 413 says it. */
const BODY = { bodyLimit: LIMITS.batchAppendBytes, config: { bodyLimitLabel: "10 MiB, the limit of a batch append" } };

/**
 * Batch jobs of a queue-based endpoint (docs/platform.md "Batch jobs"): the nine operations under
 * `/v2/<endpoint_id>/batch`, with the `{ error, message }` bodies of the job API. The platform's
 * rate-limit table has no row for them, so they are not rate limited.
 */
export function registerBatchRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const epoch = () => ctx.scheduler.clock.epochOrigin;
  const summary = (batch: BatchRecord) => renderBatch(batch, epoch());
  const ack = (batch: BatchRecord) => ({ id: batch.id, status: batch.status });
  /** Runs a batch operation on the endpoint's runtime; a refusal becomes its answer. */
  const on = <T>(account: Account, endpointId: string, act: (b: BatchRuntime) => T): T => {
    try {
      return act(queueRuntimeOf(account, endpointId, ctx.origin()).batches);
    } catch (error) {
      if (!(error instanceof BatchRefusal)) throw error;
      throw new HttpError(error.status, { error: error.code, message: error.message });
    }
  };

  // Create, with or without requests: a top-level array (`[]`, or no body, makes an empty DRAFT).
  app.post<EndpointParams>("/:endpointId/batch", BODY, (req) => {
    const requests = req.body === undefined ? [] : parseOr400(BatchCreateBodySchema, req.body);
    return ack(on(req.account, req.params.endpointId, (b) => b.create(requests)));
  });

  // Newest first, a page at a time (`{ batches, total, offset, limit, hasMore }`: the emulator's shape).
  app.get<EndpointParams>("/:endpointId/batch", (req) => {
    const batches = on(req.account, req.params.endpointId, (b) => b.list());
    const { offset, limit } = paging(req.query);
    return page("batches", batches, offset, limit, summary);
  });

  app.get<BatchParams>("/:endpointId/batch/:batchId", (req) =>
    summary(on(req.account, req.params.endpointId, (b) => b.get(req.params.batchId))),
  );

  app.put<BatchParams>("/:endpointId/batch/:batchId", (req) => {
    const body = parseOr400(UpdateBodySchema, req.body ?? {});
    return summary(
      on(req.account, req.params.endpointId, (b) =>
        body.name === undefined ? b.get(req.params.batchId) : b.rename(req.params.batchId, body.name),
      ),
    );
  });

  app.post<BatchParams>("/:endpointId/batch/:batchId/requests", BODY, (req) => {
    const { requests } = parseOr400(BatchAppendBodySchema, req.body);
    const batch = on(req.account, req.params.endpointId, (b) => b.append(req.params.batchId, requests));
    return { ...ack(batch), requestTotal: batch.children.length };
  });

  app.get<BatchParams>("/:endpointId/batch/:batchId/requests", (req) => {
    const batch = on(req.account, req.params.endpointId, (b) => b.get(req.params.batchId));
    const { offset, limit } = paging(req.query);
    return page("requests", batch.children, offset, limit, (child) => renderChild(child, epoch()));
  });

  app.delete<RequestParams>("/:endpointId/batch/:batchId/requests/:requestId", (req, reply) => {
    on(req.account, req.params.endpointId, (b) => b.remove(req.params.batchId, req.params.requestId));
    reply.code(204).send();
  });

  app.post<BatchParams>("/:endpointId/batch/:batchId/finalize", (req) =>
    ack(on(req.account, req.params.endpointId, (b) => b.finalize(req.params.batchId))),
  );

  app.post<BatchParams>("/:endpointId/batch/:batchId/cancel", (req) =>
    ack(on(req.account, req.params.endpointId, (b) => b.cancel(req.params.batchId))),
  );
}

/** `offset` (from 0) and `limit` (default 50, at most 1000 here: larger is answered as 1000). */
function paging(query: RawQuery): { offset: number; limit: number } {
  const offset = wholeNumber(query, "offset", 0) ?? 0;
  const limit = Math.min(wholeNumber(query, "limit", 1) ?? PAGE.default, PAGE.max);
  return { offset, limit };
}

import { PassThrough } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { JOB_DEFAULTS, LIMITS } from "../../../sdk/schemas";
import type { EndpointRuntime } from "../../jobs/endpoint-runtime";
import type { Job } from "../../jobs/job";
import { isTerminal } from "../../jobs/job-state-machine";
import {
  errorStatusOf,
  holdsDone,
  openAiErrorBody,
  piecesOf,
  SSE_DONE,
  sseText,
  unfinishedAnswer,
  wholeAnswer,
} from "../../jobs/openai-wire";
import { hasStreamNews, takeStreamChunks } from "../../jobs/stream-chunks";
import type { ServerContext } from "../../server/server-context";
import { queueRuntimeOf } from "./queue-endpoint";

type OpenAiParams = { Params: { endpointId: string; "*": string } };

const JSON_TYPE = "application/json; charset=utf-8";

/** One call's job, and how to wait on it: until it ends, or until its TTL removes it. */
class CallJob {
  constructor(
    readonly runtime: EndpointRuntime,
    readonly job: Job,
    private readonly now: () => number,
  ) {}

  /** Removed by the runtime (TTL, purge) before the call read its end. */
  get gone(): boolean {
    return this.runtime.jobs.get(this.job.id) !== this.job;
  }

  get ended(): boolean {
    return isTerminal(this.job.status) || this.gone;
  }

  /** Waits for `done`, at most until the TTL, which ends every job (platform ms). */
  wait(done: (job: Job) => boolean): Promise<void> {
    return this.runtime.waitFor(this.job, Math.max(1, this.job.ttlAt - this.now()), done);
  }

  /** The pieces the handler yields, as it yields them, until the job ends. */
  async *pieces(): AsyncGenerator<unknown, void, undefined> {
    for (;;) {
      if (!hasStreamNews(this.job) && !this.gone) await this.wait(hasStreamNews);
      const ended = this.ended;
      for (const chunk of takeStreamChunks(this.job)) yield* piecesOf(chunk.output);
      if (ended) return;
    }
  }

  /** The answer of a job that did not complete (or was removed first). */
  unfinished() {
    const { job } = this;
    const status = isTerminal(job.status) ? job.status : this.now() >= job.ttlAt ? "expired" : "purged";
    return unfinishedAnswer(job.id, status, job.error);
  }
}

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .header("content-type", JSON_TYPE)
    .send(JSON.stringify(body ?? null));
}

/** A call without `stream`: the handler's OpenAI object once the job ends, with the status an error object asks for. */
async function answerWhole(call: CallJob, reply: FastifyReply): Promise<FastifyReply> {
  await call.wait(isTerminalJob);
  if (call.job.status !== "COMPLETED") {
    const { status, body } = call.unfinished();
    return sendJson(reply, status, body);
  }
  const answer = wholeAnswer(call.job.output);
  return sendJson(reply, errorStatusOf(answer) ?? 200, answer);
}

/**
 * A call with `stream: true`: Server-Sent Events written as the handler yields. The first piece
 * decides the status: an OpenAI error object (an unknown model, a bad field) is answered as JSON
 * with its status, as vLLM answers before it streams; so is a job that ends without a piece. A
 * job that fails after the stream began ends it with an error event (the `openai` client throws
 * it as an `APIError`); otherwise the stream ends with `data: [DONE]`.
 */
async function answerStream(call: CallJob, reply: FastifyReply): Promise<FastifyReply> {
  const pieces = call.pieces();
  const first = await pieces.next();
  if (first.done && call.job.status !== "COMPLETED") {
    const { status, body } = call.unfinished();
    return sendJson(reply, status, body);
  }
  const status = first.done ? undefined : errorStatusOf(first.value);
  if (status !== undefined) {
    void pieces.return();
    return sendJson(reply, status, first.value);
  }
  const stream = new PassThrough();
  // A client that goes away destroys the stream; what the job still yields goes nowhere.
  stream.on("error", () => undefined);
  let done = false;
  const write = (piece: unknown) => {
    if (done || stream.destroyed) return; // the client ignores events after [DONE]
    const text = sseText(piece);
    done = holdsDone(text);
    stream.write(text);
  };
  if (!first.done) write(first.value);
  void (async () => {
    for await (const piece of pieces) write(piece);
    if (stream.destroyed) return;
    if (call.job.status !== "COMPLETED") {
      if (!done) stream.write(sseText(call.unfinished().body));
    } else if (!done) stream.write(SSE_DONE);
    stream.end();
  })().catch((error: unknown) => stream.destroy(error as Error));
  return reply
    .code(200)
    .header("content-type", "text/event-stream; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("x-accel-buffering", "no")
    .send(stream);
}

const isTerminalJob = (job: Job) => isTerminal(job.status);

/**
 * The OpenAI-compatible face of every queue-based endpoint, `/v2/<endpoint_id>/openai/v1/...`:
 * each call becomes a job of the endpoint whose input is
 * `{ openai_route: "/v1/chat/completions", openai_input: <the body> }` (a GET's `openai_input` is
 * `{}`). It waits in the queue, runs on a worker, counts in `/health` and bills like any job, and
 * the answer is the handler's OpenAI object (or its stream), not a job record. A client that
 * goes away before the answer cancels the job: nobody can read its result.
 */
export function registerOpenAiRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const serve = async (req: FastifyRequest<OpenAiParams>, reply: FastifyReply) => {
    const runtime = queueRuntimeOf(req.account, req.params.endpointId, ctx.origin());
    const body = req.method === "GET" ? {} : (req.body ?? {});
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      const message = "the request body must be a JSON object";
      return sendJson(reply, 400, openAiErrorBody(400, "BadRequestError", message));
    }
    const input = { openai_route: `/${req.params["*"]}`, openai_input: body };
    const job = runtime.submit({ input }, JOB_DEFAULTS.runSyncRetentionMs, "openai");
    const call = new CallJob(runtime, job, () => ctx.scheduler.now());
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished && !call.ended) runtime.cancel(job);
    });
    return (body as { stream?: unknown }).stream === true ? answerStream(call, reply) : answerWhole(call, reply);
  };
  const options = {
    bodyLimit: LIMITS.runSyncPayloadBytes,
    config: { op: "openai" as const, bodyLimitLabel: "20 MB, the limit of /runsync" },
  };
  app.post<OpenAiParams>("/:endpointId/openai/*", options, serve);
  app.get<OpenAiParams>("/:endpointId/openai/*", options, serve);
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  JOB_DEFAULTS,
  JobRequestSchema,
  LIMITS,
  RunSyncWaitSchema,
  renderValue,
  StatusTtlSchema,
} from "../../../sdk/schemas";
import type { ServerContext } from "../../server/server-context";
import { badField, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import type { EndpointRuntime } from "../../jobs/endpoint-runtime";
import type { Job } from "../../jobs/job";
import { renderJob } from "../../jobs/job";
import { isTerminal } from "../../jobs/job-state-machine";
import { hasStreamNews, takeStreamChunks } from "../../jobs/stream-chunks";
import { queueRuntimeOf } from "./queue-endpoint";

type EndpointParams = { Params: { endpointId: string } };
type JobParams = { Params: { endpointId: string; jobId: string } };

/**
 * How long `/stream` holds a request open waiting for a chunk (platform ms), a long poll. Well
 * under 10 s: runpod-python gives every request 10 s (`RunPodClient._request`'s default timeout in
 * https://github.com/runpod/runpod-python/blob/main/runpod/endpoint/runner.py), so a 10 s hold
 * raced its timeout and its `stream()` logged read timeouts and retried while a job had no chunk.
 */
export const STREAM_POLL_MS = 5_000;

const WaitQuery = z.object({ wait: RunSyncWaitSchema });
const TtlQuery = z.object({ ttl: StatusTtlSchema });
const WHOLE = /^\d{1,16}$/;

function jobOf(runtime: EndpointRuntime, jobId: string): Job {
  const job = runtime.jobs.get(jobId);
  if (!job) throw notFound(`job ${jobId} not found on endpoint ${runtime.endpointId} (unknown, expired or purged)`);
  return job;
}

/** A millisecond query parameter checked with its shared schema, or undefined when absent. */
function msQuery(raw: unknown, field: "wait" | "ttl"): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || !WHOLE.test(raw)) {
    throw badField(field, raw, `${field} must be a whole number of milliseconds`);
  }
  const value = Number(raw);
  if (field === "wait") return parseOr400(WaitQuery, { wait: value }).wait;
  return parseOr400(TtlQuery, { ttl: value }).ttl;
}

const done = (job: Job) => isTerminal(job.status);

/** The eight job operations of a queue-based endpoint (docs/platform.md "Queue-based endpoint operations"), plus `/status-sync`. */
export function registerJobRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const runtimeOf = (account: Account, endpointId: string) => queueRuntimeOf(account, endpointId, ctx.origin());

  // Rule 2: /run answers at once with the id; results come through /status (kept 30 minutes).
  app.post<EndpointParams>(
    "/:endpointId/run",
    { bodyLimit: LIMITS.runPayloadBytes, config: { op: "run", bodyLimitLabel: "10 MB, the limit of /run" } },
    (req, reply) => {
      const runtime = runtimeOf(req.account, req.params.endpointId);
      const job = runtime.submit(parseOr400(JobRequestSchema, req.body), JOB_DEFAULTS.runRetentionMs);
      reply.send({ id: job.id, status: "IN_QUEUE" });
    },
  );

  // Rule 1: /runsync waits up to `wait` (1000..300000 ms, default 90 s) and then answers the
  // record as it is; results are kept 1 minute, or 5 minutes when `wait` was given.
  app.post<EndpointParams & { Querystring: { wait?: string } }>(
    "/:endpointId/runsync",
    {
      bodyLimit: LIMITS.runSyncPayloadBytes,
      config: { op: "runsync", bodyLimitLabel: "20 MB, the limit of /runsync" },
    },
    async (req) => {
      const runtime = runtimeOf(req.account, req.params.endpointId);
      const wait = msQuery(req.query.wait, "wait");
      const request = parseOr400(JobRequestSchema, req.body);
      const retention = wait === undefined ? JOB_DEFAULTS.runSyncRetentionMs : JOB_DEFAULTS.runSyncWaitRetentionMs;
      const job = runtime.submit(request, retention, "runsync");
      await runtime.waitFor(job, wait ?? LIMITS.runSyncWaitMs.default, done);
      return renderJob(job);
    },
  );

  // Rule 3: `?ttl=` sets this job's time to live (from now).
  app.get<JobParams & { Querystring: { ttl?: string } }>(
    "/:endpointId/status/:jobId",
    { config: { op: "status" } },
    (req, reply) => {
      const runtime = runtimeOf(req.account, req.params.endpointId);
      const job = jobOf(runtime, req.params.jobId);
      const ttl = req.query.ttl === undefined ? undefined : msQuery(req.query.ttl, "ttl");
      if (ttl !== undefined) runtime.setTtl(job, ttl);
      reply.send(renderJob(job));
    },
  );

  // Not documented by the platform: the official JS SDK's runSync polls /status-sync/<id>?wait=, a /status that waits.
  app.get<JobParams & { Querystring: { wait?: string } }>(
    "/:endpointId/status-sync/:jobId",
    { config: { op: "status" } },
    async (req) => {
      const runtime = runtimeOf(req.account, req.params.endpointId);
      const job = jobOf(runtime, req.params.jobId);
      await runtime.waitFor(job, msQuery(req.query.wait, "wait") ?? LIMITS.runSyncWaitMs.default, done);
      return renderJob(job);
    },
  );

  // Rule 4: chunks produced since the last /stream call, as `{ status, stream }` (what the SDKs
  // read), or with `streamShape: "array"` as the bare array the platform's documentation shows.
  app.get<JobParams>("/:endpointId/stream/:jobId", { config: { op: "stream" } }, async (req) => {
    const runtime = runtimeOf(req.account, req.params.endpointId);
    const job = jobOf(runtime, req.params.jobId);
    if (!hasStreamNews(job)) await runtime.waitFor(job, STREAM_POLL_MS, hasStreamNews);
    const stream = takeStreamChunks(job);
    return ctx.streamShape === "array" ? stream : { status: job.status, stream };
  });

  // Rule 5. Cancelling a job that already ended changes nothing and answers its current status.
  app.post<JobParams>("/:endpointId/cancel/:jobId", { config: { op: "cancel" } }, (req, reply) => {
    const runtime = runtimeOf(req.account, req.params.endpointId);
    const job = jobOf(runtime, req.params.jobId);
    reply.send({ id: job.id, status: runtime.cancel(job) });
  });

  // Rules 1, 2 and 6 of the transitions: only FAILED or TIMED_OUT jobs, while their results are held.
  app.post<JobParams>("/:endpointId/retry/:jobId", (req, reply) => {
    const runtime = runtimeOf(req.account, req.params.endpointId);
    const job = jobOf(runtime, req.params.jobId);
    if (!runtime.retry(job)) {
      throw badField(
        "status",
        job.status,
        `only FAILED or TIMED_OUT jobs can be retried; job ${job.id} is ${renderValue(job.status)}`,
      );
    }
    // The platform's answer is IN_QUEUE, the state the retry puts the job in, even if a worker took it since.
    reply.send({ id: job.id, status: "IN_QUEUE" });
  });

  // Rule 7: removes pending jobs only.
  app.post<EndpointParams>("/:endpointId/purge-queue", { config: { op: "purge-queue" } }, (req, reply) => {
    const runtime = runtimeOf(req.account, req.params.endpointId);
    reply.send({ removed: runtime.purge(), status: "completed" });
  });

  // Rule 8.
  app.get<EndpointParams>("/:endpointId/health", (req, reply) => {
    reply.send(runtimeOf(req.account, req.params.endpointId).health());
  });
}

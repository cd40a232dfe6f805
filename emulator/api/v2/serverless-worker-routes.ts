import { PassThrough } from "node:stream";
import type { FastifyInstance } from "fastify";
import type * as V2 from "../../../sdk/schemas/v2";
import type { Worker } from "../../jobs/worker-pool";
import type { WorkerLogLine } from "../../jobs/worker-log";
import type { ServerContext } from "../../server/server-context";
import { notFound, unprocessableField } from "../../errors/http-errors";
import type { EndpointRecord } from "../../endpoints/endpoint-record";
import { releasesOf } from "../../endpoints/endpoint-releases";
import { containerOf, gpuTypesOf, poolSelectionOf } from "../../endpoints/endpoint-render";
import { endpointOfV2, linkedTemplate } from "./serverless-routes";

type IdParams = { Params: { id: string } };
type LogParams = { Params: { id: string; workerId: string }; Querystring: Record<string, string | undefined> };

const WHOLE = /^\d{1,5}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const SOURCES = ["container", "system"];

/** The configuration version workers started now run: the latest release's. */
function endpointVersion(r: EndpointRecord): number {
  return releasesOf(r).at(-1)!.version;
}

/**
 * Management v2 routes of what an endpoint runs (OpenAPI v2 `listEndpointWorkers`,
 * `listEndpointReleases`, `getWorkerLogs`): its workers (the emulator's simulated ones, of either
 * endpoint type), its releases (one per change of its container settings) and a worker's log as a
 * Server-Sent Events stream that follows the worker until it stops or the client goes.
 */
export function registerServerlessWorkerRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const iso = (t: number) => new Date(ctx.scheduler.clock.epochOrigin + t).toISOString();

  const renderWorker = (r: EndpointRecord, w: Worker, current: string | undefined): V2.Worker => {
    // A worker runs the image it started with; one still starting, the image of its version.
    const image = w.runs?.image ?? current;
    const gpu = r.cpu === undefined;
    const types = gpu ? (gpuTypesOf(r, ctx.catalog) ?? []) : [];
    const firstType =
      types[0] ??
      (gpu ? ctx.catalog.gpuTypes().find((e) => e.pool === poolSelectionOf(r, ctx.catalog).pools[0])?.id : undefined);
    return {
      id: w.id,
      status: w.status,
      isStale: w.version !== endpointVersion(r),
      version: w.version,
      gpuCount: gpu ? (r.gpu?.count ?? 1) : 0,
      image: image ?? null,
      uptimeSeconds: Math.max(0, Math.floor((ctx.scheduler.now() - w.startedAt) / 1000)),
      gpuTypeId: firstType ?? null,
      dataCenterId: r.dataCenterIds?.[0] ?? null,
      startedAt: iso(w.startedAt),
    };
  };

  app.get<IdParams>("/serverless/:id/workers", async (req) => {
    const r = endpointOfV2(req.account, req.params.id);
    const image = containerOf(r, linkedTemplate(req.account, r, ctx)).image;
    const workers = req.account.workersOf(r.id).map((w) => renderWorker(r, w, image));
    const running = workers.filter((w) => w.status === "RUNNING").length;
    const unhealthy = workers.filter((w) => w.status === "UNHEALTHY").length;
    const initializing = workers.filter((w) => w.status === "INITIALIZING").length;
    return {
      workers,
      summary: {
        running,
        idle: workers.length - running - unhealthy - initializing,
        initializing,
        throttled: 0,
        unhealthy,
        total: workers.length,
      },
      endpointVersion: endpointVersion(r),
    } satisfies V2.ListEndpointWorkersResponse;
  });

  app.get<IdParams>("/serverless/:id/releases", async (req) => {
    const r = endpointOfV2(req.account, req.params.id);
    const latest = endpointVersion(r);
    const workers = req.account.workersOf(r.id);
    const onLatest = workers.filter((w) => w.version === latest).length;
    return {
      endpointVersion: latest,
      rollout: {
        inProgress: onLatest < workers.length,
        workersOnLatest: onLatest,
        workersTotal: workers.length,
        percentOnLatest: workers.length === 0 ? 0 : Math.floor((100 * onLatest) / workers.length),
      },
      releases: [...releasesOf(r)].reverse().map((release) => ({
        id: release.id,
        version: release.version,
        source: "MANUAL",
        buildId: null,
        createdByUserId: r.userId ?? null,
        workerCount: workers.filter((w) => w.version === release.version).length,
        createdAt: release.createdAt,
        diff: release.diff,
      })),
    } satisfies V2.ListEndpointReleasesResponse;
  });

  // OpenAPI: text/event-stream; each event's `id` is its `ts`, its `data` `{ts, source, line}`.
  // `since` (or Last-Event-ID) resumes after that time; otherwise the last `tail` lines (default 100).
  app.get<LogParams>("/serverless/:id/workers/:workerId/logs", async (req, reply) => {
    const r = endpointOfV2(req.account, req.params.id);
    const { source, tail, since } = req.query;
    if (source !== undefined && !SOURCES.includes(source))
      throw unprocessableField("source", source, "must be container or system");
    if (tail !== undefined && (!WHOLE.test(tail) || Number(tail) > 5000)) {
      throw unprocessableField("tail", tail, "must be a whole number from 0 to 5000");
    }
    const cursor = (req.headers["last-event-id"] as string | undefined) ?? since;
    if (cursor !== undefined && !DATE_TIME.test(cursor)) {
      throw unprocessableField(since === cursor ? "since" : "Last-Event-ID", cursor, "must be an RFC 3339 date-time");
    }
    const worker = req.account.workersOf(r.id).find((w) => w.id === req.params.workerId);
    if (!worker) throw notFound(`worker ${req.params.workerId} of serverless endpoint ${r.id} not found (not running)`);

    const wanted = (l: WorkerLogLine) => source === undefined || l.source === source;
    const after = cursor === undefined ? undefined : Date.parse(cursor) - ctx.scheduler.clock.epochOrigin;
    const history = worker.log.lines().filter((l) => wanted(l) && (after === undefined || l.at > after));
    const backfill = after === undefined ? history.slice(Math.max(0, history.length - Number(tail ?? 100))) : history;
    const stream = new PassThrough();
    const write = (l: WorkerLogLine) => {
      const ts = iso(l.at);
      stream.write(`id: ${ts}\ndata: ${JSON.stringify({ ts, source: l.source, line: l.line })}\n\n`);
    };
    for (const l of backfill) write(l);
    const stop = worker.log.follow((l) => {
      if (l === undefined) stream.end();
      else if (wanted(l)) write(l);
    });
    reply.raw.once("close", () => {
      stop();
      stream.end();
    });
    return reply
      .header("content-type", "text/event-stream; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("x-accel-buffering", "no")
      .send(stream);
  });
}

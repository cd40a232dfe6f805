import { z } from "zod";
import type { RunpodClient } from "../client";
import type { CallOptions } from "../transport";

/**
 * Where an endpoint's rollout stands, read with one management call: how many of its workers run
 * the endpoint's current configuration and have started, how many are still starting, how many
 * cannot start, and how many still run an older configuration. The same shape on both
 * management versions (docs/resources.md "When an endpoint is deployed").
 */
export interface RolloutSnapshot {
  /** The endpoint's current configuration version, where the platform says it (v2). */
  version: number | undefined;
  /** Every worker the endpoint has now. */
  total: number;
  /** Workers of the current configuration that have started (IDLE or RUNNING: they take work). */
  ready: number;
  /** Workers of the current configuration still starting (INITIALIZING, THROTTLED). */
  starting: number;
  /** Workers of the current configuration that cannot start (UNHEALTHY), by id. */
  unhealthy: readonly string[];
  /** Workers still on an older configuration. */
  stale: number;
}

/**
 * v2: one `GET /v2/serverless/{id}/workers` tells it all: each worker's `status`, `version` and
 * `isStale` (the platform's own flag; on legacy endpoints it compares images).
 */
export async function readRolloutV2(client: RunpodClient, id: string, options?: CallOptions): Promise<RolloutSnapshot> {
  const answer = await client.v2.serverless.workers(id, options);
  const current = answer.workers.filter((w) => !w.isStale);
  return {
    version: answer.endpointVersion ?? undefined,
    total: answer.workers.length,
    ready: current.filter((w) => w.status === "IDLE" || w.status === "RUNNING").length,
    starting: current.filter((w) => w.status === "INITIALIZING" || w.status === "THROTTLED").length,
    unhealthy: current.filter((w) => w.status === "UNHEALTHY").map((w) => w.id),
    stale: answer.workers.length - current.length,
  };
}

/** The worker counts of the job API's `/health`, with the states the official SDK's types name. */
const WorkerHealthSchema = z.object({
  workers: z.object({
    idle: z.number().int(),
    running: z.number().int(),
    initializing: z.number().int().optional(),
    throttled: z.number().int().optional(),
    unhealthy: z.number().int().optional(),
  }),
});

/**
 * v1: `GET /v1/endpoints/{id}?includeWorkers=true&includeTemplate=true` lists the workers as pods
 * with the image each runs; a worker is on the current configuration when it runs the template's
 * current image (as v2 judges legacy endpoints). v1 gives a worker no status: once no worker runs
 * an older image, the job API's `/health` (not a management call, outside v2's quota) counts those
 * started, starting and unable to start. A change that keeps the image (env, disk) is told apart
 * by no worker field of v1, so on v1 it is served once the platform took it.
 */
export async function readRolloutV1(client: RunpodClient, id: string, options?: CallOptions): Promise<RolloutSnapshot> {
  const endpoint = await client.v1.endpoints.get(id, { ...options, includeWorkers: true, includeTemplate: true });
  const image = endpoint.template?.imageName;
  const workers = endpoint.workers ?? [];
  const runsOlder = (w: Record<string, unknown>) => typeof w.image === "string" && w.image !== image;
  const stale = typeof image === "string" ? workers.filter(runsOlder).length : 0;
  const snapshot: RolloutSnapshot = {
    version: undefined,
    total: workers.length,
    ready: 0,
    starting: 0,
    unhealthy: [],
    stale,
  };
  if (stale > 0 || workers.length === 0) return { ...snapshot, ready: workers.length - stale };
  const health = await client.transport.send({
    method: "GET",
    base: client.transport.config.queueUrl,
    path: `/${encodeURIComponent(id)}/health`,
    idempotent: true,
    schema: WorkerHealthSchema,
    options,
  });
  const w = health.workers;
  const unhealthy = w.unhealthy ?? 0;
  return {
    ...snapshot,
    ready: w.idle + w.running,
    starting: (w.initializing ?? 0) + (w.throttled ?? 0),
    // v1 names no worker by state: the unhealthy ones are counted, each as "a worker".
    unhealthy: Array.from({ length: unhealthy }, () => ""),
  };
}

/** The snapshot on the version the client talks. */
export function readRollout(client: RunpodClient, id: string, options?: CallOptions): Promise<RolloutSnapshot> {
  return client.apiVersion === "v2" ? readRolloutV2(client, id, options) : readRolloutV1(client, id, options);
}

import { ResponseValidationError, UnsupportedOperationError } from "../../errors";
import { validateRequest } from "../../request-validation";
import { fieldProblems } from "../../schemas/validation";
import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { PagedResourceV2 } from "./paged-resource";

/** Options of {@link ServerlessV2.workerLogs}: which lines, and where to start (OpenAPI `LogSource`, `LogTail`, `LogSince`). */
export interface WorkerLogOptions extends CallOptions {
  /** `container` (the worker's output) or `system` (host lifecycle); both when omitted. */
  source?: V2.LogSource | undefined;
  /** Lines of history before live lines (0 to 5000; the platform's default is 100). Ignored with `since`. */
  tail?: number | undefined;
  /** Resume from this RFC 3339 time (e.g. the `ts` of the last line seen) instead of `tail`. */
  since?: string | undefined;
}

/**
 * Serverless endpoints of management API v2 (`/v2/serverless`), in v2's own shapes: `create`,
 * `get`, `list` (unwrapped from `{"endpoints": [...]}`), `update` (`PATCH`: only the given fields
 * change), `delete`, and what v1 did not have: `workers`, `releases` and `workerLogs`. The
 * version-neutral operations (`client.endpoints`) are built on these.
 */
export class ServerlessV2 extends PagedResourceV2<V2.Endpoint, V2.CreateEndpointRequest> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.serverless",
        path: "/serverless",
        noun: "serverless endpoint",
        schema: V2.EndpointSchema,
        listSchema: V2.EndpointListSchema,
        createSchema: V2.CreateEndpointRequestSchema,
      },
      "endpoints",
    );
  }

  /**
   * `PATCH /v2/serverless/{id}`. Container changes (`image`, `env`, ...) make a new release that
   * rolls out as workers cycle; `gpu.pools` without `gpu.excludedTypes` clears the exclusions.
   */
  async update(id: string, input: V2.UpdateEndpointRequest, options?: CallOptions): Promise<V2.Endpoint> {
    return this.sendUpdate(id, this.validated(V2.UpdateEndpointRequestSchema, input, "update"), options);
  }

  /** `GET /v2/serverless/{id}/workers`: the active workers, a summary by status, and the endpoint's version. */
  async workers(id: string, options?: CallOptions): Promise<V2.ListEndpointWorkersResponse> {
    return this.send("workers", {
      method: "GET",
      path: `${this.itemPath(id)}/workers`,
      idempotent: true,
      schema: V2.ListEndpointWorkersResponseSchema,
      options,
    });
  }

  /** `GET /v2/serverless/{id}/releases`: the release history (newest first) and how far the latest rolled out. */
  async releases(id: string, options?: CallOptions): Promise<V2.ListEndpointReleasesResponse> {
    return this.send("releases", {
      method: "GET",
      path: `${this.itemPath(id)}/releases`,
      idempotent: true,
      schema: V2.ListEndpointReleasesResponseSchema,
      options,
    });
  }

  /**
   * `GET /v2/serverless/{id}/workers/{workerId}/logs`: the worker's log lines as they come. The
   * platform answers a Server-Sent Events stream (`text/event-stream`, one `{ts, source, line}`
   * per event) that stays open while the worker runs: iterate, and `break` (or abort `signal`) to
   * stop. Each line's `ts` is the cursor to resume from (`since`).
   *
   * ```ts
   * for await (const { ts, line } of client.v2.serverless.workerLogs(endpointId, workerId, { tail: 50 })) {
   *   console.log(ts, line);
   * }
   * ```
   */
  async *workerLogs(id: string, workerId: string, options?: WorkerLogOptions): AsyncGenerator<V2.WorkerLogEvent> {
    const query = validateRequest(
      V2.WorkerLogQuerySchema,
      { source: options?.source, tail: options?.tail, since: options?.since },
      `worker logs of ${id}/${workerId}`,
    );
    const talks = this.transport.config.apiVersion;
    if (talks !== "v2") throw new UnsupportedOperationError("v2.serverless.workerLogs", talks);
    const path = `${this.itemPath(id)}/workers/${encodeURIComponent(workerId)}/logs`;
    const base = this.transport.config.apiUrl;
    for await (const event of this.transport.events({ base, path, query, options })) {
      yield logEvent(event.data, path);
    }
  }
}

/** One event's `data` as a log line; anything else is a `ResponseValidationError`. */
function logEvent(data: string, path: string): V2.WorkerLogEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    json = data;
  }
  const parsed = V2.WorkerLogEventSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new ResponseValidationError({ method: "GET", path }, 200, fieldProblems(parsed.error, json));
}

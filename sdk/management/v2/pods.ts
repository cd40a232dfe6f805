import * as V2 from "../../schemas/v2";
import type { CallOptions, Transport } from "../../transport";
import { PagedResourceV2 } from "./paged-resource";

/** Options of {@link PodsV2.list}. */
export interface PodListOptionsV2 extends CallOptions {
  /** Include cluster member pods (each with its `cluster` block). Default false. */
  includeClusterPods?: boolean | undefined;
}

/** Options of {@link PodsV2.logs} (OpenAPI v2 `getPodLogs` parameters). */
export interface PodLogOptions extends CallOptions {
  /** Only `container` (stdout/stderr) or `system` (lifecycle) lines. Default: both. */
  source?: V2.LogSource | undefined;
  /** Lines of history (0 to 5000). Default 100; ignored with `since`. */
  tail?: number | undefined;
  /** Only lines from this RFC 3339 time on. */
  since?: string | undefined;
}

/**
 * Pods of management API v2 (`/v2/pods`), in v2's own shapes: `create` (exactly one of `gpu`
 * and `cpu`), `get`, `list` (unwrapped; cluster members only with `includeClusterPods`), `update`
 * (`PATCH`: only the given fields change; changing the container restarts it, its disk wiped),
 * `action` (start, stop, restart, terminate), `logs`, `delete`.
 */
export class PodsV2 extends PagedResourceV2<V2.Pod, V2.CreatePodRequest, PodListOptionsV2> {
  constructor(transport: Transport) {
    super(
      transport,
      {
        version: "v2",
        api: "v2.pods",
        path: "/pods",
        noun: "pod",
        schema: V2.PodSchema,
        listSchema: V2.PodListSchema,
        createSchema: V2.CreatePodRequestSchema,
      },
      "pods",
    );
  }

  /** `PATCH /v2/pods/{id}`. */
  async update(id: string, input: V2.UpdatePodRequest, options?: CallOptions): Promise<V2.Pod> {
    return this.sendUpdate(id, this.validated(V2.UpdatePodRequestSchema, input, "update"), options);
  }

  /**
   * `POST /v2/pods/{id}/action`: the pod after `start`, `stop` or `restart`; undefined after
   * `terminate` (204). An action the pod's status does not allow now (its `actions`) is a 409.
   */
  async action(id: string, action: V2.PodAction, options?: CallOptions): Promise<V2.Pod | undefined> {
    const body = this.validated(V2.PodActionRequestSchema, { action }, "act on");
    const answer = await this.send<string>("action", {
      method: "POST",
      path: `${this.itemPath(id)}/action`,
      body: JSON.stringify(body),
      // Each action leaves the pod in one state, so a repeat after a lost answer finds it there
      // (and a 409 says so) instead of doing anything twice.
      idempotent: true,
      text: true,
      options,
    });
    return answer === "" ? undefined : V2.PodSchema.parse(JSON.parse(answer));
  }

  /**
   * `GET /v2/pods/{id}/logs`: the log lines the server sends (a Server-Sent Events stream; the
   * emulator closes it after the backlog), oldest first.
   */
  async logs(id: string, options?: PodLogOptions): Promise<V2.PodLogEvent[]> {
    const text = await this.send<string>("logs", {
      method: "GET",
      path: `${this.itemPath(id)}/logs`,
      query: { source: options?.source, tail: options?.tail, since: options?.since },
      idempotent: true,
      text: true,
      options,
    });
    return V2.parsePodLogEvents(text);
  }

  protected override readQuery(o: PodListOptionsV2 | undefined) {
    return { includeClusterPods: o?.includeClusterPods };
  }
}

import type { FastifyInstance } from "fastify";
import type { RecentRequests } from "../../../sdk/schemas";
import type { ServerContext } from "../../server/server-context";
import { queueRuntimeOf } from "./queue-endpoint";

type EndpointParams = { Params: { endpointId: string } };

/**
 * `GET /v2/<endpoint_id>/requests` (10 per 10 s and 2 at once, per endpoint and key). No public
 * document says what the platform answers, so the body is the emulator's own choice:
 * `{ requests: [...] }`, the endpoint's last requests (`/run`, `/runsync` and calls under
 * `/openai/`), newest first: at most 100, submitted within the last 30 minutes of platform time
 * (recent-requests.ts), each with its id, status, how it came and its times.
 */
export function registerRecentRequestRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const iso = (t: number) => new Date(ctx.scheduler.clock.epochOrigin + t).toISOString();
  app.get<EndpointParams>("/:endpointId/requests", { config: { op: "requests" } }, (req) => {
    const runtime = queueRuntimeOf(req.account, req.params.endpointId, ctx.origin());
    return { requests: runtime.recent.list(ctx.scheduler.now(), iso) } satisfies RecentRequests;
  });
}

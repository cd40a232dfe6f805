import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type Endpoint,
  EndpointCreateInputV1Schema,
  EndpointUpdateInputV1Schema,
  PLATFORM_VALUE_FIELDS,
} from "../../sdk/schemas";
import type { ServerContext } from "../server/server-context";
import { badRequest, notFound, parseOr400 } from "../server/http-errors";
import type { Account } from "../store/account";
import { newEndpointId } from "../store/ids";
import { createEndpointRecord, endpointProblems, updateEndpointRecord } from "./endpoint-record";

type IdParams = { Params: { endpointId: string } };
type IncludeQuery = { includeTemplate?: string; includeWorkers?: string };

function endpointOf(account: Account, id: string): Endpoint {
  const e = account.endpoints.get(id);
  if (!e) throw notFound(`endpoint ${id} not found`);
  return e;
}

/** Management routes of endpoints (OpenAPI tag "endpoints"; spec "Endpoint creation input"). */
export function registerEndpointRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const epochIso = (t: number) => new Date(ctx.scheduler.clock.epochOrigin + t).toISOString();

  /** OpenAPI `includeTemplate` / `includeWorkers` query flags. */
  const render = (req: FastifyRequest, e: Endpoint): Endpoint => {
    const q = req.query as IncludeQuery;
    const view: Endpoint = { ...e };
    if (q.includeTemplate === "true") {
      const id = e.templateId ?? "";
      view.template = req.account.templates.get(id) ?? ctx.templates.render(id);
    }
    if (q.includeWorkers === "true") {
      view.workers = (req.account.runtime(e.id)?.workers() ?? []).map((w) => ({
        id: w.id,
        name: `${e.name ?? e.id}-worker`,
        desiredStatus: "RUNNING",
        endpointId: e.id,
        templateId: e.templateId,
        lastStartedAt: epochIso(w.startedAt),
        lastStatusChange: `Started by the emulator: ${w.job ? "running a job" : "idle"}`,
      }));
    }
    return view;
  };

  const save = async (account: Account, e: Endpoint) => {
    const problems = endpointProblems(e, account, ctx.templates);
    if (problems.length) throw badRequest(problems);
    await account.endpoints.put(e);
  };

  app.post("/v1/endpoints", async (req) => {
    const input = parseOr400(EndpointCreateInputV1Schema, req.body);
    ctx.catalog.assertKnown(PLATFORM_VALUE_FIELDS.ServerlessEndpoint, input);
    const e = createEndpointRecord(input, newEndpointId(), req.account.userId, epochIso(ctx.scheduler.now()), {
      dataCenterIds: ctx.catalog.values("dataCenter"),
    });
    await save(req.account, e);
    return render(req, e);
  });

  app.get("/v1/endpoints", async (req) => [...req.account.endpoints.values()].map((e) => render(req, e)));

  app.get<IdParams>("/v1/endpoints/:endpointId", async (req) =>
    render(req, endpointOf(req.account, req.params.endpointId)),
  );

  const update = async (req: FastifyRequest<IdParams>) => {
    const current = endpointOf(req.account, req.params.endpointId);
    const input = parseOr400(EndpointUpdateInputV1Schema, req.body);
    ctx.catalog.assertKnown(PLATFORM_VALUE_FIELDS.ServerlessEndpoint, input);
    const next = updateEndpointRecord(current, input);
    if (next !== current) await save(req.account, next);
    return render(req, next);
  };
  app.patch<IdParams>("/v1/endpoints/:endpointId", update);
  app.post<IdParams>("/v1/endpoints/:endpointId/update", update);

  app.delete<IdParams>("/v1/endpoints/:endpointId", async (req, reply) => {
    endpointOf(req.account, req.params.endpointId);
    await req.account.endpoints.delete(req.params.endpointId);
    return reply.code(204).send();
  });
}

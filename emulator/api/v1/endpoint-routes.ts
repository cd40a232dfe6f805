import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type Endpoint,
  EndpointCreateInputV1Schema,
  EndpointUpdateInputV1Schema,
  PLATFORM_VALUE_FIELDS,
} from "../../../sdk/schemas";
import type { ServerContext } from "../../server/server-context";
import { badRequest, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newEndpointId } from "../../records/ids";
import { createEndpointRecord, renderEndpointV1, updateEndpointRecord } from "../../endpoints/endpoint-v1";
import { endpointProblems } from "../../endpoints/endpoint-rules";
import type { EndpointRecord } from "../../endpoints/endpoint-record";
import { handlerTemplateRecord } from "../../templates/handler-template";
import { renderTemplateV1 } from "../../templates/template-render";
import { renderWorkerPodV1 } from "../../endpoints/worker-render";

type IdParams = { Params: { endpointId: string } };
type IncludeQuery = { includeTemplate?: string; includeWorkers?: string };

function endpointOf(account: Account, id: string): EndpointRecord {
  const e = account.endpoints.get(id);
  if (!e) throw notFound(`endpoint ${id} not found`);
  return e;
}

/** Management routes of endpoints (OpenAPI tag "endpoints"; docs/platform.md "Management API v1"). */
export function registerEndpointRoutesV1(app: FastifyInstance, ctx: ServerContext): void {
  const epochIso = (t: number) => new Date(ctx.scheduler.clock.epochOrigin + t).toISOString();

  /** The v1 answer (v2's fields left out), with the OpenAPI `includeTemplate` / `includeWorkers` query flags. */
  const render = (req: FastifyRequest, e: EndpointRecord): Endpoint => {
    const q = req.query as IncludeQuery;
    const view = renderEndpointV1(e, ctx.catalog);
    // An endpoint created through v2 keeps no template: it has none to include.
    const template =
      e.templateId === undefined
        ? undefined
        : (req.account.templates.get(e.templateId) ??
          handlerTemplateRecord(e.templateId, ctx.templates.get(e.templateId)));
    if (q.includeTemplate === "true" && template) view.template = renderTemplateV1(template);
    if (q.includeWorkers === "true") {
      const worker = {
        endpoint: e,
        template,
        catalog: ctx.catalog,
        userId: req.account.userId,
        volume: (id: string) => req.account.networkVolumes.get(id),
        iso: epochIso,
      };
      view.workers = req.account.workersOf(e.id).map((w) => renderWorkerPodV1(w, worker));
    }
    return view;
  };

  const save = async (account: Account, e: EndpointRecord) => {
    const problems = endpointProblems(e, account, ctx.templates);
    if (problems.length) throw badRequest(problems);
    await account.endpoints.put(e);
  };

  app.post("/endpoints", async (req) => {
    const input = parseOr400(EndpointCreateInputV1Schema, req.body);
    ctx.catalog.assertKnown(PLATFORM_VALUE_FIELDS.ServerlessEndpoint, input);
    const e = createEndpointRecord(input, newEndpointId(), req.account.userId, epochIso(ctx.scheduler.now()), {
      dataCenterIds: ctx.catalog.values("dataCenter"),
    });
    await save(req.account, e);
    return render(req, e);
  });

  app.get("/endpoints", async (req) => [...req.account.endpoints.values()].map((e) => render(req, e)));

  app.get<IdParams>("/endpoints/:endpointId", async (req) =>
    render(req, endpointOf(req.account, req.params.endpointId)),
  );

  const update = async (req: FastifyRequest<IdParams>) => {
    const current = endpointOf(req.account, req.params.endpointId);
    const input = parseOr400(EndpointUpdateInputV1Schema, req.body);
    ctx.catalog.assertKnown(PLATFORM_VALUE_FIELDS.ServerlessEndpoint, input);
    const next = updateEndpointRecord(current, input, epochIso(ctx.scheduler.now()));
    if (next !== current) await save(req.account, next);
    return render(req, next);
  };
  app.patch<IdParams>("/endpoints/:endpointId", update);
  app.post<IdParams>("/endpoints/:endpointId/update", update);

  app.delete<IdParams>("/endpoints/:endpointId", async (req, reply) => {
    endpointOf(req.account, req.params.endpointId);
    await req.account.endpoints.delete(req.params.endpointId);
    return reply.code(204).send();
  });
}

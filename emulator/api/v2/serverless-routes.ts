import type { FastifyInstance, FastifyRequest } from "fastify";
import { type FieldProblem, renderValue } from "../../../sdk/schemas";
import * as V2 from "../../../sdk/schemas/v2";
import type { ServerContext } from "../../server/server-context";
import { positionIn } from "../../server/list-pages";
import { badRequest, notFound, parseOr400, unprocessableField } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newEndpointId } from "../../records/ids";
import { endpointProblems } from "../../endpoints/endpoint-rules";
import type { EndpointRecord } from "../../endpoints/endpoint-record";
import { renderEndpointV2 } from "../../endpoints/endpoint-render";
import type { TemplateRecord } from "../../templates/template-record";
import { handlerTemplateRecord } from "../../templates/handler-template";
import {
  createEndpointRecordV2,
  updateEndpointRecordV2,
  v2EndpointProblems,
  type V2WriteContext,
} from "../../endpoints/endpoint-v2";

type IdParams = { Params: { id: string } };

/** The account's endpoint `id`, or a 404. */
export function endpointOfV2(account: Account, id: string): EndpointRecord {
  const e = account.endpoints.get(id);
  if (!e) throw notFound(`serverless endpoint ${id} not found`);
  return e;
}

/** A template an endpoint may take settings from: one of the account's, or a public catalog one (a handler). */
function readableTemplate(account: Account, id: string, ctx: ServerContext): TemplateRecord | undefined {
  const handler = ctx.templates.get(id);
  return account.templates.get(id) ?? (handler ? handlerTemplateRecord(id, handler) : undefined);
}

/** The template a v1-created record is linked to, for its container settings. */
export function linkedTemplate(account: Account, r: EndpointRecord, ctx: ServerContext): TemplateRecord | undefined {
  return r.templateId === undefined ? undefined : readableTemplate(account, r.templateId, ctx);
}

/** OpenAPI v2: an unknown or inaccessible `templateId` is a 404, one that is not serverless a 422. */
function templateOfBody(account: Account, id: string | undefined, ctx: ServerContext): TemplateRecord | undefined {
  if (id === undefined) return undefined;
  const t = readableTemplate(account, id, ctx);
  if (!t) throw notFound(`template ${id} not found (neither a template of this account nor a public one)`);
  if (!t.serverless) {
    throw unprocessableField(
      "templateId",
      id,
      "is a pod template (serverless false); endpoints take serverless templates",
    );
  }
  return t;
}

/** References of a body that must be the account's: network volumes and the registry credential. */
function referenceProblems(account: Account, body: V2.UpdateEndpointRequest): FieldProblem[] {
  const problems: FieldProblem[] = [];
  body.networkVolumes?.forEach((id, i) => {
    if (!account.networkVolumes.has(id)) {
      problems.push({
        field: `networkVolumes.${i}`,
        value: renderValue(id),
        rule: "is not a network volume of this account",
      });
    }
  });
  if (typeof body.registry === "string" && !account.containerRegistryAuths.has(body.registry)) {
    problems.push({
      field: "registry",
      value: renderValue(body.registry),
      rule: "is not a registry credential of this account",
    });
  }
  return problems;
}

/**
 * Management v2 routes of serverless endpoints (`/v2/serverless`, OpenAPI v2 tag "Serverless"),
 * over the same records as v1's `/v1/endpoints`: create (201), list (wrapped), get, `PATCH`,
 * delete (204). An endpoint created here keeps its own container settings (a template's are copied
 * once: no link); a `QUEUE` one runs jobs on `/v2/<id>/run` with the handler its image names, a
 * `LOAD_BALANCER` one answers HTTP at `<origin>/lb/<id>` (load-balancer-routes.ts).
 */
export function registerServerlessRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const now = () => new Date(ctx.scheduler.clock.epochOrigin + ctx.scheduler.now()).toISOString();
  const render = (account: Account, r: EndpointRecord) =>
    renderEndpointV2(r, { catalog: ctx.catalog, origin: ctx.origin(), template: linkedTemplate(account, r, ctx) });

  const check = (account: Account, body: V2.UpdateEndpointRequest, current: EndpointRecord | undefined) => {
    if (body.dataCenterIds?.length)
      ctx.catalog.assertKnown({ dataCenterIds: "dataCenter" }, { dataCenterIds: body.dataCenterIds });
    const problems = [...v2EndpointProblems(body, current, ctx.catalog), ...referenceProblems(account, body)];
    if (problems.length) throw badRequest(problems);
  };
  const save = async (account: Account, r: EndpointRecord) => {
    const problems = endpointProblems(r, account, ctx.templates);
    if (problems.length) throw badRequest(problems);
    await account.endpoints.put(r);
  };

  app.post("/serverless", async (req, reply) => {
    const body = parseOr400(V2.CreateEndpointRequestSchema, req.body);
    check(req.account, body, undefined);
    const write: V2WriteContext = {
      catalog: ctx.catalog,
      template: templateOfBody(req.account, body.templateId, ctx),
      linked: undefined,
      at: now(),
    };
    const record = createEndpointRecordV2(
      body,
      newEndpointId(),
      req.account.userId,
      write,
      ctx.catalog.values("dataCenter"),
    );
    await save(req.account, record);
    return reply.code(201).send(render(req.account, record));
  });

  app.get("/serverless", async (req) => {
    const endpoints = req.account.endpoints;
    return ctx.pages.answer(req, "endpoints", endpoints.values(), positionIn(endpoints), (e) => render(req.account, e));
  });

  app.get<IdParams>("/serverless/:id", async (req) => render(req.account, endpointOfV2(req.account, req.params.id)));

  app.patch<IdParams>("/serverless/:id", async (req: FastifyRequest<IdParams>) => {
    const current = endpointOfV2(req.account, req.params.id);
    const body = parseOr400(V2.UpdateEndpointRequestSchema, req.body);
    check(req.account, body, current);
    const write: V2WriteContext = {
      catalog: ctx.catalog,
      template: templateOfBody(req.account, body.templateId, ctx),
      linked: linkedTemplate(req.account, current, ctx),
      at: now(),
    };
    const next = updateEndpointRecordV2(current, body, write);
    if (next !== current) await save(req.account, next);
    return render(req.account, next);
  });

  app.delete<IdParams>("/serverless/:id", async (req, reply) => {
    endpointOfV2(req.account, req.params.id);
    await req.account.endpoints.delete(req.params.id);
    return reply.code(204).send();
  });
}

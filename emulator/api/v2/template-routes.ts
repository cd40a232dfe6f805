import type { FastifyInstance, FastifyRequest } from "fastify";
import * as V2 from "../../../sdk/schemas/v2";
import { handlerTemplateRecord } from "../../templates/handler-template";
import { inUseRefusal } from "../../platform/record-rules";
import { createTemplateRecordV2, templateProblems, updateTemplateRecordV2 } from "../../templates/template-writes";
import type { TemplateRecord } from "../../templates/template-record";
import { renderTemplateV2 } from "../../templates/template-render";
import { badRequest, notFound, parseOr400, unprocessableField } from "../../errors/http-errors";
import type { ServerContext } from "../../server/server-context";
import { positionIn, tablePosition } from "../../server/list-pages";
import type { Account } from "../../store/account";
import { newTemplateId } from "../../records/ids";

type IdParams = { Params: { id: string } };

/** The account's own template `id` (updates and deletes: a public catalog one is a 404 here, as on the platform). */
function ownTemplateOf(account: Account, id: string): TemplateRecord {
  const t = account.templates.get(id);
  if (!t) throw notFound(`template ${id} not found among this account's templates`);
  return t;
}

/**
 * Management v2 routes of templates (`/v2/templates`, OpenAPI v2 tag "Templates") over the same
 * records as v1's `/v1/templates`, and the public catalog (`/v2/catalog/templates`): the
 * emulator's handlers are its `official` slice (serverless templates whose image runs the
 * handler); it holds no `verified` or `community` templates. `GET /v2/templates/{id}` reads both
 * kinds; updates and deletes reach the account's own only.
 */
export function registerTemplateRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const now = () => new Date(ctx.scheduler.clock.epochOrigin + ctx.scheduler.now()).toISOString();
  const save = async (account: Account, t: TemplateRecord) => {
    const problems = templateProblems(t, account);
    if (problems.length) throw badRequest(problems);
    await account.templates.put(t);
  };

  app.post("/templates", async (req, reply) => {
    const t = createTemplateRecordV2(
      parseOr400(V2.CreateTemplateRequestSchema, req.body),
      newTemplateId(),
      req.account.registeredSshKeys(),
    );
    await save(req.account, t);
    return reply.code(201).send(renderTemplateV2(t));
  });

  app.get("/templates", async (req) => {
    const templates = req.account.templates;
    return ctx.pages.answer(req, "templates", templates.values(), positionIn(templates), renderTemplateV2);
  });

  app.get<IdParams>("/templates/:id", async (req) => {
    const id = req.params.id;
    const own = req.account.templates.get(id);
    if (own) return renderTemplateV2(own);
    const handler = ctx.templates.get(id);
    if (handler) return renderTemplateV2(handlerTemplateRecord(id, handler));
    throw notFound(`template ${id} not found`);
  });

  app.patch<IdParams>("/templates/:id", async (req: FastifyRequest<IdParams>) => {
    const current = ownTemplateOf(req.account, req.params.id);
    const body = parseOr400(V2.UpdateTemplateRequestSchema, req.body);
    const next = updateTemplateRecordV2(current, body, req.account.registeredSshKeys());
    await save(req.account, next);
    await req.account.templateChanged(current, next, now());
    return renderTemplateV2(next);
  });

  // OpenAPI v2: "Rejected if the template is currently referenced by a pod or bound to a serverless endpoint".
  app.delete<IdParams>("/templates/:id", async (req, reply) => {
    const t = ownTemplateOf(req.account, req.params.id);
    const users = req.account.endpointsUsingTemplate(t.id);
    if (users.length) throw inUseRefusal("id", t.id, users, "serverless endpoint");
    await req.account.templates.delete(t.id);
    return reply.code(204).send();
  });

  app.get("/catalog/templates", async (req) => {
    const source = (req.query as { source?: string }).source ?? "official";
    if (!(V2.TEMPLATE_SOURCES as readonly string[]).includes(source)) {
      throw unprocessableField("source", source, `must be one of ${V2.TEMPLATE_SOURCES.join(", ")}`);
    }
    const ids = source === "official" ? ctx.templates.ids() : [];
    return ctx.pages.answer(req, "templates", ids, tablePosition, (id) =>
      renderTemplateV2(handlerTemplateRecord(id, ctx.templates.get(id))),
    );
  });
}

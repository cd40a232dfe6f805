import type { FastifyInstance, FastifyRequest } from "fastify";
import { TemplateCreateInputV1Schema, TemplateUpdateInputV1Schema } from "../../../sdk/schemas";
import type { TemplateRegistry } from "../../handlers/template-registry";
import type { ServerContext } from "../../server/server-context";
import { badRequest, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newTemplateId } from "../../records/ids";
import { inUseRefusal } from "../../platform/record-rules";
import { createTemplateRecord, templateProblems, updateTemplateRecord } from "../../templates/template-writes";
import type { TemplateRecord } from "../../templates/template-record";
import { handlerTemplateRecord } from "../../templates/handler-template";
import { renderTemplateV1 } from "../../templates/template-render";

type IdParams = { Params: { templateId: string } };
/** OpenAPI query flags of `GET /templates` and `GET /templates/{id}` (booleans, default false). */
type ListQuery = {
  includeEndpointBoundTemplates?: string;
  includePublicTemplates?: string;
  includeRunpodTemplates?: string;
};

/** The account's template `id`; a 404 otherwise, which says so when `id` is one of the emulator's handlers. */
function templateOf(account: Account, id: string, handlers: TemplateRegistry): TemplateRecord {
  const t = account.templates.get(id);
  if (t) return t;
  if (handlers.get(id)) {
    throw notFound(
      `template ${id} is not a template of this account: it is a handler of the emulator (read-only, listed with includeRunpodTemplates=true)`,
    );
  }
  throw notFound(`template ${id} not found`);
}

/**
 * Management routes of templates (OpenAPI tag "templates"). The emulator binds no template to an
 * endpoint by itself and holds no community templates, so `includeEndpointBoundTemplates` and
 * `includePublicTemplates` add nothing; `includeRunpodTemplates` adds the handlers (`isRunpod`).
 */
export function registerTemplateRoutesV1(app: FastifyInstance, ctx: ServerContext): void {
  const now = () => new Date(ctx.scheduler.clock.epochOrigin + ctx.scheduler.now()).toISOString();
  const save = async (account: Account, t: TemplateRecord) => {
    // v1 names the registry credential `containerRegistryAuthId`.
    const problems = templateProblems(t, account).map((p) =>
      p.field === "registry"
        ? { ...p, field: "containerRegistryAuthId", rule: "is not a container registry auth of this account" }
        : p,
    );
    if (problems.length) throw badRequest(problems);
    await account.templates.put(t);
  };
  const withRunpod = (req: FastifyRequest) => (req.query as ListQuery).includeRunpodTemplates === "true";

  app.post("/templates", async (req) => {
    const t = createTemplateRecord(parseOr400(TemplateCreateInputV1Schema, req.body), newTemplateId());
    await save(req.account, t);
    return renderTemplateV1(t);
  });

  app.get("/templates", async (req) => {
    const own = [...req.account.templates.values()].map(renderTemplateV1);
    if (!withRunpod(req)) return own;
    const handlers = ctx.templates.ids().map((id) => handlerTemplateRecord(id, ctx.templates.get(id)));
    return [...own, ...handlers.map(renderTemplateV1)];
  });

  app.get<IdParams>("/templates/:templateId", async (req) => {
    const id = req.params.templateId;
    const handler = ctx.templates.get(id);
    if (withRunpod(req) && !req.account.templates.has(id) && handler) {
      return renderTemplateV1(handlerTemplateRecord(id, handler));
    }
    return renderTemplateV1(templateOf(req.account, id, ctx.templates));
  });

  // OpenAPI: POST .../update is a synonym of PATCH (body TemplateUpdateInput). An update is a
  // rolling release of the endpoints linked to the template.
  const update = async (req: FastifyRequest<IdParams>) => {
    const current = templateOf(req.account, req.params.templateId, ctx.templates);
    const next = updateTemplateRecord(current, parseOr400(TemplateUpdateInputV1Schema, req.body));
    await save(req.account, next);
    await req.account.templateChanged(current, next, now());
    return renderTemplateV1(next);
  };
  app.patch<IdParams>("/templates/:templateId", update);
  app.post<IdParams>("/templates/:templateId/update", update);

  app.delete<IdParams>("/templates/:templateId", async (req, reply) => {
    const t = templateOf(req.account, req.params.templateId, ctx.templates);
    const users = req.account.endpointsUsingTemplate(t.id);
    if (users.length) throw inUseRefusal("templateId", t.id, users, "endpoint");
    await req.account.templates.delete(t.id);
    return reply.code(204).send();
  });
}

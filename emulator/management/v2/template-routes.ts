import type { FastifyInstance, FastifyRequest } from "fastify";
import { TEMPLATE_DEFAULTS, wordsFromArgs } from "../../../sdk/schemas";
import * as V2 from "../../../sdk/schemas/v2";
import type { ServerContext } from "../../server/server-context";
import { badRequest, notFound, parseOr400, unprocessableField } from "../../server/http-errors";
import type { Account } from "../../store/account";
import { newTemplateId } from "../../store/ids";
import { injectPlatformEnv, switchesTurnedOn } from "../injected-env";
import { inUseRefusal } from "../record-rules";
import { templateProblems } from "../template-record";
import type { TemplateRecord } from "../template-record-schema";
import { catalogTemplateRecord, renderTemplateV2 } from "../template-render";

type IdParams = { Params: { id: string } };

/**
 * A new record from a v2 create body: v2's defaults (NVIDIA, SSH and Jupyter on), no volume unless
 * a mount is given; the env the switches inject (`PUBLIC_KEY` from `sshKeys`, a generated
 * `JUPYTER_PASSWORD`) is added to the record's env, as the platform answers it.
 */
export function createTemplateRecordV2(
  body: V2.CreateTemplateRequest,
  id: string,
  sshKeys: readonly string[] = [],
): TemplateRecord {
  const d = TEMPLATE_DEFAULTS;
  const switches = { startSsh: body.startSsh ?? true, startJupyter: body.startJupyter ?? true };
  const record: TemplateRecord = {
    id,
    name: body.name,
    imageName: body.image,
    category: body.category ?? d.category,
    containerDiskInGb: body.disk ?? d.containerDiskInGb,
    volumeInGb: body.mounts?.persistent?.size ?? 0,
    volumeMountPath: body.mounts?.persistent?.path ?? d.volumeMountPath,
    isServerless: body.serverless ?? false,
    isPublic: body.public ?? false,
    env: injectPlatformEnv(body.env ?? {}, switches, sshKeys),
    ports: [...(body.ports ?? d.ports)],
    readme: d.readme,
    dockerEntrypoint: [],
    dockerStartCmd: wordsFromArgs(body.args ?? ""),
    startSsh: switches.startSsh,
    startJupyter: switches.startJupyter,
    allowedCudaVersions: [...(body.allowedCudaVersions ?? [])],
    isRunpod: false,
    earned: 0,
    runtimeInMin: 0,
  };
  if (body.registry) record.containerRegistryAuthId = body.registry;
  return record;
}

/**
 * The record after a v2 `PATCH`: given fields replace (`env` whole: what the platform injected is
 * kept only if the body sends it again); `mounts: {}` keeps the mount; `registry: null` takes it
 * off. A switch turned on injects its env.
 */
export function updateTemplateRecordV2(
  current: TemplateRecord,
  body: V2.UpdateTemplateRequest,
  sshKeys: readonly string[] = [],
): TemplateRecord {
  const next: TemplateRecord = { ...current };
  if (body.name !== undefined) next.name = body.name;
  if (body.image !== undefined) next.imageName = body.image;
  if (body.args !== undefined) next.dockerStartCmd = wordsFromArgs(body.args);
  if (body.disk !== undefined) next.containerDiskInGb = body.disk;
  if (body.env !== undefined) next.env = { ...body.env };
  if (body.ports !== undefined) next.ports = [...body.ports];
  if (body.registry === null) delete next.containerRegistryAuthId;
  else if (body.registry !== undefined) next.containerRegistryAuthId = body.registry;
  if (body.mounts?.persistent) {
    next.volumeInGb = body.mounts.persistent.size;
    next.volumeMountPath = body.mounts.persistent.path;
  }
  if (body.category !== undefined) next.category = body.category;
  if (body.serverless !== undefined) next.isServerless = body.serverless;
  if (body.public !== undefined) next.isPublic = body.public;
  if (body.startSsh !== undefined) next.startSsh = body.startSsh;
  if (body.startJupyter !== undefined) next.startJupyter = body.startJupyter;
  if (body.allowedCudaVersions !== undefined) next.allowedCudaVersions = [...body.allowedCudaVersions];
  next.env = injectPlatformEnv(next.env ?? {}, switchesTurnedOn(current, next), sshKeys);
  return next;
}

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
  const save = async (account: Account, t: TemplateRecord) => {
    const problems = templateProblems(t, account).map((p) =>
      p.field === "containerRegistryAuthId"
        ? { ...p, field: "registry", rule: "is not a registry credential of this account" }
        : p,
    );
    if (problems.length) throw badRequest(problems);
    await account.templates.put(t);
  };

  app.post("/v2/templates", async (req, reply) => {
    const t = createTemplateRecordV2(
      parseOr400(V2.CreateTemplateRequestSchema, req.body),
      newTemplateId(),
      req.account.registeredSshKeys(),
    );
    await save(req.account, t);
    return reply.code(201).send(renderTemplateV2(t));
  });

  app.get("/v2/templates", async (req) => ({ templates: [...req.account.templates.values()].map(renderTemplateV2) }));

  app.get<IdParams>("/v2/templates/:id", async (req) => {
    const id = req.params.id;
    const own = req.account.templates.get(id);
    if (own) return renderTemplateV2(own);
    if (ctx.templates.get(id)) return renderTemplateV2(catalogTemplateRecord(id));
    throw notFound(`template ${id} not found`);
  });

  app.patch<IdParams>("/v2/templates/:id", async (req: FastifyRequest<IdParams>) => {
    const current = ownTemplateOf(req.account, req.params.id);
    const body = parseOr400(V2.UpdateTemplateRequestSchema, req.body);
    const next = updateTemplateRecordV2(current, body, req.account.registeredSshKeys());
    await save(req.account, next);
    return renderTemplateV2(next);
  });

  // OpenAPI v2: "Rejected if the template is currently referenced by a pod or bound to a serverless endpoint".
  app.delete<IdParams>("/v2/templates/:id", async (req, reply) => {
    const t = ownTemplateOf(req.account, req.params.id);
    const users = req.account.endpointsUsingTemplate(t.id);
    if (users.length) throw inUseRefusal("id", t.id, users, "serverless endpoint");
    await req.account.templates.delete(t.id);
    return reply.code(204).send();
  });

  app.get("/v2/catalog/templates", async (req) => {
    const source = (req.query as { source?: string }).source ?? "official";
    if (!(V2.TEMPLATE_SOURCES as readonly string[]).includes(source)) {
      throw unprocessableField("source", source, `must be one of ${V2.TEMPLATE_SOURCES.join(", ")}`);
    }
    const ids = source === "official" ? ctx.templates.ids() : [];
    return { templates: ids.map((id) => renderTemplateV2(catalogTemplateRecord(id))) };
  });
}

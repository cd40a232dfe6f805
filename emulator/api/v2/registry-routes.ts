import type { FastifyInstance } from "fastify";
import * as V2 from "../../../sdk/schemas/v2";
import type { ServerContext } from "../../server/server-context";
import { positionIn } from "../../server/list-pages";
import { badField, badRequest, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newRegistryAuthId, randomId } from "../../records/ids";
import { type EcrDelegationRecord, parseEcrArn, renderDelegation } from "../../registry-auths/ecr-delegation-record";
import { nameTakenProblem } from "../../platform/record-rules";
import {
  createRegistryAuthRecord,
  type RegistryAuthRecord,
  renderRegistryAuth,
} from "../../registry-auths/registry-auth-record";

type IdParams = { Params: { id: string } };

function registryOf(account: Account, id: string): RegistryAuthRecord {
  const r = account.containerRegistryAuths.get(id);
  if (!r) throw notFound(`registry ${id} not found`);
  return r;
}

/**
 * Management v2 routes of registry credentials (`/v2/registries`, OpenAPI v2 tag "Registries"),
 * over the same records as v1's `/v1/containerregistryauth` (the password kept only as a hash),
 * and ECR delegations (`/v2/registries/delegations`). Deleting a credential follows v2's rule:
 * templates (and endpoints) that pull with it lose it (`registry` becomes null) instead of
 * blocking the delete, which v1's route still refuses.
 */
export function registerRegistryRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const iso = () => new Date(ctx.scheduler.clock.epochOrigin + ctx.scheduler.now()).toISOString();

  app.post("/registries", async (req, reply) => {
    const record = await createRegistryAuthRecord(
      parseOr400(V2.CreateRegistryRequestSchema, req.body),
      newRegistryAuthId(),
    );
    // Checked after the hashing (which yields), right before the record is kept.
    const taken = nameTakenProblem(req.account.containerRegistryAuths.values(), record.name, record.id, "registry");
    if (taken) throw badRequest([taken]);
    await req.account.containerRegistryAuths.put(record);
    return reply.code(201).send(renderRegistryAuth(record));
  });

  app.get("/registries", async (req) => {
    const auths = req.account.containerRegistryAuths;
    return ctx.pages.answer(req, "registries", auths.values(), positionIn(auths), renderRegistryAuth);
  });

  // Registered before `/v2/registries/:id`, though the router prefers the static path anyway.
  app.get("/registries/delegations", async (req) => {
    const delegations = req.account.ecrDelegations;
    return ctx.pages.answer(req, "delegations", delegations.values(), positionIn(delegations), renderDelegation);
  });

  // One delegation per repository ARN: asking again for the same ARN answers the one there is.
  app.post("/registries/delegations", async (req, reply) => {
    const body = parseOr400(V2.CreateDelegationRequestSchema, req.body);
    const repo = parseEcrArn(body.resource);
    if (!repo) {
      throw badField(
        "resource",
        body.resource,
        "must be an ECR repository ARN: arn:aws:ecr:<region>:<account id>:repository/<name>",
      );
    }
    const existing = [...req.account.ecrDelegations.values()].find((d) => d.resource === body.resource.trim());
    if (existing) return reply.code(201).send(renderDelegation(existing));
    const record: EcrDelegationRecord = {
      id: randomId(12),
      name: body.name ?? null,
      delegatorUserId: req.account.userId,
      awsUser: repo.account,
      repository: repo.repository,
      tag: repo.tag,
      awsRegion: repo.region,
      dockerRegistryUri: `${repo.account}.dkr.ecr.${repo.region}.amazonaws.com`,
      createdAt: iso(),
      resource: body.resource.trim(),
    };
    await req.account.ecrDelegations.put(record);
    return reply.code(201).send(renderDelegation(record));
  });

  app.delete<IdParams>("/registries/delegations/:id", async (req, reply) => {
    if (!req.account.ecrDelegations.has(req.params.id)) throw notFound(`delegation ${req.params.id} not found`);
    await req.account.ecrDelegations.delete(req.params.id);
    return reply.code(204).send();
  });

  app.get<IdParams>("/registries/:id", async (req) => renderRegistryAuth(registryOf(req.account, req.params.id)));

  app.delete<IdParams>("/registries/:id", async (req, reply) => {
    const registry = registryOf(req.account, req.params.id);
    for (const t of req.account.templatesUsingRegistryAuth(registry.id)) {
      const { registry: _gone, ...rest } = t;
      await req.account.templates.put(rest);
    }
    for (const e of req.account.endpoints.values()) {
      if (e.registry !== registry.id) continue;
      const { registry: _gone, ...rest } = e;
      await req.account.endpoints.put(rest);
    }
    await req.account.containerRegistryAuths.delete(registry.id);
    return reply.code(204).send();
  });
}

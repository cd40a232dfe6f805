import type { FastifyInstance } from "fastify";
import { ContainerRegistryAuthCreateInputSchema } from "../../../sdk/schemas";
import type { ServerContext } from "../../server/server-context";
import { badRequest, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newRegistryAuthId } from "../../records/ids";
import { inUseRefusal, nameTakenProblem } from "../../platform/record-rules";
import {
  createRegistryAuthRecord,
  type RegistryAuthRecord,
  renderRegistryAuth,
} from "../../registry-auths/registry-auth-record";

type IdParams = { Params: { containerRegistryAuthId: string } };

function authOf(account: Account, id: string): RegistryAuthRecord {
  const a = account.containerRegistryAuths.get(id);
  if (!a) throw notFound(`container registry auth ${id} not found`);
  return a;
}

/**
 * Management routes of container registry auths (OpenAPI tag "container registry auths"):
 * create, get, list, delete; there is no update. Answers hold the id and name only.
 */
export function registerRegistryAuthRoutesV1(app: FastifyInstance, _ctx: ServerContext): void {
  app.post("/containerregistryauth", async (req) => {
    const input = parseOr400(ContainerRegistryAuthCreateInputSchema, req.body);
    const record = await createRegistryAuthRecord(input, newRegistryAuthId());
    // Checked after the hashing (which yields), right before the record is kept: two concurrent
    // creates with one name cannot both pass.
    const taken = nameTakenProblem(
      req.account.containerRegistryAuths.values(),
      record.name,
      record.id,
      "container registry auth",
    );
    if (taken) throw badRequest([taken]);
    await req.account.containerRegistryAuths.put(record);
    return renderRegistryAuth(record);
  });

  app.get("/containerregistryauth", async (req) =>
    [...req.account.containerRegistryAuths.values()].map(renderRegistryAuth),
  );

  app.get<IdParams>("/containerregistryauth/:containerRegistryAuthId", async (req) =>
    renderRegistryAuth(authOf(req.account, req.params.containerRegistryAuthId)),
  );

  // The emulator's choice where the OpenAPI is silent: like a template an endpoint uses, an auth
  // that a template pulls with cannot be deleted (the template would stop pulling).
  app.delete<IdParams>("/containerregistryauth/:containerRegistryAuthId", async (req, reply) => {
    const a = authOf(req.account, req.params.containerRegistryAuthId);
    const users = req.account.templatesUsingRegistryAuth(a.id);
    if (users.length) throw inUseRefusal("containerRegistryAuthId", a.id, users, "template");
    await req.account.containerRegistryAuths.delete(a.id);
    return reply.code(204).send();
  });
}

import type { FastifyInstance } from "fastify";
import * as V2 from "../../../sdk/schemas/v2";
import { nameTakenProblem } from "../../platform/record-rules";
import { newSecretRecord, renderSecret, type SecretRecord, updatedSecretRecord } from "../../secrets/secret-record";
import type { ServerContext } from "../../server/server-context";
import { positionIn } from "../../server/list-pages";
import { HttpError, notFound, parseOr400 } from "../../errors/http-errors";
import type { Account } from "../../store/account";
import { newSecretId } from "../../records/ids";

type IdParams = { Params: { id: string } };

/**
 * A value may be just under 16 MiB of UTF-8, and JSON can spell a character in up to 6 bytes
 * (`\u0001`), so the routes that take one accept bodies up to 6 times that; the value's own rule
 * is the schema's (strictly under 16 MiB once parsed).
 */
const VALUE_BODY_LIMIT = 6 * V2.SECRET_LIMITS.valueBytesBelow;
const takesValue = {
  bodyLimit: VALUE_BODY_LIMIT,
  config: { bodyLimitLabel: "96 MiB, the limit of the secrets routes (a value must stay under 16 MiB of UTF-8)" },
};

function secretOf(account: Account, id: string): SecretRecord {
  const r = account.secrets.get(id);
  if (!r) throw notFound(`secret ${id} not found`);
  return r;
}

/**
 * The account's secrets (`/v2/account/secrets`): list, create, get, update (a new description, or
 * a new value: a rotation) and delete. Every refusal of a body is a 400 naming the field and the
 * rule, as for the other credentials, and a taken name a 409 naming it; a value is never answered,
 * logged or repeated by an error. Names are
 * unique in the account and cannot change. A new secret may unblock workers that could not start
 * for want of it: they try again at once.
 */
export function registerSecretRoutesV2(app: FastifyInstance, ctx: ServerContext): void {
  const now = () => new Date(ctx.scheduler.clock.epochOrigin + ctx.scheduler.now()).toISOString();

  app.get("/account/secrets", async (req) => {
    const secrets = req.account.secrets;
    return ctx.pages.answer(req, "secrets", secrets.values(), positionIn(secrets), renderSecret);
  });

  app.post("/account/secrets", takesValue, async (req, reply) => {
    const body = parseOr400(V2.CreateSecretRequestSchema, req.body);
    const taken = nameTakenProblem(req.account.secrets.values(), body.name, "", "secret");
    // The platform answers a taken name with 409 (the body is valid, the account's state refuses it).
    if (taken)
      throw new HttpError(409, {
        error: "conflict",
        message: "a secret with this name already exists",
        problems: [taken],
      });
    const record = newSecretRecord(req.account.vault.box, newSecretId(), body, now());
    await req.account.secrets.put(record);
    req.account.secretsChanged();
    return reply.code(201).send(renderSecret(record));
  });

  app.get<IdParams>("/account/secrets/:id", async (req) => renderSecret(secretOf(req.account, req.params.id)));

  app.patch<IdParams>("/account/secrets/:id", takesValue, async (req) => {
    const record = secretOf(req.account, req.params.id);
    const body = parseOr400(V2.UpdateSecretRequestSchema, req.body);
    const updated = updatedSecretRecord(req.account.vault.box, record, body, now());
    await req.account.secrets.put(updated);
    return renderSecret(updated);
  });

  app.delete<IdParams>("/account/secrets/:id", async (req, reply) => {
    const record = secretOf(req.account, req.params.id);
    await req.account.secrets.delete(record.id);
    return reply.code(204).send();
  });
}

import type { FastifyInstance } from "fastify";
import * as V2 from "../../../sdk/schemas/v2";
import { parseV2Body } from "./request-body";
import type { ServerContext } from "../../server/server-context";
import { HttpError } from "../../errors/http-errors";
import { SSH_KEYS_ID } from "../../store/ssh-keys-record";

/**
 * The account's SSH keys (`/v2/account/ssh-keys`, OpenAPI v2 `getSshKeys`, `updateSshKeys`): a
 * `PUT` replaces the whole set (`[]` removes every key); pods created with `startSsh` afterwards
 * get them as `PUBLIC_KEY`, one per line. Every refusal of a `PUT` is a 422 (the OpenAPI
 * documents no 400 for it).
 */
export function registerSshKeyRoutesV2(app: FastifyInstance, _ctx: ServerContext): void {
  app.get("/account/ssh-keys", async (req) => ({ keys: req.account.sshKeys.get(SSH_KEYS_ID)?.keys ?? [] }));

  app.put("/account/ssh-keys", async (req) => {
    let body: V2.UpdateSshKeysRequest;
    try {
      body = parseV2Body(V2.UpdateSshKeysRequestSchema, req.body);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 400) throw new HttpError(422, error.body);
      throw error;
    }
    const keys = [...new Set(body.keys.map((k) => k.trim()))];
    await req.account.sshKeys.put({ id: SSH_KEYS_ID, keys });
    return { keys };
  });
}

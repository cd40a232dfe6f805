import type { FastifyInstance } from "fastify";
import * as V2 from "../../../sdk/schemas/v2";
import { parseOr400 } from "../../server/http-errors";

/**
 * Management v2 routes of the account's SSH keys (`/v2/account/ssh-keys`, OpenAPI v2 tag
 * "Account"): the keys the platform injects as `PUBLIC_KEY` into containers created with
 * `startSsh` (injected-env.ts). Kept per account in memory (not in the state file).
 */
export function registerAccountRoutesV2(app: FastifyInstance): void {
  app.get("/v2/account/ssh-keys", async (req) => ({ keys: [...req.account.sshKeys] }));

  app.put("/v2/account/ssh-keys", async (req) => {
    const { keys } = parseOr400(V2.UpdateSshKeysRequestSchema, req.body);
    req.account.sshKeys = [...keys];
    return { keys: [...keys] };
  });
}

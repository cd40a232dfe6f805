import * as V2 from "../../schemas/v2";
import { validateRequest } from "../../request-validation";
import type { CallOptions, Transport } from "../../transport";
import { sendOnVersion } from "../management-resource";
import { SecretsV2 } from "./secrets";

/** The account's SSH public keys (`/v2/account/ssh-keys`). */
export class SshKeysV2 {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/account/ssh-keys`: the registered keys. */
  async get(options?: CallOptions): Promise<string[]> {
    const answer = await sendOnVersion(this.transport, "v2", "v2.account.sshKeys.get", {
      method: "GET",
      path: "/account/ssh-keys",
      idempotent: true,
      schema: V2.SshKeysSchema,
      options,
    });
    return answer.keys;
  }

  /**
   * `PUT /v2/account/ssh-keys`: replaces the whole set (`[]` removes every key). Pods created
   * with `startSsh` afterwards get these keys as their `PUBLIC_KEY`; running pods keep theirs.
   */
  async put(keys: readonly string[], options?: CallOptions): Promise<string[]> {
    const body = validateRequest(V2.UpdateSshKeysRequestSchema, { keys }, "replace SSH keys");
    const answer = await sendOnVersion(this.transport, "v2", "v2.account.sshKeys.put", {
      method: "PUT",
      path: "/account/ssh-keys",
      body: JSON.stringify(body),
      idempotent: true,
      schema: V2.SshKeysSchema,
      options,
    });
    return answer.keys;
  }
}

/** The account of management API v2 (`/v2/account/...`). */
export class AccountV2 {
  /** SSH public keys provisioned into pods created with `startSsh`. */
  readonly sshKeys: SshKeysV2;
  /** Secrets that env values refer to as `{{ RUNPOD_SECRET_<name> }}` (`/v2/account/secrets`). */
  readonly secrets: SecretsV2;

  constructor(transport: Transport) {
    this.sshKeys = new SshKeysV2(transport);
    this.secrets = new SecretsV2(transport);
  }
}

import { z } from "zod";

/*
 * The account's SSH public keys (`/v2/account/ssh-keys`; OpenAPI v2 `SshKeys`,
 * `UpdateSshKeysRequest`): provisioned into pods created with `startSsh` as their `PUBLIC_KEY`.
 */

/** An authorized_keys-style line, as the OpenAPI's pattern: `<type> <base64-key> [comment]`. */
const SSH_PUBLIC_KEY = /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/;

/** `GET /v2/account/ssh-keys`. */
export const SshKeysSchema = z.object({ keys: z.array(z.string()) });
/** The account's SSH keys. */
export type SshKeys = z.infer<typeof SshKeysSchema>;

/** Body of `PUT /v2/account/ssh-keys`: the whole set (a replacement, not a merge; `[]` removes all). */
export const UpdateSshKeysRequestSchema = z.strictObject({
  keys: z.array(
    z
      .string()
      .regex(
        SSH_PUBLIC_KEY,
        'must be an authorized_keys line "<type> <base64-key> [comment]", e.g. "ssh-ed25519 AAAA... me"',
      ),
  ),
});
/** Input replacing the account's SSH keys. */
export type UpdateSshKeysRequest = z.infer<typeof UpdateSshKeysRequestSchema>;

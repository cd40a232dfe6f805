import { z } from "zod";

/*
 * The account's registered SSH public keys (`/v2/account/ssh-keys`, OpenAPI v2 `SshKeys` and
 * `UpdateSshKeysRequest`): what the platform injects as `PUBLIC_KEY` into containers created with
 * `startSsh`.
 */

/** An authorized_keys-style line, `<type> <base64-key> [comment]` (the OpenAPI's pattern). */
export const SshPublicKeySchema = z
  .string()
  .regex(
    /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/,
    'must be an authorized_keys line: "<type> <base64-key> [comment]"',
  );

/** Body of `PUT /v2/account/ssh-keys`: the full set (a replacement, not a merge). */
export const UpdateSshKeysRequestSchema = z.strictObject({ keys: z.array(SshPublicKeySchema) });
/** Body of `PUT /v2/account/ssh-keys`. */
export type UpdateSshKeysRequest = z.infer<typeof UpdateSshKeysRequestSchema>;

/** Answer of `GET` and `PUT /v2/account/ssh-keys`. */
export const SshKeysSchema = z.object({ keys: z.array(z.string()) });
/** The account's registered keys. */
export type SshKeys = z.infer<typeof SshKeysSchema>;

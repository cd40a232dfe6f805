import { z } from "zod";

/** The account's SSH keys (`/v2/account/ssh-keys`): one record per account, id {@link SSH_KEYS_ID}. */
export const SshKeysRecordSchema = z.object({ id: z.string(), keys: z.array(z.string()) });
/** The stored SSH keys. */
export type SshKeysRecord = z.infer<typeof SshKeysRecordSchema>;

/** The id of an account's one SSH keys record. */
export const SSH_KEYS_ID = "account";

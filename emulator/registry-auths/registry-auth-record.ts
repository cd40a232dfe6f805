import { randomBytes, scrypt } from "node:crypto";
import { promisify } from "node:util";
import { z } from "zod";
import type { ContainerRegistryAuth, ContainerRegistryAuthCreateInput } from "../../sdk/schemas";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/**
 * What the emulator keeps of a container registry auth, in memory and in the state file: the id
 * and name the API returns, the username (not a secret; shown by `/_emulator/state`), and a salted
 * scrypt hash of the password instead of the password. The emulator pulls no images, so it never
 * needs the password back; a test can still tell from the hash which password was sent.
 */
export const RegistryAuthRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  /** `scrypt$<salt base64>$<hash base64>`. */
  passwordHash: z.string().regex(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/),
});
/** A stored registry auth. */
export type RegistryAuthRecord = z.infer<typeof RegistryAuthRecordSchema>;

/** A salted scrypt hash of a password (node's scrypt, default cost). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

/** A new record; the password is hashed before anything is kept. */
export async function createRegistryAuthRecord(
  input: ContainerRegistryAuthCreateInput,
  id: string,
): Promise<RegistryAuthRecord> {
  return { id, name: input.name, username: input.username, passwordHash: await hashPassword(input.password) };
}

/** The record as the API answers it (OpenAPI `ContainerRegistryAuth`: id and name, never the credentials). */
export function renderRegistryAuth(r: RegistryAuthRecord): ContainerRegistryAuth {
  return { id: r.id, name: r.name };
}

import { z } from "zod";
import type * as V2 from "../../sdk/schemas/v2";
import { SEALED_VALUE, type SecretBox } from "./secret-box";

/*
 * An account secret as the emulator keeps it, in memory and in the state file: the metadata the
 * API answers, and the value sealed (secret-box.ts), never in plain text. The sealed value never
 * leaves the emulator: answers, `/_emulator/state` and logs render the metadata only.
 */

/** A stored secret. */
export const SecretRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** RFC 3339, platform time. */
  createdAt: z.string(),
  /** When the value was last set (creation or rotation), RFC 3339, platform time. */
  valueLastUpdatedAt: z.string(),
  /** The value, sealed with the emulator's secrets key for this record's id. */
  sealedValue: z.string().regex(SEALED_VALUE, "must be a sealed value (v1.<nonce>.<tag>.<ciphertext>)"),
});
/** A stored secret. */
export type SecretRecord = z.infer<typeof SecretRecordSchema>;

/** The record as the API answers it (and `/_emulator/state` shows it): metadata, never the value. */
export function renderSecret(r: SecretRecord): V2.Secret {
  return {
    id: r.id,
    name: r.name,
    createdAt: r.createdAt,
    description: r.description,
    valueLastUpdatedAt: r.valueLastUpdatedAt,
  };
}

/** A new record, its value sealed before anything is kept. */
export function newSecretRecord(box: SecretBox, id: string, input: V2.CreateSecretRequest, now: string): SecretRecord {
  return {
    id,
    name: input.name,
    description: input.description ?? null,
    createdAt: now,
    valueLastUpdatedAt: now,
    sealedValue: box.seal(input.value, id),
  };
}

/**
 * The record after an update: a new value sealed (a rotation: `valueLastUpdatedAt` moves), a new
 * description (`""` clears it).
 */
export function updatedSecretRecord(
  box: SecretBox,
  r: SecretRecord,
  input: V2.UpdateSecretRequest,
  now: string,
): SecretRecord {
  const next = { ...r };
  if (input.value !== undefined) {
    next.sealedValue = box.seal(input.value, r.id);
    next.valueLastUpdatedAt = now;
  }
  if (input.description !== undefined) next.description = input.description === "" ? null : input.description;
  return next;
}

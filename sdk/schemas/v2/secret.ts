import { z } from "zod";
import { wrappedList } from "./common";

export { SECRET_PLACEHOLDER, secretNamesIn, secretReference } from "./secret-reference";

/*
 * Account secrets of management API v2 (`/v2/account/secrets`): the record the platform answers
 * (`id`, `name`, `createdAt`, `description`, `valueLastUpdatedAt`; never the value), the create
 * body and the update body ("rotate" a value, or change the description). Pods, serverless
 * endpoints and templates refer to a secret from an env value as `{{ RUNPOD_SECRET_<name> }}`;
 * the platform substitutes the value when the pod or worker boots. The value is write-only: no
 * answer holds it, and no error repeats it (validation.ts `SECRET_FIELDS` holds `value`).
 */

/** The documented bounds of a secret. */
export const SECRET_LIMITS = {
  /** Name length in characters. */
  nameMaxLength: 191,
  /** A value must be strictly smaller than this many bytes of UTF-8 (16 MiB). */
  valueBytesBelow: 16 * 1024 * 1024,
  /** A description holds at most this many bytes of UTF-8. */
  descriptionMaxBytes: 65_535,
} as const;

/** What a name may hold: a letter or `_` first, then letters, digits and `_ . - /`. */
export const SECRET_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/;

/** The prefix no secret name may begin with, in any case. */
export const RESERVED_SECRET_PREFIX = "RUNPOD";

/** Bytes of `text` in UTF-8. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

const MIB = 1024 * 1024;

/** A secret's name: the pattern, the length, and not the reserved prefix. */
export const SecretNameSchema = z
  .string("must be a string")
  .min(1, "must not be empty")
  .max(SECRET_LIMITS.nameMaxLength, `must be at most ${SECRET_LIMITS.nameMaxLength} characters`)
  .regex(
    SECRET_NAME_PATTERN,
    "must start with a letter or _ and hold only letters, digits and _ . - / (pattern ^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$)",
  )
  .refine(
    (name) => !name.toUpperCase().startsWith(RESERVED_SECRET_PREFIX),
    `must not begin with ${RESERVED_SECRET_PREFIX}, in any case: the platform reserves that prefix`,
  );

/**
 * A secret's value: at least one character, strictly under 16 MiB of UTF-8. The messages say the
 * rule and the size, never the value.
 */
export const SecretValueSchema = z
  .string("must be a string")
  .min(1, "must not be empty")
  .refine((value) => utf8Bytes(value) < SECRET_LIMITS.valueBytesBelow, {
    error: (issue) =>
      `must be smaller than 16 MiB of UTF-8 (strictly under ${SECRET_LIMITS.valueBytesBelow} bytes); it has ${(utf8Bytes(issue.input as string) / MIB).toFixed(2)} MiB`,
  });

/** A secret's description: at most 65,535 bytes of UTF-8 (`""` clears it in an update). */
export const SecretDescriptionSchema = z
  .string("must be a string")
  .refine((text) => utf8Bytes(text) <= SECRET_LIMITS.descriptionMaxBytes, {
    error: (issue) =>
      `must be at most ${SECRET_LIMITS.descriptionMaxBytes} bytes of UTF-8; it has ${utf8Bytes(issue.input as string)}`,
  });

/** A secret as v2 answers it: its metadata, never its value. */
export const SecretSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  description: z.string().nullable().optional(),
  /** When the value was last set: at creation or at the last rotation. */
  valueLastUpdatedAt: z.string().nullable().optional(),
});
/** An account secret (v2). */
export type Secret = z.infer<typeof SecretSchema>;

/** `GET /v2/account/secrets` (`{"secrets": [...]}`), unwrapped. */
export const SecretListSchema = wrappedList("secrets", SecretSchema);

/** Body of `POST /v2/account/secrets`: `name` and `value` required, `description` optional. */
export const CreateSecretRequestSchema = z.strictObject({
  name: SecretNameSchema,
  value: SecretValueSchema,
  description: SecretDescriptionSchema.optional(),
});
/** Input creating an account secret (v2). */
export type CreateSecretRequest = z.infer<typeof CreateSecretRequestSchema>;

/**
 * Body of `PATCH /v2/account/secrets/{id}`: a new `value` (a rotation), a new `description`, or
 * both; at least one. The name is immutable: an update that sends one is refused, saying so.
 */
export const UpdateSecretRequestSchema = z
  .object({
    value: SecretValueSchema.optional(),
    description: SecretDescriptionSchema.optional(),
    name: z.never("cannot change: a secret's name is immutable (create a secret under the new name)").optional(),
  })
  .strict()
  .refine((body) => body.value !== undefined || body.description !== undefined, {
    error: "must hold value (a rotation), description, or both",
  });
/** Input updating an account secret (v2): a rotation, a description, or both. */
export type UpdateSecretRequest = z.infer<typeof UpdateSecretRequestSchema>;

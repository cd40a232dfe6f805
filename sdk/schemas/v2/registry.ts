import { z } from "zod";
import { nonEmpty, wrappedList } from "./common";

/*
 * Registry credentials of management API v2 (`/v2/registries`, OpenAPI v2 `Registry`,
 * `CreateRegistryRequest`) and ECR delegations (`/v2/registries/delegations`, `EcrDelegation`,
 * `CreateDelegationRequest`). The username and password are write-only: never answered, and never
 * repeated by an error (validation.ts `SECRET_FIELDS` holds `password`).
 */

/** A registry credential as v2 returns it: its id and name only. */
export const RegistrySchema = z.object({ id: z.string(), name: z.string() });
/** A registry credential (v2). */
export type Registry = z.infer<typeof RegistrySchema>;

/** `GET /v2/registries` (`{"registries": [...]}`), unwrapped. */
export const RegistryListSchema = wrappedList("registries", RegistrySchema);

/** Body of `POST /v2/registries` (OpenAPI `CreateRegistryRequest`: all three required, nothing else). */
export const CreateRegistryRequestSchema = z.strictObject({ name: nonEmpty, username: nonEmpty, password: nonEmpty });
/** Input for creating a registry credential (v2). */
export type CreateRegistryRequest = z.infer<typeof CreateRegistryRequestSchema>;

/** An ECR pull delegation (OpenAPI `EcrDelegation`). */
export const EcrDelegationSchema = z.object({
  id: z.string(),
  name: z.string().nullable().optional(),
  delegatorUserId: z.string(),
  awsUser: z.string(),
  repository: z.string(),
  tag: z.string(),
  awsRegion: z.string(),
  dockerRegistryUri: z.string().optional(),
  createdAt: z.string(),
});
/** An ECR delegation (v2). */
export type EcrDelegation = z.infer<typeof EcrDelegationSchema>;

/** `GET /v2/registries/delegations` (`{"delegations": [...]}`), unwrapped. */
export const EcrDelegationListSchema = wrappedList("delegations", EcrDelegationSchema);

/** Body of `POST /v2/registries/delegations` (OpenAPI `CreateDelegationRequest`): the ECR repository's ARN. */
export const CreateDelegationRequestSchema = z.strictObject({
  resource: nonEmpty,
  name: z.string().nullable().optional(),
});
/** Input for creating an ECR delegation (v2). */
export type CreateDelegationRequest = z.infer<typeof CreateDelegationRequestSchema>;

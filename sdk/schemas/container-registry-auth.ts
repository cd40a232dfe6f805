import { z } from "zod";
import { LIMITS } from "./limits";

const max = LIMITS.containerRegistryAuthNameMaxLength;

/**
 * Body of `POST /containerregistryauth` (OpenAPI `ContainerRegistryAuthCreateInput`: all three
 * fields required; the name must be unique in the account). `password` is never repeated by an
 * error (validation.ts `SECRET_FIELDS`) and never returned by the platform.
 */
export const ContainerRegistryAuthCreateInputSchema = z.object({
  name: z.string().min(1, "must not be empty").max(max, `must be at most ${max} characters`),
  username: z.string().min(1, "must not be empty"),
  password: z.string().min(1, "must not be empty"),
});
/** Input for creating a container registry auth. */
export type ContainerRegistryAuthCreateInput = z.infer<typeof ContainerRegistryAuthCreateInputSchema>;

/**
 * A container registry auth as the management API returns it (OpenAPI `ContainerRegistryAuth`):
 * its id and name only; the credentials are never returned. Extra fields are tolerated.
 */
export const ContainerRegistryAuthSchema = z.object({
  id: z.string(),
  name: z.string(),
});
/** A container registry auth. */
export type ContainerRegistryAuth = z.infer<typeof ContainerRegistryAuthSchema>;

/** `GET /containerregistryauth`. */
export const ContainerRegistryAuthListSchema = z.array(ContainerRegistryAuthSchema);

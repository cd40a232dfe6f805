import { z } from "zod";
import { LIMITS } from "../limits";

/*
 * The container settings templates and serverless endpoints share (OpenAPI v2
 * `BaseContainerConfig` + `ContainerConfig`): image, args, disk, env, ports and the registry
 * credential. Requests take them as the OpenAPI types them; answers read them tolerantly.
 */

/** The container fields of a v2 request body, each optional (OpenAPI `ContainerConfig`). */
export const containerRequestFields = {
  /** Docker image reference. */
  image: z.string().min(1, "must not be empty").regex(/^\S*$/, "must not contain whitespace").optional(),
  /** Arguments passed to the container's entrypoint, as one string. */
  args: z.string().optional(),
  /** Container disk in GB (OpenAPI `minimum: 1`). */
  disk: z
    .number()
    .int("must be a whole number of GB")
    .min(LIMITS.containerDiskGbMinV2, `must be at least ${LIMITS.containerDiskGbMinV2} GB`)
    .optional(),
  /** Environment variables; values may be secrets and are never repeated by an error. */
  env: z.record(z.string(), z.string("must be a string")).optional(),
  /** Exposed ports, written `port/protocol`. */
  ports: z.array(z.string()).optional(),
  /** A registry credential id (`/v2/registries`) for a private image; `null` takes it off. */
  registry: z.string().min(1, "must not be empty (send null to remove the registry)").nullable().optional(),
};

/** The container fields of a v2 answer, read tolerantly. */
export const containerAnswerFields = {
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().int().optional(),
  env: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  registry: z.string().nullable().optional(),
};

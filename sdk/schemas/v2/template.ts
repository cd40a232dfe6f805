import { z } from "zod";
import { LIMITS } from "../limits";
import { TEMPLATE_CATEGORIES } from "../platform-enums";
import { majorMinor, nonEmpty, wrappedList } from "./common";
import { containerAnswerFields, containerRequestFields } from "./container-config";

/*
 * Templates of management API v2 (`/v2/templates`, and the public catalog
 * `/v2/catalog/templates`): OpenAPI v2 `Template`, `CreateTemplateRequest`,
 * `UpdateTemplateRequest`. The category is closed (CPU, NVIDIA, AMD: the API defines exactly
 * those); requests are strict.
 */

/** Host-local persistent storage of a template (OpenAPI `PersistentMount`: at least 10 GB). */
export const PersistentMountSchema = z.strictObject({
  size: z
    .number()
    .int("must be a whole number of GB")
    .min(LIMITS.persistentVolumeGbMinV2, `must be at least ${LIMITS.persistentVolumeGbMinV2} GB`),
  path: z.string().regex(/^\//, "must be an absolute path (starting with /)"),
});

/** A template's mounts (OpenAPI `TemplateMounts`: one persistent mount at most; `{}` leaves it unchanged in a PATCH). */
export const TemplateMountsSchema = z.strictObject({ persistent: PersistentMountSchema.optional() });

/** Catalog slices of `GET /v2/catalog/templates?source=`. */
export const TEMPLATE_SOURCES = ["official", "verified", "community"] as const;
/** `official` (default), `verified` or `community`. */
export type TemplateSource = (typeof TEMPLATE_SOURCES)[number];

const category = z.enum(TEMPLATE_CATEGORIES, { error: `must be one of ${TEMPLATE_CATEGORIES.join(", ")}` });

const templateRequestFields = {
  ...containerRequestFields,
  allowedCudaVersions: z.array(majorMinor).optional(),
  category: category.optional(),
  mounts: TemplateMountsSchema.optional(),
  public: z.boolean().optional(),
  serverless: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
};

/**
 * Body of `POST /v2/templates` (OpenAPI `CreateTemplateRequest`): `name` and `image` required;
 * `category` defaults to NVIDIA, `startSsh` and `startJupyter` to true.
 */
export const CreateTemplateRequestSchema = z.strictObject({
  ...templateRequestFields,
  name: nonEmpty,
  image: containerRequestFields.image.unwrap(),
});
/** Input for creating a template (v2). */
export type CreateTemplateRequest = z.infer<typeof CreateTemplateRequestSchema>;

/** Body of `PATCH /v2/templates/{id}` (OpenAPI `UpdateTemplateRequest`): only the given fields change. */
export const UpdateTemplateRequestSchema = z.strictObject({ ...templateRequestFields, name: nonEmpty.optional() });
/** Input for updating a template (v2). */
export type UpdateTemplateRequest = z.infer<typeof UpdateTemplateRequestSchema>;

/** A template as v2 returns it (OpenAPI `Template`). Extra fields are tolerated. */
export const TemplateSchema = z.object({
  ...containerAnswerFields,
  id: z.string(),
  name: z.string(),
  image: z.string(),
  mounts: z.object({ persistent: z.object({ size: z.number().int(), path: z.string() }).optional() }).optional(),
  serverless: z.boolean().optional(),
  public: z.boolean().optional(),
  category: z.string().optional(),
  startSsh: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
});
/** A template (v2). */
export type Template = z.infer<typeof TemplateSchema>;

/** `GET /v2/templates` and `GET /v2/catalog/templates` (`{"templates": [...]}`), unwrapped. */
export const TemplateListSchema = wrappedList("templates", TemplateSchema);

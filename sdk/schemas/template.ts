import { z } from "zod";
import { LIMITS } from "./limits";
import { TEMPLATE_CATEGORIES } from "./platform-enums";

/**
 * OpenAPI defaults applied by the platform when a template is created without a field. The
 * OpenAPI writes the `ports` default as the string `"8888/http,22/tcp"` of an array-typed field:
 * it is read here as that list.
 */
export const TEMPLATE_DEFAULTS = {
  category: "NVIDIA",
  containerDiskInGb: 50,
  volumeInGb: 20,
  volumeMountPath: "/workspace",
  isServerless: false,
  isPublic: false,
  env: {},
  ports: ["8888/http", "22/tcp"],
  readme: "",
  dockerEntrypoint: [],
  dockerStartCmd: [],
} as const;

/** A port as the OpenAPI describes it: `[port number]/[protocol]`, protocol `http` or `tcp`. */
const PORT = /^(\d{1,5})\/(?:http|tcp)$/;
function isPort(value: string): boolean {
  const m = PORT.exec(value);
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= 65_535;
}

/** POSIX environment variable names: a letter or `_`, then letters, digits or `_`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const name = (max: number) => z.string().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

const sizeGb = z.number().int("must be a whole number of GB").min(0, "must be at least 0 GB");

/**
 * Fields of the create and update inputs. Env values may be secrets: `env` is one of the fields
 * whose values no error ever repeats (validation.ts `SECRET_FIELDS`); names are shown.
 */
const templateFields = {
  name: name(LIMITS.templateNameMaxLength),
  // Whitespace is the one thing no image reference can hold; `""` is only "must not be empty".
  imageName: z.string().min(1, "must not be empty").regex(/^\S*$/, "must not contain whitespace"),
  containerDiskInGb: sizeGb,
  volumeInGb: sizeGb,
  volumeMountPath: z.string().regex(/^\//, "must be an absolute path (starting with /)"),
  /** `""` means none: how an update takes a registry auth off a template. */
  containerRegistryAuthId: z.string(),
  dockerEntrypoint: z.array(z.string()),
  dockerStartCmd: z.array(z.string()),
  env: z.record(z.string().regex(ENV_NAME), z.string("must be a string"), {
    error: (issue) =>
      issue.code === "invalid_key"
        ? "is not a valid environment variable name (letters, digits and _, not starting with a digit)"
        : issue.code === "invalid_type"
          ? "must be an object of NAME: value strings"
          : undefined,
  }),
  ports: z.array(
    z.string().refine(isPort, 'must be "<port>/<http|tcp>" with a port from 1 to 65535, e.g. "8888/http"'),
  ),
  readme: z.string(),
  isPublic: z.boolean(),
};

/**
 * Body of `POST /v1/templates` as v1 takes it (v1 OpenAPI `TemplateCreateInput`; `name` and
 * `imageName` are required): what the emulator's v1 route parses, and what the `Template`
 * resource takes until it gains v2's inputs.
 */
export const TemplateCreateInputV1Schema = z
  .object(templateFields)
  .partial()
  .extend({
    name: templateFields.name,
    imageName: templateFields.imageName,
    category: z.enum(TEMPLATE_CATEGORIES, { error: `must be one of ${TEMPLATE_CATEGORIES.join(", ")}` }).optional(),
    isServerless: z.boolean().optional(),
  });

const fixedAtCreation = (field: string) =>
  z
    .never({
      error: `cannot change after creation (TemplateUpdateInput has no ${field}); create a new template instead`,
    })
    .optional();

/**
 * Body of `PATCH /v1/templates/{id}` and `POST /v1/templates/{id}/update` as v1 takes it (v1
 * OpenAPI `TemplateUpdateInput`: every field optional). `category` and `isServerless` are not part
 * of it; passing them is refused rather than silently dropped, so a caller never believes they
 * changed.
 */
export const TemplateUpdateInputV1Schema = z
  .object(templateFields)
  .partial()
  .extend({
    category: fixedAtCreation("category"),
    isServerless: fixedAtCreation("isServerless"),
  });

/**
 * Inputs only management API v2 has (`VERSION_ONLY_FIELDS.template`; refused on v1 before
 * sending): the SSH and Jupyter switches (v2 defaults both to true) and the container arguments
 * as v2's one string. `args` and `dockerStartCmd` say the same thing (the container's command):
 * give one of them.
 */
const templateV2Fields = {
  startSsh: z.boolean(),
  startJupyter: z.boolean(),
  args: z.string(),
};

function oneCommand(v: { args?: unknown; dockerStartCmd?: unknown }, ctx: z.RefinementCtx): void {
  if (v.args !== undefined && v.dockerStartCmd !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["args"],
      message: "says what dockerStartCmd says (the container's command): give one of them",
    });
  }
}

/**
 * The version-neutral create input (`client.templates.create`): v1's fields plus v2's `startSsh`,
 * `startJupyter` and `args`. On v1, those are refused before sending; on v2, `readme` and a
 * non-empty `dockerEntrypoint` are (v2 has neither).
 */
export const TemplateCreateInputSchema = TemplateCreateInputV1Schema.extend({
  startSsh: templateV2Fields.startSsh.optional(),
  startJupyter: templateV2Fields.startJupyter.optional(),
  args: templateV2Fields.args.optional(),
}).superRefine(oneCommand);
/** Input for creating a template (either version). */
export type TemplateCreateInput = z.infer<typeof TemplateCreateInputSchema>;

/** The version-neutral update input (`client.templates.update`); `category` and `isServerless` cannot change. */
export const TemplateUpdateInputSchema = TemplateUpdateInputV1Schema.extend({
  startSsh: templateV2Fields.startSsh.optional(),
  startJupyter: templateV2Fields.startJupyter.optional(),
  args: templateV2Fields.args.optional(),
}).superRefine(oneCommand);
/** Input for updating a template (either version; a rolling release of the endpoints that use it, on v1). */
export type TemplateUpdateInput = z.infer<typeof TemplateUpdateInputSchema>;

/**
 * A template as the management API returns it (OpenAPI `Template`). `category` is read as a plain
 * string and every field but `id`, `name` and `imageName` is optional, so a partial or newer
 * response never fails. `env` holds the template's environment as the platform returns it.
 */
export const TemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  imageName: z.string(),
  category: z.string().optional(),
  containerDiskInGb: z.number().int().optional(),
  volumeInGb: z.number().int().optional(),
  volumeMountPath: z.string().optional(),
  containerRegistryAuthId: z.string().optional(),
  dockerEntrypoint: z.array(z.string()).optional(),
  dockerStartCmd: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  readme: z.string().optional(),
  isPublic: z.boolean().optional(),
  isRunpod: z.boolean().optional(),
  isServerless: z.boolean().optional(),
  earned: z.number().optional(),
  runtimeInMin: z.number().int().optional(),
  /** Whether containers get SSH provisioned at startup (v2 answers). */
  startSsh: z.boolean().optional(),
  /** Whether containers start JupyterLab (v2 answers). */
  startJupyter: z.boolean().optional(),
  /** The container's arguments as v2's one string (v2 answers; `dockerStartCmd` holds them as words). */
  args: z.string().optional(),
});
/** A template. */
export type Template = z.infer<typeof TemplateSchema>;

/** `GET /templates`. */
export const TemplateListSchema = z.array(TemplateSchema);

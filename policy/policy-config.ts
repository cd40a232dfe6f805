import type { PolicyConfigSchema } from "@pulumi/policy/policy";
import { z } from "zod";
import { describeProblems, fieldProblems } from "../sdk/schemas";

/**
 * Each policy's configuration is described once, as a zod object: the policy's `configSchema`
 * (the JSON Schema the Pulumi CLI validates `--policy-pack-config` against) is derived from it,
 * and the policy parses `args.getConfig()` with it, so the two cannot drift apart.
 */

/** A whole number of at least 0, with a description shown in the JSON Schema. */
export function nonNegativeInt(description: string) {
  return z.int().min(0).optional().describe(description);
}

/** A list of strings, with a description shown in the JSON Schema. */
export function stringList(description: string) {
  return z.array(z.string()).optional().describe(description);
}

/**
 * Adds the `byStack` and `byStackTag` maps (see `stack-context.ts`) to a policy's settings. Each
 * map's values hold the same settings as the base; keys are stack-name patterns or tag keys.
 */
export function withStackOverrides<S extends z.ZodRawShape>(settings: z.ZodObject<S>) {
  const override = settings.strict();
  return settings
    .extend({
      byStack: z
        .record(z.string(), override)
        .optional()
        .describe(
          "Settings for stacks whose name matches the key (`*` any characters, `?` one character), e.g. `dev*`. Matches replace the base settings, in the order written.",
        ),
      byStackTag: z
        .record(z.string(), override)
        .optional()
        .describe(
          "Settings for stacks with a tag: key `tag=value-pattern` or `tag` (present with any value). Applied after byStack.",
        ),
    })
    .strict();
}

/** The `configSchema` of a policy: the properties (and required names) of its zod object. */
export function toPolicyConfigSchema(schema: z.ZodObject): PolicyConfigSchema {
  const json = z.toJSONSchema(schema, {
    target: "draft-7",
    io: "input",
    // Map keys are strings anyway; leaving `propertyNames` out keeps the schema to the keywords
    // every JSON Schema validator the Pulumi CLI has used understands.
    override: (ctx) => {
      delete ctx.jsonSchema.propertyNames;
    },
  }) as {
    properties?: PolicyConfigSchema["properties"];
    required?: string[];
  };
  const result: PolicyConfigSchema = { properties: json.properties ?? {} };
  if (json.required && json.required.length > 0) result.required = json.required;
  return result;
}

/**
 * Parses a policy's configuration (`args.getConfig()`, which has no `enforcementLevel`). A bad
 * configuration throws: a guard that silently ignores a misspelt limit is worse than a failed
 * preview. The message names the policy, each field, its value and the rule.
 */
export function parsePolicyConfig<T extends z.ZodObject>(policyName: string, schema: T, raw: unknown): z.infer<T> {
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data;
  throw new Error(
    `invalid configuration of policy "${policyName}": ${describeProblems(fieldProblems(result.error, raw))}`,
  );
}

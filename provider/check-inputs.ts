import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import type { ApiVersion } from "../sdk/config";
import { onlyApiVersionOf, type ResourceKind } from "../sdk/resource-kinds";
import { versionFieldProblems } from "../sdk/schemas/api-version-fields";
import { versionBoundProblems } from "../sdk/schemas/version-bounds";
import { changedFields } from "./diff-inputs";
import type { BookkeepingInput, FieldRule } from "./field-rules";
import { configSettingName, configuredApiVersion } from "./provider-config";
import { isUnknown, userProps } from "./property-values";

/**
 * `true` when `Schema` (what `check` validates) judges exactly the fields of a field table
 * (field-rules.ts), bookkeeping inputs aside; otherwise an object type naming the fields that
 * one has and the other lacks, which fails {@link Expect} with those names in the message.
 */
export type SchemaMatchesTable<Schema extends z.ZodType, Table> = [
  Exclude<keyof z.input<Schema>, BookkeepingInput | keyof Table>,
  Exclude<keyof Table, keyof z.input<Schema>>,
] extends [never, never]
  ? true
  : {
      inSchemaNotTable: Exclude<keyof z.input<Schema>, BookkeepingInput | keyof Table>;
      inTableNotSchema: Exclude<keyof Table, keyof z.input<Schema>>;
    };

/** A compile-time assertion: `Expect<X>` compiles only when `X` is `true`. */
export type Expect<T extends true> = T;

/**
 * Validates inputs with a shared zod schema and turns every issue into a per-property failure
 * (shown by `pulumi preview` next to the property). Properties still unknown during preview are
 * left out of validation, so a preview never fails on a value it cannot see yet.
 */
export function schemaFailures(schema: z.ZodType, inputs: Record<string, unknown>): CheckFailure[] {
  const known: Record<string, unknown> = {};
  const unknownKeys = new Set<string>();
  for (const [k, v] of Object.entries(userProps(inputs))) {
    if (isUnknown(v)) unknownKeys.add(k);
    else known[k] = v;
  }
  const parsed = schema.safeParse(known);
  if (parsed.success) return [];
  const failures: CheckFailure[] = [];
  for (const issue of parsed.error.issues) {
    const property = String(issue.path[0] ?? "");
    if (unknownKeys.has(property)) continue;
    const rest = issue.path.slice(1).map(String);
    const at = rest.length ? ` (at ${property}[${rest.join("][")}])` : "";
    const value = issue.path.reduce<unknown>((cur, key) => (cur as Record<PropertyKey, unknown>)?.[key], known);
    const reason = value === undefined && issue.code === "invalid_type" ? "is required" : issue.message;
    failures.push({ property, reason: `${reason}${at}` });
  }
  return failures;
}

/** A failure for an `adoptId` that is present but not a non-empty string. */
export function adoptIdFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const v = inputs.adoptId;
  if (v === undefined || isUnknown(v) || (typeof v === "string" && v.trim() !== "")) return [];
  return [{ property: "adoptId", reason: "must be the id of an existing resource (a non-empty string)" }];
}

/**
 * Failures for inputs the configured management API version cannot carry (a storage
 * tier on v1, a pod reset field on v2), naming the field, both versions and how to switch. Values
 * still unknown at preview are judged once known.
 */
export function versionFailures(kind: string, inputs: Record<string, unknown>): CheckFailure[] {
  const known: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(userProps(inputs))) if (!isUnknown(v)) known[k] = v;
  let version;
  try {
    version = configuredApiVersion();
  } catch (err) {
    // The API URL names no version: say so at preview, once per resource, naming the setting.
    return [{ property: "", reason: (err as Error).message }];
  }
  return versionFieldProblems(kind, version, known, configSettingName("apiUrl")).map((p) => ({
    property: p.field,
    reason: `${p.value}: ${p.rule}`,
  }));
}

/**
 * The failure of a resource that only one management API version has (account secrets and
 * clusters are v2's: the table of kinds, sdk/resource-kinds.ts, says which), when the configured
 * API URL names the other version: at preview, naming the resource, both versions and how to switch.
 */
export function versionOnlyFailures(resource: ResourceKind): CheckFailure[] {
  const only = onlyApiVersionOf(resource);
  if (only === undefined) return [];
  let version: ApiVersion;
  try {
    version = configuredApiVersion();
  } catch (err) {
    return [{ property: "", reason: (err as Error).message }];
  }
  if (version === only) return [];
  return [
    {
      property: "",
      reason: `${resource} exists only on management API ${only}, and the API URL names ${version}: point ${configSettingName("apiUrl")} (or RUNPOD_API_URL) at a .../${only} URL, or remove the ${resource}`,
    },
  ];
}

/**
 * Failures for inputs outside the bounds the configured management API version states
 * (`VERSION_BOUNDS[kind]`: a volume of 10 to 4096 GB on v2, 0 to 4000 on v1), naming the field and,
 * in the rule, the version. Judged are the values the create or update will send: every value at
 * create (`olds` empty) or when the change replaces the resource, else the new or changed ones. A
 * value the stack already holds, accepted by the version it was deployed through, is not sent again
 * unless it changes, so a stack moved to the other version previews unchanged. Properties that
 * already fail (`failing`) are not judged twice; values unknown at preview are judged once known.
 */
export function boundFailures(
  kind: string,
  olds: Record<string, unknown> | undefined,
  news: Record<string, unknown>,
  fields: Record<string, FieldRule>,
  failing: readonly CheckFailure[] = [],
): CheckFailure[] {
  let version;
  try {
    version = configuredApiVersion();
  } catch {
    return []; // versionFailures names the URL that names no version
  }
  const known: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(userProps(news))) if (!isUnknown(v)) known[k] = v;
  const deployed = olds && Object.keys(userProps(olds)).length > 0 ? olds : undefined;
  const changed = deployed ? changedFields(deployed, news, fields, version) : undefined;
  const replaces = changed?.some((key) => fields[key]?.replaces) ?? true;
  const skip = new Set(failing.map((f) => f.property));
  const judged = (field: string) => !skip.has(field) && (replaces || changed!.includes(field));
  return versionBoundProblems(kind, version, known, judged).map((p) => ({ property: p.field, reason: p.rule }));
}

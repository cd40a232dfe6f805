import { PLUGIN_NAME } from "../type-tokens";
import {
  describeTsType,
  type EnumTypeSpec,
  type JsonSchema,
  type ObjectTypeSpec,
  type PropertySpec,
  type TypeSpec,
} from "./schema-types";
import type { TsType } from "./ts-types";

/*
 * One property's schema type, from its TypeScript type (`Args` or the class) and, for inputs, the
 * JSON Schema of check's zod schema: the two must say the same thing, or generation fails naming
 * the property and both.
 */

/** The largest safe integer: zod's `int()` bound, which says nothing to a user. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/** A zod property without `null` (a nullable field is an optional one to a program). */
function nonNull(zod: JsonSchema | undefined): JsonSchema | undefined {
  if (!zod?.anyOf) return zod;
  const rest = zod.anyOf.filter((z) => z.type !== "null");
  return rest.length === 1 ? rest[0] : { anyOf: rest };
}

/** Why the TypeScript type and check's schema disagree, or undefined when they agree. */
export function disagreement(ts: TsType, raw: JsonSchema | undefined): string | undefined {
  const zod = nonNull(raw);
  if (zod === undefined) return undefined;
  const says = `the Args say ${describeTsType(ts)}, check's schema says ${JSON.stringify(zod)}`;
  switch (ts.kind) {
    case "string": {
      if (zod.type !== "string") return says;
      const zodValues = zod.enum?.map(String);
      const closed = ts.values !== undefined && !ts.open;
      if (!closed && zodValues) return `${says}: check accepts only some strings`;
      if (closed && zodValues && [...ts.values!].sort().join("\n") !== [...zodValues].sort().join("\n")) return says;
      return undefined;
    }
    case "number":
      return zod.type === "number" || zod.type === "integer" ? undefined : says;
    case "boolean":
      return zod.type === "boolean" ? undefined : says;
    case "array":
      return zod.type === "array" ? disagreement(ts.items, zod.items) : says;
    case "map":
      return zod.type === "object" && typeof zod.additionalProperties === "object"
        ? disagreement(ts.values, zod.additionalProperties)
        : says;
    case "object":
      return zod.type === "object" ? undefined : says;
    case "archive":
      // check's schema takes the engine's struct of an archive as it comes (volume-files-source.ts judges it).
      return undefined;
    case "union": {
      const options = zod.anyOf;
      if (!options || options.length !== ts.members.length) return says;
      return ts.members.map((m, i) => disagreement(m, options[i])).find((d) => d !== undefined);
    }
  }
}

/** The enum and object types of the schema, by token, collected while properties are written. */
export type EnumTypes = Record<string, EnumTypeSpec | ObjectTypeSpec>;

/**
 * The name of an enum value in SDKs and generated programs (`ComputeType.GPU`,
 * `PodGpuTypePriority.Availability`): the value with its first letter in upper case and anything
 * but letters, digits and `_` as `_`. runpod-iac/plugin's enum objects (plugin/enums.ts) use the same.
 */
export function enumMemberName(value: string): string {
  const name = `${value.charAt(0).toUpperCase()}${value.slice(1)}`.replace(/[^A-Za-z0-9_]+/g, "_");
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/** The token of an enum type: `runpod-iac:index:<Name>`. */
export function enumToken(name: string): string {
  return `${PLUGIN_NAME}:index:${name}`;
}

/**
 * The schema type of a property: closed string sets become enum types (named after their
 * TypeScript alias, else `<owner><Property>`), open ones (GPU types, data centers: known values
 * or any string) plain strings; numbers are integers where check's schema says so.
 */
export function typeSpecOf(ts: TsType, zod: JsonSchema | undefined, owner: string, enums: EnumTypes): TypeSpec {
  const z = nonNull(zod);
  switch (ts.kind) {
    case "string": {
      if (!ts.values || ts.open) return { type: "string" };
      const name = ts.alias ?? owner;
      const token = enumToken(name);
      const values = ts.values.map((value) => ({ name: enumMemberName(value), value }));
      const existing = enums[token];
      if (existing && (existing.type !== "string" || JSON.stringify(existing.enum) !== JSON.stringify(values))) {
        throw new Error(`enum type ${name} is declared twice with different values`);
      }
      enums[token] = { type: "string", enum: values };
      return { $ref: `#/types/${token}` };
    }
    case "number":
      return { type: ts.integer || z?.type === "integer" ? "integer" : "number" };
    case "boolean":
      return { type: "boolean" };
    case "array":
      return { type: "array", items: typeSpecOf(ts.items, z?.items, owner, enums) };
    case "map": {
      const values = typeof z?.additionalProperties === "object" ? z.additionalProperties : undefined;
      return { type: "object", additionalProperties: typeSpecOf(ts.values, values, owner, enums) };
    }
    case "union":
      return { oneOf: ts.members.map((m, i) => typeSpecOf(m, z?.anyOf?.[i], owner, enums)) };
    case "archive":
      return { $ref: "pulumi.json#/Archive" };
    case "object": {
      const name = ts.name ?? owner;
      const token = enumToken(name);
      const spec = objectTypeSpec(ts.properties, name, z, enums);
      const existing = enums[token];
      if (existing && JSON.stringify(existing) !== JSON.stringify(spec)) {
        throw new Error(`object type ${name} is declared twice with different properties`);
      }
      enums[token] = spec;
      return { $ref: `#/types/${token}` };
    }
  }
}

/**
 * An object type of the schema from its TypeScript properties (an interface's, a type literal's,
 * a function's arguments or result): each property typed, documented and bounded as a resource's.
 */
export function objectTypeSpec(
  props: readonly { name: string; optional: boolean; doc: string; type: TsType }[],
  owner: string,
  zod: JsonSchema | undefined,
  enums: EnumTypes,
): ObjectTypeSpec {
  const properties: Record<string, PropertySpec> = {};
  for (const p of props) {
    const z = zod?.properties?.[p.name];
    const description = [p.doc, boundsText(z)].filter(Boolean).join("\n\n");
    properties[p.name] = {
      ...typeSpecOf(p.type, z, `${owner}${p.name[0]!.toUpperCase()}${p.name.slice(1)}`, enums),
      ...(description ? { description } : {}),
    };
  }
  const required = props.filter((p) => !p.optional).map((p) => p.name);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

/** What check's schema bounds, in words (`Validated at preview: ...`), or undefined when nothing. */
export function boundsText(zod: JsonSchema | undefined): string | undefined {
  const z = nonNull(zod);
  if (!z) return undefined;
  const rules: string[] = [];
  if (z.minimum !== undefined && z.maximum !== undefined && z.maximum !== NO_BOUND) {
    rules.push(`from ${z.minimum} to ${z.maximum}`);
  } else if (z.minimum !== undefined) rules.push(`at least ${z.minimum}`);
  else if (z.maximum !== undefined && z.maximum !== NO_BOUND) rules.push(`at most ${z.maximum}`);
  if (z.type === "integer") rules.unshift("a whole number");
  if (z.minLength !== undefined && z.minLength > 0) rules.push("not empty");
  if (z.maxLength !== undefined) rules.push(`at most ${z.maxLength} characters`);
  return rules.length > 0 ? `Checked at preview: ${rules.join(", ")}.` : undefined;
}

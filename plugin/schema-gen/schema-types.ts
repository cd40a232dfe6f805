import type { TsType } from "./ts-types";

/*
 * Types of a Pulumi package schema (the parts this package writes), and a resource's properties
 * as the zod schema of its `check` describes them (its JSON Schema, from `z.toJSONSchema`).
 */

/** A Pulumi schema type (`TypeSpec`). */
export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

/** A Pulumi schema property (`PropertySpec`). */
export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
  default?: string;
  defaultInfo?: { environment: string[] };
}

/** A Pulumi schema enum type: each value with the name SDKs and generated programs give it. */
export interface EnumTypeSpec {
  type: "string";
  properties?: never;
  description?: string;
  enum: { name: string; value: string }[];
}

/** A Pulumi schema object type (`ObjectTypeSpec`): named properties, some required. */
export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** A Pulumi schema function (`FunctionSpec`): an invoke, its inputs and its outputs. */
export interface FunctionSpec {
  description: string;
  inputs: ObjectTypeSpec;
  outputs: ObjectTypeSpec;
}

/** A Pulumi schema resource (`ResourceSpec`). */
export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
  aliases: { type: string }[];
}

/** The package schema this package writes. */
export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  license: string;
  /** The project's page (registry-metadata.ts: all four from package.json's `repository`). */
  homepage?: string;
  repository?: string;
  publisher?: string;
  logoUrl?: string;
  /** Where the engine downloads the plugin when it is not installed. */
  pluginDownloadURL?: string;
  meta: { moduleFormat: string };
  language: Record<string, Record<string, unknown>>;
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  types: Record<string, EnumTypeSpec | ObjectTypeSpec>;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
}

/** A property of a JSON Schema, as `z.toJSONSchema` writes the ones of check's schemas. */
export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A TypeScript type in words, for errors. */
export function describeTsType(type: TsType): string {
  switch (type.kind) {
    case "string":
      return type.values && !type.open ? type.values.map((v) => JSON.stringify(v)).join(" | ") : "string";
    case "array":
      return `${describeTsType(type.items)}[]`;
    case "map":
      return `Record<string, ${describeTsType(type.values)}>`;
    case "union":
      return type.members.map(describeTsType).join(" | ");
    case "object":
      return type.name ?? "object";
    case "archive":
      return "pulumi.asset.Archive";
    default:
      return type.kind;
  }
}

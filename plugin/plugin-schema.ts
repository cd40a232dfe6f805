import * as fs from "node:fs";
import * as path from "node:path";
import type { RunpodResourceType } from "../provider/runpod-resource";
import { packageRoot } from "./package-root";
import { pluginTypeToken } from "./type-tokens";

/**
 * The plugin's Pulumi package schema, `plugin/schema.json`, generated from the field tables, the
 * resources' `Args` and classes, and the zod schemas (`npm run gen:schema`; plugin/schema-gen/).
 * The plugin serves it (`pulumi package get-schema runpod-iac`), and both the plugin and the
 * plugin-backed TypeScript classes read from it which properties are outputs and which are secret,
 * so that is declared once.
 */

/** The parts of a property of the schema the plugin reads. */
interface PropertySpec {
  secret?: boolean;
}

/** The parts of a resource of the schema the plugin reads. */
interface ResourceSpec {
  properties: Record<string, PropertySpec>;
  inputProperties: Record<string, PropertySpec>;
}

/** What the plugin and the TypeScript classes read of one resource's schema. */
export interface ResourceShape {
  /** Its output properties. */
  readonly outputs: readonly string[];
  /** Outputs that are always secret, whatever the program marks. */
  readonly secretOutputs: readonly string[];
  /** Inputs that are always secret (a registry password). */
  readonly secretInputs: readonly string[];
}

/** Where the schema lives: `plugin/schema.json` of the package (the source folder, not `dist/`). */
export function schemaPath(): string {
  return path.join(packageRoot(), "plugin", "schema.json");
}

let text: string | undefined;
const shapes = new Map<RunpodResourceType, ResourceShape>();

/**
 * Serves `schema` instead of the file: the standalone plugin carries its schema inside its
 * executable, with no package folder to read it from. Call before the first request.
 */
export function useSchemaText(schema: string): void {
  text = schema;
  shapes.clear();
}

/** The schema as JSON text, read once. */
export function schemaText(): string {
  text ??= fs.readFileSync(schemaPath(), "utf8");
  return text;
}

/** What the schema says of `type`'s properties. */
export function resourceShape(type: RunpodResourceType): ResourceShape {
  let shape = shapes.get(type);
  if (shape) return shape;
  const spec = (JSON.parse(schemaText()) as { resources: Record<string, ResourceSpec> }).resources[
    pluginTypeToken(type)
  ];
  if (!spec) throw new Error(`${schemaPath()} has no resource ${pluginTypeToken(type)}: run npm run gen:schema`);
  const secret = (props: Record<string, PropertySpec>) =>
    Object.entries(props)
      .filter(([, p]) => p.secret === true)
      .map(([k]) => k);
  shape = {
    outputs: Object.keys(spec.properties),
    secretOutputs: secret(spec.properties),
    secretInputs: secret(spec.inputProperties),
  };
  shapes.set(type, shape);
  return shape;
}

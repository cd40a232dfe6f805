import { BOOKKEEPING_INPUTS as BOOKKEEPING_NAMES } from "../../provider/field-rule-types";
import type { FieldRule } from "../../provider/field-rules";
import { typeToken } from "../../provider/runpod-resource";
import { RESOURCE_KINDS } from "../../sdk/resource-kinds";
import { VERSION_BOUNDS, type VersionBounds } from "../../sdk/schemas/version-bounds";
import type { PluginConfigKey } from "../plugin-config";
import { PLUGIN_NAME, pluginTypeToken } from "../type-tokens";
import type { FunctionFacts } from "./function-sources";
import { boundsText, disagreement, type EnumTypes, objectTypeSpec, typeSpecOf } from "./property-specs";
import type { ResourceSource } from "./read-sources";
import type { FunctionSpec, JsonSchema, PackageSchema, PropertySpec, ResourceSpec } from "./schema-types";
import type { TsProperty } from "./ts-types";

/** Inputs that are bookkeeping, not platform fields: in the `Args`, but in no field table. */
const BOOKKEEPING_INPUTS: ReadonlySet<string> = new Set(BOOKKEEPING_NAMES);

/** Everything the schema of one resource is generated from. */
export interface ResourceFacts extends ResourceSource {
  /** Its field table (field-rules.ts): which inputs replace. */
  fields: Readonly<Record<string, FieldRule>>;
  /** Check's zod schema as JSON Schema (`z.toJSONSchema`, input side). */
  zod: JsonSchema;
}

/** The package-level facts: version and description (package.json), configuration (plugin-config.ts). */
export interface PackageFacts {
  version: string;
  description: string;
  license: string;
  config: Readonly<Record<string, PluginConfigKey & { doc: string }>>;
}

/** Where the field table, the `Args` and check's schema of a resource disagree, one line each. */
export function resourceProblems(r: ResourceFacts): string[] {
  const problems: string[] = [];
  const inputs = new Map(r.inputs.map((p) => [p.name, p]));
  for (const key of Object.keys(r.fields)) {
    if (!inputs.has(key)) problems.push(`${r.type}: the field table has ${key}, ${r.type}Args has no such input`);
  }
  for (const name of inputs.keys()) {
    if (!BOOKKEEPING_INPUTS.has(name) && !(name in r.fields)) {
      problems.push(`${r.type}: ${r.type}Args has ${name}, the field table has no rule for it`);
    }
  }
  for (const [name, zod] of Object.entries(r.zod.properties ?? {})) {
    const input = inputs.get(name);
    if (!input) problems.push(`${r.type}: check's schema has ${name}, ${r.type}Args has no such input`);
    else {
      const why = disagreement(input.type, zod);
      if (why) problems.push(`${r.type}.${name}: ${why}`);
    }
  }
  const outputs = new Set(r.outputs.map((p) => p.name));
  for (const name of r.secretOutputs)
    if (!outputs.has(name)) problems.push(`${r.type}: secret output ${name} is no output`);
  for (const name of r.secretInputs)
    if (!inputs.has(name)) problems.push(`${r.type}: secret input ${name} is no input`);
  return problems;
}

/** Where a function's arguments (its `Args` interface) and the zod schema they are checked with disagree. */
export function functionProblems(f: FunctionFacts): string[] {
  const problems: string[] = [];
  const args = new Map(f.args.map((p) => [p.name, p]));
  for (const [name, zod] of Object.entries(f.zod.properties ?? {})) {
    const arg = args.get(name);
    if (!arg) problems.push(`${f.name}: its argument schema has ${name}, its Args have no such field`);
    else {
      const why = disagreement(arg.type, zod);
      if (why) problems.push(`${f.name}.${name}: ${why}`);
    }
  }
  for (const name of args.keys()) {
    if (!(name in (f.zod.properties ?? {})))
      problems.push(`${f.name}: its Args have ${name}, its argument schema has not`);
  }
  return problems;
}

/** The schema of one function: its arguments as inputs (with their bounds), its result as outputs. */
function functionSpec(f: FunctionFacts, enums: EnumTypes): FunctionSpec {
  const owner = `${f.name[0]!.toUpperCase()}${f.name.slice(1)}`;
  return {
    description: f.doc,
    inputs: objectTypeSpec(f.args, `${owner}Args`, f.zod, enums),
    outputs: objectTypeSpec(f.result, `${owner}Result`, undefined, enums),
  };
}

/** `doc`, check's bounds and the bounds each API version puts on the input, as a schema description. */
function description(doc: string, zod: JsonSchema | undefined, versionBounds?: VersionBounds): string {
  return [doc, boundsText(zod), versionBoundsText(versionBounds)].filter(Boolean).join("\n\n");
}

/** The bounds one API version puts on an input beyond check's schema, in words, per version. */
export function versionBoundsText(bounds: VersionBounds | undefined): string | undefined {
  const said = Object.entries(bounds ?? {}).flatMap(([version, b]) => {
    const unit = b.unit ? ` ${b.unit}` : "";
    const rules = [
      b.min !== undefined && b.max !== undefined ? `from ${b.min} to ${b.max}${unit}` : undefined,
      b.min !== undefined && b.max === undefined ? `at least ${b.min}${unit}` : undefined,
      b.max !== undefined && b.min === undefined ? `at most ${b.max}${unit}` : undefined,
      b.minLength !== undefined ? (b.minLength === 1 ? "not empty" : `at least ${b.minLength} characters`) : undefined,
      b.maxLength !== undefined ? `at most ${b.maxLength} characters` : undefined,
      b.minItems !== undefined ? `at least ${b.minItems} item${b.minItems === 1 ? "" : "s"}` : undefined,
      b.maxItems !== undefined ? `at most ${b.maxItems} items` : undefined,
      b.none ? `${b.none.value} for ${b.none.means}` : undefined,
    ].filter((r): r is string => r !== undefined);
    if (rules.length === 0) return [];
    return [`management API ${version}${b.appliesTo ? ` (${b.appliesTo.where})` : ""}: ${rules.join(", ")}`];
  });
  return said.length > 0 ? `Checked at preview on ${said.join("; on ")}.` : undefined;
}

/**
 * The bounds each API version puts on input `name` of resource `type` (`VERSION_BOUNDS`, keyed by
 * the client's name of the kind, else the kind's name in lower camel case: `cluster`).
 */
function versionBoundsOf(type: string, name: string): VersionBounds | undefined {
  const facts = (RESOURCE_KINDS as Readonly<Record<string, { clientKind?: string }>>)[type];
  const kind = facts?.clientKind ?? `${type[0]!.toLowerCase()}${type.slice(1)}`;
  return VERSION_BOUNDS[kind]?.[name];
}

/** The schema properties of `props`. */
function propertiesOf(
  r: ResourceFacts,
  props: readonly TsProperty[],
  secrets: readonly string[],
  enums: EnumTypes,
  withBounds: boolean,
): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const p of props) {
    const zod = r.zod.properties?.[p.name];
    const owner = `${r.type}${p.name[0]!.toUpperCase()}${p.name.slice(1)}`;
    out[p.name] = {
      ...typeSpecOf(p.type, zod, owner, enums),
      description: withBounds ? description(p.doc, zod, versionBoundsOf(r.type, p.name)) : p.doc,
      ...(secrets.includes(p.name) ? { secret: true } : {}),
      ...(r.fields[p.name]?.replaces ? { replaceOnChanges: true } : {}),
    };
  }
  return out;
}

/** The schema of one resource. */
function resourceSpec(r: ResourceFacts, enums: EnumTypes): ResourceSpec {
  const required = r.outputs.filter((p) => !p.optional).map((p) => p.name);
  const requiredInputs = r.inputs.filter((p) => !p.optional).map((p) => p.name);
  return {
    description: r.doc,
    properties: propertiesOf(r, r.outputs, r.secretOutputs, enums, false),
    // Empty lists are left out, as Pulumi writes a schema.
    ...(required.length > 0 ? { required } : {}),
    inputProperties: propertiesOf(r, r.inputs, r.secretInputs, enums, true),
    ...(requiredInputs.length > 0 ? { requiredInputs } : {}),
    // A stack of the dynamic resources moves to the plugin's types with no change (docs/languages.md).
    aliases: [{ type: typeToken(r.type) }],
  };
}

/** The plugin's configuration as schema properties. */
function configSpec(config: PackageFacts["config"]): Record<string, PropertySpec> {
  return Object.fromEntries(
    Object.entries(config).map(([key, c]) => [
      key,
      {
        type: "string",
        description: `${c.doc}\n\nStack config \`${PLUGIN_NAME}:${key}\`, else the environment variable \`${c.env}\`.`,
        ...(c.secret ? { secret: true } : {}),
        ...(c.default !== undefined ? { default: c.default } : {}),
        defaultInfo: { environment: [c.env] },
      },
    ]),
  );
}

/**
 * The package schema of the plugin, from each resource's facts; an error listing every
 * disagreement between a field table, an `Args` and a check schema.
 */
export function buildSchema(
  resources: readonly ResourceFacts[],
  pkg: PackageFacts,
  functions: readonly FunctionFacts[] = [],
): PackageSchema {
  const problems = [...resources.flatMap(resourceProblems), ...functions.flatMap(functionProblems)];
  if (problems.length > 0) throw new Error(`the plugin schema cannot be generated:\n  ${problems.join("\n  ")}`);
  const enums: EnumTypes = {};
  const specs = Object.fromEntries(resources.map((r) => [pluginTypeToken(r.type), resourceSpec(r, enums)]));
  const functionSpecs = Object.fromEntries(
    functions.map((f) => [`${PLUGIN_NAME}:index:${f.name}`, functionSpec(f, enums)]),
  );
  const config = configSpec(pkg.config);
  return {
    name: PLUGIN_NAME,
    displayName: "RunPod (runpod-iac)",
    version: pkg.version,
    description: pkg.description,
    keywords: ["pulumi", "runpod", "gpu", "serverless", "category/cloud", "kind/native"],
    license: pkg.license,
    meta: { moduleFormat: "(.*)" },
    language: {
      // Code `pulumi import` prints for a TypeScript program imports the plugin-backed classes.
      nodejs: { packageName: "runpod-iac/plugin" },
      python: { packageName: "pulumi_runpod_iac" },
      go: { rootPackageName: "runpodiac" },
    },
    config: { variables: config },
    provider: {
      description: `The ${PLUGIN_NAME} provider: the API key and addresses it talks to the platform with.`,
      inputProperties: config,
    },
    types: Object.fromEntries(Object.entries(enums).sort(([a], [b]) => a.localeCompare(b))),
    resources: specs,
    functions: functionSpecs,
  };
}

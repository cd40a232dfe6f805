import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { type FieldRule, ruleSentences, versionSentence } from "../../provider/field-rule-types";
import { RESOURCE_KINDS } from "../../sdk/resource-kinds";
import { VERSION_ONLY_FIELDS } from "../../sdk/schemas/api-version-fields";
import { FIELD_RULES } from "../../provider/field-rules";
import { packageRoot } from "../package-root";
import { PLUGIN_CONFIG } from "../plugin-config";
import { projectHome } from "../project-home";
import { PLUGIN_RESOURCES, type PluginResourceType } from "../plugin-resources";
import { buildSchema, type ResourceFacts } from "./build-schema";
import { enumsSource } from "./enums-source";
import { functionSourceFiles, readFunctionFacts } from "./function-sources";
import { type ResourceSource, readResourceSource, sourceProgram } from "./read-sources";
import { readExamples } from "./examples";
import { withRegistryDocs, withRegistryMetadata } from "./registry-metadata";
import type { JsonSchema, PackageSchema } from "./schema-types";
import { docOf, type TsProperty } from "./ts-types";

/** The docs of the client options the plugin's configuration keys set (`RunpodClientOptions` in sdk/config.ts). */
function configDocs(program: ts.Program, root: string): Record<string, string> {
  const file = program.getSourceFile(path.join(root, "sdk", "config.ts"));
  const docs: Record<string, string> = {};
  if (!file) return docs;
  ts.forEachChild(file, (node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== "RunpodClientOptions") return;
    for (const m of node.members.filter(ts.isPropertySignature))
      docs[m.name.getText()] = docOf(m, program.getTypeChecker());
  });
  return docs;
}

/**
 * A resource's sources with what each input's rule says (its tags: `@replaces`, `@unordered`, ...)
 * added to the doc of the input and of the output that repeats it, in words: the tags are no part
 * of a doc comment's text, and the SDKs' docs say it only this way.
 */
function withRuleWords(source: ResourceSource, fields: Readonly<Record<string, FieldRule>>): ResourceSource {
  const clientKind = (RESOURCE_KINDS[source.type] as { clientKind?: string }).clientKind;
  const versions = clientKind ? (VERSION_ONLY_FIELDS[clientKind] ?? {}) : {};
  const words = (p: TsProperty): TsProperty => {
    const rule = fields[p.name];
    if (!rule) return p;
    const version = Object.prototype.hasOwnProperty.call(versions, p.name) ? versions[p.name] : undefined;
    const sentences = [
      ...ruleSentences(rule, source.type),
      ...(version ? [versionSentence(version.only, version.neutral)] : []),
    ];
    return { ...p, doc: [p.doc, ...sentences].filter(Boolean).join(" ") };
  };
  const inputs = new Set(source.inputs.map((p) => p.name));
  return {
    ...source,
    inputs: source.inputs.map(words),
    outputs: source.outputs.map((p) => (inputs.has(p.name) ? words(p) : p)),
  };
}

/** Each resource's facts: its sources, its field table, and check's zod schema as JSON Schema. */
export function resourceFacts(program: ts.Program, root: string): ResourceFacts[] {
  return (Object.keys(PLUGIN_RESOURCES) as PluginResourceType[]).map((type) => ({
    ...withRuleWords(readResourceSource(program, root, type), FIELD_RULES[type]),
    fields: FIELD_RULES[type],
    zod: z.toJSONSchema(PLUGIN_RESOURCES[type].inputs, { io: "input", unrepresentable: "any" }) as JsonSchema,
  }));
}

/** The plugin's schema, generated from the sources of the package at `root`. */
export function generateSchema(root: string = packageRoot()): PackageSchema {
  const types = Object.keys(PLUGIN_RESOURCES);
  const program = sourceProgram(root, types, [path.join(root, "sdk", "config.ts"), ...functionSourceFiles(root)]);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Record<string, string> & {
    repository?: unknown;
  };
  const docs = configDocs(program, root);
  const config = Object.fromEntries(
    Object.entries(PLUGIN_CONFIG).map(([key, c]) => {
      if (!docs[key]) throw new Error(`sdk/config.ts: RunpodClientOptions has no documented ${key}`);
      return [key, { ...c, doc: docs[key] }];
    }),
  );
  const schema = buildSchema(
    resourceFacts(program, root),
    {
      version: pkg.version!,
      description: pkg.description!,
      license: pkg.license!,
      config,
    },
    readFunctionFacts(program, root),
  );
  const names = [...Object.keys(schema.resources), ...Object.keys(schema.functions)].map((t) =>
    t.slice(t.lastIndexOf(":") + 1),
  );
  const writeOnly = Object.fromEntries(
    Object.entries(PLUGIN_RESOURCES).map(([type, entry]) => [type, (entry.writeOnly ?? []) as readonly string[]]),
  );
  return withRegistryMetadata(
    withRegistryDocs(schema, readExamples(root, names), writeOnly),
    projectHome(pkg.repository),
  );
}

/** The schema as the committed file holds it. */
export function schemaFileText(schema: PackageSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** The generated files of the package at `root`, by path: plugin/schema.json and plugin/enums.ts. */
export function generatedFiles(root: string = packageRoot()): Record<string, string> {
  const schema = generateSchema(root);
  return {
    [path.join(root, "plugin", "schema.json")]: schemaFileText(schema),
    [path.join(root, "plugin", "enums.ts")]: enumsSource(schema),
  };
}

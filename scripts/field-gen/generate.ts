import * as fs from "node:fs";
import * as path from "node:path";
import * as prettier from "prettier";
import { packageRoot } from "../../plugin/package-root";
import { sourceProgram } from "../../plugin/schema-gen/read-sources";
import { RESOURCE_KIND_NAMES } from "../../sdk/resource-kinds";
import { clientFieldsSource } from "./client-source";
import { withFieldTables } from "./docs-tables";
import { readFieldDeclarations } from "./read-fields";
import { fieldTablesSource, type KindFields } from "./tables-source";

/*
 * `npm run gen:fields`: what the fields' declarations (the JSDoc tags of each resource's `Args`)
 * are written into. Each file is committed; a unit test fails when one is stale.
 */

/** Every kind's fields, as its `Args` declares them. */
export function readKindFields(root: string = packageRoot()): KindFields {
  const program = sourceProgram(root, RESOURCE_KIND_NAMES);
  return RESOURCE_KIND_NAMES.map((kind) => ({ kind, fields: readFieldDeclarations(program, root, kind) }));
}

/** TypeScript as Prettier writes it with the repository's settings (what `prettier --check` expects). */
async function formatted(file: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

/** The generated files of the package at `root`, by path, with the text each must hold. */
export async function generatedFieldFiles(root: string = packageRoot()): Promise<Record<string, string>> {
  const kinds = readKindFields(root);
  const tables = path.join(root, "provider", "field-rules.ts");
  const resources = path.join(root, "docs", "resources.md");
  const client = path.join(root, "sdk", "schemas", "resource-fields.ts");
  return {
    [tables]: await formatted(tables, fieldTablesSource(kinds)),
    [client]: await formatted(client, clientFieldsSource(kinds)),
    [resources]: withFieldTables(fs.readFileSync(resources, "utf8"), kinds),
  };
}

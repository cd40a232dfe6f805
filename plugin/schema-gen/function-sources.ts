import * as path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { CATALOG_FUNCTIONS } from "../../provider/catalog-functions";
import type { CatalogFunctionName } from "../../provider/catalog-types";
import type { JsonSchema } from "./schema-types";
import { docOf, type TsProperty, tsTypeOf } from "./ts-types";

/**
 * What the sources say of the catalog functions, which the schema serves as functions (invokes):
 * each function's doc (its declaration in provider/catalog.ts), its arguments and result (the
 * interfaces `<Name>Args` and `<Name>Result` of provider/catalog-types.ts), and the zod schema its
 * arguments are checked with (catalog-functions.ts), as JSON Schema.
 */
export interface FunctionFacts {
  name: CatalogFunctionName;
  doc: string;
  args: TsProperty[];
  result: TsProperty[];
  zod: JsonSchema;
}

/** The source files the function facts are read from, for the compiler program. */
export function functionSourceFiles(root: string): string[] {
  return [path.join(root, "provider", "catalog.ts"), path.join(root, "provider", "catalog-types.ts")];
}

/** The properties of interface `name` in `file`; an error naming both when there is none. */
function interfaceProperties(file: ts.SourceFile, name: string, checker: ts.TypeChecker): TsProperty[] {
  let found: ts.InterfaceDeclaration | undefined;
  ts.forEachChild(file, (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) found = node;
  });
  if (!found) throw new Error(`${file.fileName}: no interface ${name}`);
  return found.members.filter(ts.isPropertySignature).map((m) => {
    if (!m.type) throw new Error(`${file.fileName}: ${name}.${m.name.getText()} has no type`);
    return {
      name: m.name.getText(),
      optional: m.questionToken !== undefined,
      doc: docOf(m, checker),
      type: tsTypeOf(m.type, checker),
    };
  });
}

/** Each catalog function's facts, in the order CATALOG_FUNCTIONS lists them. */
export function readFunctionFacts(program: ts.Program, root: string): FunctionFacts[] {
  const checker = program.getTypeChecker();
  const [catalogPath, typesPath] = functionSourceFiles(root) as [string, string];
  const catalog = program.getSourceFile(catalogPath);
  const types = program.getSourceFile(typesPath);
  if (!catalog || !types) throw new Error(`${catalogPath}, ${typesPath}: not found (the catalog functions' sources)`);
  return (Object.keys(CATALOG_FUNCTIONS) as CatalogFunctionName[]).map((name) => {
    let declaration: ts.FunctionDeclaration | undefined;
    ts.forEachChild(catalog, (node) => {
      if (ts.isFunctionDeclaration(node) && node.name?.text === name) declaration = node;
    });
    if (!declaration) throw new Error(`${catalogPath}: no function ${name}`);
    const base = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    return {
      name,
      doc: docOf(declaration as ts.FunctionDeclaration & { name: ts.Identifier }, checker),
      args: interfaceProperties(types, `${base}Args`, checker),
      result: interfaceProperties(types, `${base}Result`, checker),
      zod: z.toJSONSchema(CATALOG_FUNCTIONS[name].args, { io: "input", unrepresentable: "any" }) as JsonSchema,
    };
  });
}

import * as path from "node:path";
import ts from "typescript";
import type { RunpodResourceType } from "../../provider/runpod-resource";
import { admitsUndefined, docOf, type TsProperty, tsTypeOf } from "./ts-types";

/**
 * What the TypeScript sources of a resource say, read with the compiler at generation time: its
 * `Args` (inputs: names, optionality, types, docs), its class (outputs, declared as
 * `declare readonly x: pulumi.Output<T>`, and its doc) and the secrets its constructor marks
 * (`withSecretOutputs(opts, [...])`, `pulumi.secret(args.x)`).
 */
export interface ResourceSource {
  type: RunpodResourceType;
  /** The class's JSDoc. */
  doc: string;
  inputs: TsProperty[];
  outputs: TsProperty[];
  /** Outputs the class always marks secret. */
  secretOutputs: string[];
  /** Inputs the class always wraps in `pulumi.secret`. */
  secretInputs: string[];
}

/** The source file of a resource: `provider/<kebab-case type>.ts`. */
export function sourceFileOf(root: string, type: string): string {
  return path.join(root, "provider", `${type.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase()}.ts`);
}

/** A compiler program over the resources' source files, with the repository's compiler options. */
export function sourceProgram(root: string, types: readonly string[], more: readonly string[] = []): ts.Program {
  const configFile = ts.readConfigFile(path.join(root, "tsconfig.json"), (f) => ts.sys.readFile(f));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const compilerOptions = { ...options, noEmit: true };
  // With parent links, so that nodes know their text for error messages.
  const host = ts.createCompilerHost(compilerOptions, true);
  return ts.createProgram({
    rootNames: [...types.map((t) => sourceFileOf(root, t)), ...more],
    options: compilerOptions,
    host,
  });
}

/** The string literals of an array literal argument, e.g. `["env", "injectedEnv"]`. */
function stringsOf(node: ts.Expression | undefined): string[] {
  if (!node || !ts.isArrayLiteralExpression(node)) return [];
  return node.elements.filter(ts.isStringLiteral).map((e) => e.text);
}

/** The name of a called function (`f(...)` or `x.f(...)`). */
function calleeName(call: ts.CallExpression): string {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : "";
}

/** The secrets a constructor marks: outputs in `withSecretOutputs`, inputs in `x: pulumi.secret(args.x)`. */
function secretsOf(ctor: ts.ConstructorDeclaration): { outputs: string[]; inputs: string[] } {
  const outputs: string[] = [];
  const inputs: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && calleeName(node) === "withSecretOutputs")
      outputs.push(...stringsOf(node.arguments[1]));
    if (
      ts.isPropertyAssignment(node) &&
      ts.isCallExpression(node.initializer) &&
      calleeName(node.initializer) === "secret" &&
      ts.isIdentifier(node.name)
    ) {
      inputs.push(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ctor);
  return { outputs, inputs };
}

/** Reads a resource's `Args` interface (`<Type>Args`) and class (`<Type>`) from its source file. */
export function readResourceSource(program: ts.Program, root: string, type: RunpodResourceType): ResourceSource {
  const checker = program.getTypeChecker();
  const file = sourceFileOf(root, type);
  const sourceFile = program.getSourceFile(file);
  if (!sourceFile) throw new Error(`${file}: not found (the source file of resource ${type})`);
  let args: ts.InterfaceDeclaration | undefined;
  let cls: ts.ClassDeclaration | undefined;
  ts.forEachChild(sourceFile, (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === `${type}Args`) args = node;
    if (ts.isClassDeclaration(node) && node.name?.text === type) cls = node;
  });
  if (!args) throw new Error(`${file}: no interface ${type}Args`);
  if (!cls) throw new Error(`${file}: no class ${type}`);
  const inputs = args.members.filter(ts.isPropertySignature).map((m) => {
    if (!m.type) throw new Error(`${file}: ${type}Args.${m.name.getText()} has no type`);
    return {
      name: m.name.getText(),
      optional: m.questionToken !== undefined,
      doc: docOf(m, checker),
      type: tsTypeOf(m.type, checker),
    };
  });
  const outputs = cls.members
    .filter(ts.isPropertyDeclaration)
    .filter((m) => !m.modifiers?.some((mod) => mod.kind === ts.SyntaxKind.StaticKeyword))
    .map((m) => {
      if (!m.type) throw new Error(`${file}: ${type}.${m.name.getText()} has no type`);
      return {
        name: m.name.getText(),
        optional: admitsUndefined(m.type),
        doc: docOf(m, checker),
        type: tsTypeOf(m.type, checker),
      };
    });
  const ctor = cls.members.find(ts.isConstructorDeclaration);
  const secrets = ctor ? secretsOf(ctor) : { outputs: [], inputs: [] };
  return {
    type,
    doc: docOf(cls as ts.ClassDeclaration & { name: ts.Identifier }, checker),
    inputs,
    outputs,
    secretOutputs: secrets.outputs,
    secretInputs: secrets.inputs,
  };
}

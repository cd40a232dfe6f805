import * as path from "node:path";
import ts from "typescript";
import type { RunpodResourceType } from "../../provider/runpod-resource";
import { admitsUndefined, docOf, type TsProperty, tsTypeOf } from "./ts-types";

/**
 * What the TypeScript sources of a resource say, read with the compiler at generation time: its
 * `Args` (inputs: names, optionality, types, docs), its outputs (those that repeat an input, from
 * the interface merged into its class, `interface X extends InputsAsOutputs<XArgs, Always,
 * WhenSet>`, typed and documented as the input; the others declared on the class as
 * `declare readonly x: pulumi.Output<T>`), its class's doc and the secrets its constructor marks
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

/** The string literals a type node stands for (`"a" | "b"`, `Exclude<keyof X, "c">`), none for `never`. */
function keysOf(node: ts.TypeNode | undefined, checker: ts.TypeChecker): string[] {
  if (!node) return [];
  const type = checker.getTypeFromTypeNode(node);
  return (type.isUnion() ? type.types : [type]).filter((t) => t.isStringLiteral()).map((t) => t.value);
}

/**
 * The outputs that repeat inputs, from the interface merged into the class
 * (`extends InputsAsOutputs<Args, Always, WhenSet>`, provider/runpod-resource.ts): each typed and
 * documented as its input, `Always` never optional, `WhenSet` optional.
 */
function inputOutputsOf(
  merged: ts.InterfaceDeclaration | undefined,
  inputs: readonly TsProperty[],
  checker: ts.TypeChecker,
  file: string,
): TsProperty[] {
  const base = merged?.heritageClauses
    ?.flatMap((h) => h.types)
    .find((t) => ts.isIdentifier(t.expression) && t.expression.text === "InputsAsOutputs");
  if (!base) return [];
  const [, always, whenSet] = base.typeArguments ?? [];
  const input = (name: string, optional: boolean): TsProperty => {
    const found = inputs.find((i) => i.name === name);
    if (!found) throw new Error(`${file}: output ${name} of InputsAsOutputs is no input`);
    return { ...found, optional };
  };
  return [
    ...keysOf(always, checker).map((name) => input(name, false)),
    ...keysOf(whenSet, checker).map((name) => input(name, true)),
  ];
}

/** Reads a resource's `Args` interface (`<Type>Args`) and class (`<Type>`) from its source file. */
export function readResourceSource(program: ts.Program, root: string, type: RunpodResourceType): ResourceSource {
  const checker = program.getTypeChecker();
  const file = sourceFileOf(root, type);
  const sourceFile = program.getSourceFile(file);
  if (!sourceFile) throw new Error(`${file}: not found (the source file of resource ${type})`);
  let args: ts.InterfaceDeclaration | undefined;
  let cls: ts.ClassDeclaration | undefined;
  let merged: ts.InterfaceDeclaration | undefined;
  ts.forEachChild(sourceFile, (node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === `${type}Args`) args = node;
    if (ts.isInterfaceDeclaration(node) && node.name.text === type) merged = node;
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
  const declared = cls.members
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
  const outputs = [...inputOutputsOf(merged, inputs, checker, file), ...declared];
  // Declared twice, the schema would keep one of the two docs and types without saying which.
  const twice = outputs.find((o, i) => outputs.findIndex((p) => p.name === o.name) !== i);
  if (twice) throw new Error(`${file}: output ${twice.name} is both in InputsAsOutputs and declared on class ${type}`);
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

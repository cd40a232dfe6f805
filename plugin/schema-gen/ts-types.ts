import ts from "typescript";

/*
 * The TypeScript types of the resources' `Args` and outputs, as the schema generator models them:
 * `pulumi.Input`/`pulumi.Output` taken off, and only what a Pulumi schema can say.
 */

/** A property's type as declared in TypeScript. */
export type TsType =
  /** A string; `values` lists its literals, and `open` says whether any other string is allowed too. */
  | { kind: "string"; values?: readonly string[]; open: boolean; alias?: string }
  /** A number; `integer` when declared as the alias `Integer` (provider/runpod-resource.ts). */
  | { kind: "number"; integer?: boolean }
  | { kind: "boolean" }
  | { kind: "array"; items: TsType }
  | { kind: "map"; values: TsType }
  | { kind: "union"; members: readonly TsType[] }
  /** A Pulumi archive (`pulumi.asset.Archive`): the schema's `pulumi.json#/Archive`. */
  | { kind: "archive" }
  /** An object of named properties: an interface (`name`) or a type literal (named after its owner). */
  | { kind: "object"; name?: string; properties: readonly TsProperty[] };

/** A property of an `Args` interface or an output of a resource class. */
export interface TsProperty {
  name: string;
  /** Whether it may be left out (inputs: `?`; outputs: `undefined` among its types). */
  optional: boolean;
  /** Its JSDoc, as text. */
  doc: string;
  type: TsType;
}

/** Whether `node` is a reference to `pulumi.<name>` (or `<name>` imported from @pulumi/pulumi). */
function isPulumiWrapper(node: ts.TypeNode, name: "Input" | "Output"): node is ts.TypeReferenceNode {
  if (!ts.isTypeReferenceNode(node)) return false;
  const typeName = node.typeName;
  return ts.isQualifiedName(typeName) ? typeName.right.text === name : typeName.text === name;
}

/** Where a type cannot be expressed, with the text that was found. */
function unsupported(node: ts.Node, why: string): Error {
  return new Error(`${node.getSourceFile().fileName}: ${node.getText()}: ${why}`);
}

/** A string type from a (possibly aliased) union of string literals, with or without `string & {}`. */
function stringType(members: readonly ts.Type[], alias: string | undefined, node: ts.Node): TsType | undefined {
  const values: string[] = [];
  let open = false;
  for (const member of members) {
    if (member.isStringLiteral()) values.push(member.value);
    else if (member.flags & ts.TypeFlags.String) open = true;
    // `string & {}`: any other string, with the literals still shown by editors.
    else if (member.isIntersection() && member.types.some((t) => t.flags & ts.TypeFlags.String)) open = true;
    else return undefined;
  }
  if (values.length === 0 && !open) throw unsupported(node, "an empty string type");
  return { kind: "string", values: values.length > 0 ? values : undefined, open, ...(alias ? { alias } : {}) };
}

/** The members of a union type, or the type itself. */
function membersOf(type: ts.Type): readonly ts.Type[] {
  return type.isUnion() ? type.types : [type];
}

/** The properties of an interface or a type literal, each with its optionality, doc and type. */
function propertiesOf(members: ts.NodeArray<ts.TypeElement>, checker: ts.TypeChecker): TsProperty[] {
  return members.filter(ts.isPropertySignature).map((m) => {
    if (!m.type) throw unsupported(m, "a property without a type");
    return {
      name: m.name.getText(),
      // A property that may be null (the platform's "none": a GPU type no serverless pool holds)
      // is as optional as one that may be absent: SDKs must not require it.
      optional: m.questionToken !== undefined || admitsNone(m.type),
      doc: docOf(m, checker),
      type: tsTypeOf(m.type, checker),
    };
  });
}

/** Whether a type node admits `null` or `undefined` (through parentheses and `pulumi.Input`/`Output`). */
function admitsNone(node: ts.TypeNode): boolean {
  if (ts.isParenthesizedTypeNode(node)) return admitsNone(node.type);
  if (isPulumiWrapper(node, "Input") || isPulumiWrapper(node, "Output")) {
    const arg = node.typeArguments?.[0];
    return arg !== undefined && admitsNone(arg);
  }
  return (
    ts.isUnionTypeNode(node) &&
    node.types.some(
      (t) =>
        t.kind === ts.SyntaxKind.UndefinedKeyword ||
        (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
    )
  );
}

/** The model of a type node, `pulumi.Input<...>` and `pulumi.Output<...>` taken off at any depth. */
export function tsTypeOf(node: ts.TypeNode, checker: ts.TypeChecker): TsType {
  // `NonNullable<X>`: X, whose `undefined` the model leaves out anyway.
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === "NonNullable") {
    const arg = node.typeArguments?.[0];
    if (!arg) throw unsupported(node, "a NonNullable without a type argument");
    return tsTypeOf(arg, checker);
  }
  // `PodArgs["env"]`: the type as the property is declared (its doc stays the declaring property's).
  if (ts.isIndexedAccessTypeNode(node) && ts.isLiteralTypeNode(node.indexType)) {
    const key = node.indexType.literal;
    const declared = ts.isStringLiteral(key)
      ? checker.getTypeFromTypeNode(node.objectType).getProperty(key.text)?.valueDeclaration
      : undefined;
    if (!declared || !ts.isPropertySignature(declared) || !declared.type)
      throw unsupported(node, "an indexed type that names no declared property");
    return tsTypeOf(declared.type, checker);
  }
  if (ts.isTypeLiteralNode(node)) return { kind: "object", properties: propertiesOf(node.members, checker) };
  // `Integer` (provider/runpod-resource.ts): a number the schema says is whole, for outputs (inputs
  // take it from check's zod schema).
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === "Integer") {
    return { kind: "number", integer: true };
  }
  // `pulumi.asset.Archive` (or `asset.Archive`): an archive, which every SDK has a type for.
  if (
    ts.isTypeReferenceNode(node) &&
    ts.isQualifiedName(node.typeName) &&
    node.typeName.right.text === "Archive" &&
    node.typeName.left.getText().endsWith("asset")
  ) {
    return { kind: "archive" };
  }
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    const declaration = checker.getTypeFromTypeNode(node).getSymbol()?.declarations?.[0];
    if (declaration && ts.isInterfaceDeclaration(declaration)) {
      return { kind: "object", name: declaration.name.text, properties: propertiesOf(declaration.members, checker) };
    }
  }
  if (isPulumiWrapper(node, "Input") || isPulumiWrapper(node, "Output")) {
    const arg = node.typeArguments?.[0];
    if (!arg) throw unsupported(node, "a pulumi.Input or pulumi.Output without a type argument");
    return tsTypeOf(arg, checker);
  }
  if (ts.isParenthesizedTypeNode(node)) return tsTypeOf(node.type, checker);
  if (ts.isArrayTypeNode(node)) return { kind: "array", items: tsTypeOf(node.elementType, checker) };
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === "Record") {
    const [key, value] = node.typeArguments ?? [];
    if (!key || !value || key.kind !== ts.SyntaxKind.StringKeyword)
      throw unsupported(node, "a Record not keyed by string");
    return { kind: "map", values: tsTypeOf(value, checker) };
  }
  if (ts.isUnionTypeNode(node)) {
    // `undefined` and `null` (the platform's "none") both make a property optional, no more.
    const members = node.types.filter(
      (t) =>
        t.kind !== ts.SyntaxKind.UndefinedKeyword &&
        !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
    );
    const strings = members.filter((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal));
    // A union of string literals written out (`"SECURE" | "COMMUNITY"`) is one string type.
    if (members.length === 1) return tsTypeOf(members[0]!, checker);
    if (strings.length === members.length) {
      return (
        stringType(membersOf(checker.getTypeFromTypeNode(node)), undefined, node) ?? { kind: "string", open: true }
      );
    }
    return { kind: "union", members: members.map((m) => tsTypeOf(m, checker)) };
  }
  const type = checker.getTypeFromTypeNode(node);
  if (type.flags & ts.TypeFlags.NumberLike) return { kind: "number" };
  if (type.flags & ts.TypeFlags.BooleanLike) return { kind: "boolean" };
  const alias = ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) ? node.typeName.text : undefined;
  // `boolean | "OFF" | ...` behind an alias: a union of a boolean and a string type.
  if (type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.BooleanLike)) {
    const rest = type.types.filter((t) => !(t.flags & ts.TypeFlags.BooleanLike));
    const strings = stringType(rest, alias, node);
    if (strings) return { kind: "union", members: [{ kind: "boolean" }, strings] };
  }
  const strings = stringType(membersOf(type), alias, node);
  if (strings) return strings;
  throw unsupported(node, `a type the schema cannot express (${checker.typeToString(type)})`);
}

/** The JSDoc of a declaration as plain text: `{@link X}` written as `X`. */
export function docOf(
  node: ts.Declaration & { name?: ts.PropertyName | ts.BindingName },
  checker: ts.TypeChecker,
): string {
  const symbol = node.name ? checker.getSymbolAtLocation(node.name) : undefined;
  const parts = symbol?.getDocumentationComment(checker) ?? [];
  return (
    ts
      .displayPartsToString(parts)
      .replace(
        /\{@link\s+([^}\s|]+)(?:[\s|]+([^}]*))?\}/g,
        (_, target: string, text?: string) => text?.trim() || target,
      )
      // Lines wrapped in the source are one line of text; paragraphs and list items stay apart.
      .replace(/([^\n])\n(?![\n\-*]|\s*[-*] )/g, "$1 ")
      .trim()
  );
}

/** Whether a type node admits `undefined` (an output that is not always set). */
export function admitsUndefined(node: ts.TypeNode): boolean {
  if (isPulumiWrapper(node, "Output") || isPulumiWrapper(node, "Input")) {
    const arg = node.typeArguments?.[0];
    return arg !== undefined && admitsUndefined(arg);
  }
  return ts.isUnionTypeNode(node) && node.types.some((t) => t.kind === ts.SyntaxKind.UndefinedKeyword);
}

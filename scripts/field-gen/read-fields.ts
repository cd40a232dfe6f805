import ts from "typescript";
import type { ApiVersion } from "../../sdk/config";
import { sourceFileOf } from "../../plugin/schema-gen/read-sources";
import { docOf, tsTypeOf } from "../../plugin/schema-gen/ts-types";
import { BOOKKEEPING_INPUTS, FIELD_MEANINGS, type FieldMeaningName } from "../../provider/field-rule-types";

/*
 * Each input of a resource, read from its `Args` interface with the compiler: its doc comment and
 * the JSDoc tags that declare how it changes the resource, which API version carries it and what
 * it is called on v2's wire (the tags are listed in FIELD_TAGS). The one declaration of a field.
 */

/** The tags a field may carry, and what each says (docs/design.md, "Adding a field"). */
export const FIELD_TAGS = {
  replaces: "a change replaces the resource",
  resets: "a change resets the resource (a pod's container restarts, its container disk is wiped)",
  unordered: "a list compared as a set: a reorder is no change",
  orderedOn: "`@orderedOn v1`: a list whose order matters on that version only",
  meaning: "`@meaning <name>`: values compared after a meaning of FIELD_MEANINGS (field-rule-types.ts)",
  apiVersion: "`@apiVersion v2 <what>`: only that version carries it; <what> names it in the refusal",
  neutral: "`@neutral <JSON value>`: a value that means 'not used', accepted on the other version too",
  freeText: "text a user writes freely: a refusal names its shape, never its value",
  wire: "`@wire v2 <path>`: where v2's wire holds it (`*` for a list index); repeat for more paths",
} as const;

/** TSDoc's own tags, which a field's doc may use besides {@link FIELD_TAGS}. */
const STANDARD_TAGS = new Set(["example", "default", "defaultValue", "deprecated", "see", "remarks", "since"]);

/** What a field's tags say of its changes (a field rule, field-rule-types.ts). */
export interface DeclaredRule {
  replaces?: true;
  resets?: true;
  ordered?: false;
  orderedOnlyOn?: ApiVersion;
  meaning?: FieldMeaningName;
}

/** Which API version alone carries a field, and how the other version's refusal names it. */
export interface DeclaredVersion {
  only: ApiVersion;
  what: string;
  neutral?: unknown[];
  freeText?: true;
}

/** One input of a resource as its `Args` declares it. */
export interface FieldDeclaration {
  name: string;
  /** Its doc comment, without the tags. */
  doc: string;
  /** Bookkeeping (`adoptId`, the rollout settings): no platform field, in no table. */
  bookkeeping: boolean;
  rule: DeclaredRule;
  version?: DeclaredVersion;
  /** Its paths on v2's wire, when v2 names it otherwise. */
  wireV2: string[];
}

const VERSIONS: readonly string[] = ["v1", "v2"];

function tagText(tag: ts.JSDocTag): string {
  return (ts.getTextOfJSDocComment(tag.comment) ?? "").replace(/\s+/g, " ").trim();
}

/** Whether a property's type is a list (`pulumi.Input` taken off, as the schema generator models it). */
function isList(node: ts.TypeNode | undefined, checker: ts.TypeChecker): boolean {
  return node !== undefined && tsTypeOf(node, checker).kind === "array";
}

/** The declaration of one `Args` property, from its doc comment and tags; an error names the field and the tag. */
function declarationOf(member: ts.PropertySignature, checker: ts.TypeChecker, where: string): FieldDeclaration {
  const name = member.name.getText();
  const at = `${where}.${name}`;
  const rule: DeclaredRule = {};
  const wireV2: string[] = [];
  let version: DeclaredVersion | undefined;
  const neutral: unknown[] = [];
  let freeText = false;
  for (const tag of ts.getJSDocTags(member)) {
    const tagName = tag.tagName.text;
    const text = tagText(tag);
    const fail = (why: string) => new Error(`${at}: @${tagName}${text ? ` ${text}` : ""}: ${why}`);
    switch (tagName) {
      case "replaces":
      case "resets":
      case "unordered":
      case "freeText":
        if (text) throw fail("takes no text");
        if (tagName === "replaces") rule.replaces = true;
        else if (tagName === "resets") rule.resets = true;
        else if (tagName === "unordered") rule.ordered = false;
        else freeText = true;
        break;
      case "orderedOn":
        if (!VERSIONS.includes(text)) throw fail("names an API version: v1 or v2");
        rule.orderedOnlyOn = text as ApiVersion;
        break;
      case "meaning":
        if (!(text in FIELD_MEANINGS)) throw fail(`is none of ${Object.keys(FIELD_MEANINGS).join(", ")}`);
        rule.meaning = text as FieldMeaningName;
        break;
      case "apiVersion": {
        const [only, ...what] = text.split(" ");
        if (!VERSIONS.includes(only ?? "") || what.length === 0) throw fail("is `@apiVersion <v1|v2> <what>`");
        version = { only: only as ApiVersion, what: what.join(" ") };
        break;
      }
      case "neutral":
        try {
          neutral.push(JSON.parse(text));
        } catch {
          throw fail("is one JSON value");
        }
        break;
      case "wire": {
        const [on, path, ...rest] = text.split(" ");
        if (on !== "v2" || !path || rest.length > 0) throw fail("is `@wire v2 <path>`");
        wireV2.push(path);
        break;
      }
      default:
        if (!STANDARD_TAGS.has(tagName)) throw fail(`is no field tag (${Object.keys(FIELD_TAGS).join(", ")})`);
    }
  }
  if (rule.replaces && rule.resets) throw new Error(`${at}: @replaces and @resets together`);
  if ((rule.ordered === false || rule.orderedOnlyOn) && !isList(member.type, checker)) {
    throw new Error(`${at}: @unordered and @orderedOn are for lists`);
  }
  if (!version && (neutral.length > 0 || freeText)) throw new Error(`${at}: @neutral and @freeText need @apiVersion`);
  if (version && neutral.length > 0) version.neutral = neutral;
  if (version && freeText) version.freeText = true;
  const bookkeeping = (BOOKKEEPING_INPUTS as readonly string[]).includes(name);
  if (bookkeeping && (Object.keys(rule).length > 0 || version || wireV2.length > 0)) {
    throw new Error(`${at}: a bookkeeping input takes no field tag`);
  }
  return { name, doc: docOf(member, checker), bookkeeping, rule, ...(version ? { version } : {}), wireV2 };
}

/** The inputs of the resource `kind` (`<kind>Args` in provider/<kind>.ts), in declaration order. */
export function readFieldDeclarations(program: ts.Program, root: string, kind: string): FieldDeclaration[] {
  const file = sourceFileOf(root, kind);
  const sourceFile = program.getSourceFile(file);
  if (!sourceFile) throw new Error(`${file}: not found (the source file of resource ${kind})`);
  const args = sourceFile.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === `${kind}Args`,
  );
  if (!args) throw new Error(`${file}: no interface ${kind}Args`);
  const checker = program.getTypeChecker();
  return args.members.filter(ts.isPropertySignature).map((m) => declarationOf(m, checker, `${kind}Args`));
}

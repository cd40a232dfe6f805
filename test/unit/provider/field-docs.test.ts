import * as fs from "node:fs";
import { ROLLOUT_INPUTS } from "../../../provider/rollout-settings";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { FIELD_RULES, type FieldRule } from "../../../provider/field-rules";
import type { RunpodResourceType } from "../../../provider/runpod-resource";

/*
 * The field tables (provider/field-rules.ts) are what `diff` and `update` follow; the docs say the
 * same thing in words twice: the tables of docs/resources.md, and the REPLACES/RESETS of each
 * input's doc comment (what an editor shows). Both are checked against the tables here.
 */

const ROOT = path.resolve(__dirname, "../../..");
const TYPES = Object.keys(FIELD_RULES) as RunpodResourceType[];

/** How a change to an input applies. */
type Change = "in place" | "reset" | "replace" | "bookkeeping";

function changeOf(rule: FieldRule | undefined): Change {
  if (rule === undefined) return "bookkeeping";
  return rule.replaces ? "replace" : rule.resets ? "reset" : "in place";
}

/** What the field tables say of every input of `type`, `adoptId` as bookkeeping. */
function fromRules(type: RunpodResourceType): Record<string, Change> {
  const rules = FIELD_RULES[type] as Record<string, FieldRule>;
  const out: Record<string, Change> = Object.fromEntries(Object.keys(rules).map((k) => [k, changeOf(rules[k])]));
  // Every resource but the registry credential (which cannot be compared to adopt it) takes adoptId.
  if (type !== "ContainerRegistryAuth") out.adoptId = "bookkeeping";
  // Endpoints and templates take the rollout settings (provider/rollout-settings.ts).
  if (type === "ServerlessEndpoint" || type === "Template") for (const k of ROLLOUT_INPUTS) out[k] = "bookkeeping";
  return out;
}

/** What docs/resources.md's tables say: the change of each input, per resource, and any input named twice. */
interface DocTables {
  tables: Map<RunpodResourceType, Record<string, Change>>;
  duplicates: string[];
}

/**
 * The rows of docs/resources.md's table of each resource, as `{ input: change }`. A table belongs
 * to the resource whose name opens the paragraph above it (`` `NetworkVolume` (outputs: ...``) or
 * the heading above it (`## Pod`). A row names its inputs in backticks (`min*` stands for the
 * inputs of that prefix no row names); its second cell says the change: **replace**, a
 * **reset**, "ignored after creation" or "never sent" (bookkeeping), or else in place.
 */
function fromResourcesDoc(): DocTables {
  const lines = fs.readFileSync(path.join(ROOT, "docs", "resources.md"), "utf8").split("\n");
  const tables = new Map<RunpodResourceType, Record<string, Change>>();
  const duplicates: string[] = [];
  const wildcards: { type: RunpodResourceType; prefix: string; kind: Change }[] = [];
  let current: RunpodResourceType | undefined;
  let inTable = false;
  for (const line of lines) {
    const named = /^(?:## |`)(\w+)(?:`| *$)/.exec(line)?.[1];
    if (named && (TYPES as string[]).includes(named)) current = named as RunpodResourceType;
    else if (line.startsWith("#")) current = undefined;
    if (!line.startsWith("|")) {
      inTable = false;
      continue;
    }
    const cells = line.split(/(?<!\\)\|/).slice(1, -1);
    if (/^\s*input\s*$/.test(cells[0] ?? "")) {
      inTable = current !== undefined && !tables.has(current);
      if (inTable) tables.set(current!, {});
      continue;
    }
    if (!inTable || /^\s*-+\s*$/.test(cells[0] ?? "")) continue;
    const change = cells[1] ?? "";
    const kind: Change = /\*\*replace\*\*/.test(change)
      ? "replace"
      : /\*\*reset\*\*/.test(change)
        ? "reset"
        : /ignored after creation|never sent/.test(change)
          ? "bookkeeping"
          : "in place";
    const table = tables.get(current!)!;
    for (const [, input] of cells[0]!.matchAll(/`([\w*]+)`/g)) {
      if (input!.endsWith("*")) wildcards.push({ type: current!, prefix: input!.slice(0, -1), kind });
      else if (input! in table) duplicates.push(`${current}.${input}`);
      else table[input!] = kind;
    }
  }
  for (const { type, prefix, kind } of wildcards) {
    const table = tables.get(type)!;
    for (const input of Object.keys(fromRules(type)))
      if (input.startsWith(prefix) && !(input in table)) table[input] = kind;
  }
  return { tables, duplicates };
}

/** The doc comment of each property of `<type>Args`, from the resource's source file. */
function argsDocs(type: RunpodResourceType): Record<string, string> {
  const file = type.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? "" : "-") + c.toLowerCase());
  const source = path.join(ROOT, "provider", `${file}.ts`);
  const sf = ts.createSourceFile(source, fs.readFileSync(source, "utf8"), ts.ScriptTarget.Latest, true);
  const args = sf.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === `${type}Args`,
  );
  if (!args) throw new Error(`${source} declares no ${type}Args`);
  const docs: Record<string, string> = {};
  for (const member of args.members) {
    if (!ts.isPropertySignature(member)) continue;
    const comments = ts.getJSDocCommentsAndTags(member).map((d) => d.getText(sf));
    docs[(member.name as ts.Identifier).text] = comments.join("\n");
  }
  return docs;
}

describe("docs/resources.md's tables of how each input changes", () => {
  const { tables, duplicates } = fromResourcesDoc();

  it("names each input in one row only", () => {
    expect(duplicates).toEqual([]);
  });

  it.each(TYPES)("%s: every input in one row, with the change its field rule makes", (type) => {
    expect(tables.get(type), `docs/resources.md has no table of ${type}`).toBeDefined();
    expect(tables.get(type)).toEqual(fromRules(type));
  });
});

describe("each input's doc comment", () => {
  it.each(TYPES)("%s: says REPLACES exactly where a change replaces, RESETS where it resets", (type) => {
    const docs = argsDocs(type);
    const rules = fromRules(type);
    expect(Object.keys(docs).sort()).toEqual(Object.keys(rules).sort());
    const tag = (doc: string) => (/\bREPLACES\b/.test(doc) ? "replace" : /\bRESETS\b/.test(doc) ? "reset" : "-");
    const said = Object.fromEntries(Object.entries(docs).map(([input, doc]) => [input, tag(doc)]));
    const expected = Object.fromEntries(
      Object.entries(rules).map(([input, change]) => [
        input,
        change === "replace" || change === "reset" ? change : "-",
      ]),
    );
    expect(said).toEqual(expected);
  });
});

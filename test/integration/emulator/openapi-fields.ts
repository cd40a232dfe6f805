import { readFileSync } from "node:fs";
import path from "node:path";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Doc = { components: { schemas: Record<string, Schema> } };

const load = (file: string) => JSON.parse(readFileSync(path.join(__dirname, "fixtures", file), "utf8")) as Doc;
const DOCS = { v1: load("management-api-v1.openapi.json"), v2: load("management-api-v2.openapi.json") };

function resolve(doc: Doc, schema: Schema): Schema {
  let s = schema;
  while (s.$ref) s = doc.components.schemas[s.$ref.split("/").pop()!]!;
  return s;
}

/** The properties a schema documents, its `allOf` parts merged. */
function propertiesOf(doc: Doc, schema: Schema): Record<string, Schema> {
  const s = resolve(doc, schema);
  const out: Record<string, Schema> = {};
  for (const part of s.allOf ?? []) Object.assign(out, propertiesOf(doc, part));
  return Object.assign(out, s.properties ?? {});
}

/** Of a `oneOf`/`anyOf`, the branch whose properties cover most of `value`'s keys. */
function branchFor(doc: Doc, schema: Schema, value: Record<string, unknown>): Schema {
  const s = resolve(doc, schema);
  const branches = s.oneOf ?? s.anyOf;
  if (!branches) return s;
  const score = (b: Schema) => Object.keys(value).filter((k) => k in propertiesOf(doc, b)).length;
  return branches.reduce((best, b) => (score(b) > score(best) ? b : best));
}

/**
 * The documented properties an answer leaves out, as paths (`Pod.machine.gpuAvailable`), walking
 * into the objects it has (an array through its first item). The tests list what the emulator
 * cannot know; anything else absent is a field the emulator knows and forgot.
 */
export function absentProperties(version: "v1" | "v2", schemaName: string, value: unknown): string[] {
  const doc = DOCS[version];
  const absent: string[] = [];
  const walk = (schema: Schema, v: unknown, at: string) => {
    if (Array.isArray(v)) {
      const items = resolve(doc, schema).items;
      if (items && v.length) walk(items, v[0], `${at}[0]`);
      return;
    }
    if (v === null || typeof v !== "object") return;
    const record = v as Record<string, unknown>;
    const props = propertiesOf(doc, branchFor(doc, schema, record));
    for (const name of Object.keys(props)) {
      if (!(name in record)) absent.push(`${at}.${name}`);
      else walk(props[name]!, record[name], `${at}.${name}`);
    }
  };
  walk({ $ref: `#/components/schemas/${schemaName}` }, value, schemaName);
  return absent;
}

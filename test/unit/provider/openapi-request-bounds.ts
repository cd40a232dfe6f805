import { readFileSync } from "node:fs";
import path from "node:path";

/*
 * The bounds the platform's two OpenAPI documents state on request bodies, read from the
 * repository's copies of the documents (the emulator's conformance tests read the same files).
 */

/** The JSON Schema keywords that bound a value. */
export const BOUND_KEYWORDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
] as const;
/** One bounding keyword. */
export type BoundKeyword = (typeof BOUND_KEYWORDS)[number];

/** One bound a document states: the operation, the body field (`cpu[].vcpuCount`), the keyword and its limit. */
export interface DocumentedBound {
  op: string;
  field: string;
  keyword: BoundKeyword;
  limit: number;
}

type Schema = {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  if?: Schema;
  then?: Schema;
  else?: Schema;
} & Partial<Record<BoundKeyword, number>>;
type Body = { $ref?: string; content?: Record<string, { schema?: Schema }> };
type Doc = {
  paths: Record<string, Record<string, { requestBody?: Body }>>;
  components: { schemas: Record<string, Schema>; requestBodies?: Record<string, Body> };
};

const FIXTURES = path.join(__dirname, "../../integration/emulator/fixtures");

/** The OpenAPI document of management API `version`, as the repository keeps it. */
export function openApiDocument(version: "v1" | "v2"): Doc {
  return JSON.parse(readFileSync(path.join(FIXTURES, `management-api-${version}.openapi.json`), "utf8")) as Doc;
}

const refName = (ref: string) => ref.split("/").pop()!;

/**
 * Every bound of every request body of `POST`, `PUT` and `PATCH` operations, once per operation,
 * field, keyword and limit: through `$ref`s, `allOf`, `oneOf`, `anyOf`, `if`/`then`/`else`, object
 * properties, list items (`[]`) and map values (`{}`).
 */
export function requestBounds(version: "v1" | "v2"): DocumentedBound[] {
  const doc = openApiDocument(version);
  const found = new Map<string, DocumentedBound>();
  const walk = (op: string, schema: Schema | undefined, field: string, seen: readonly string[]): void => {
    if (!schema) return;
    let s = schema;
    const names: string[] = [];
    while (s.$ref) {
      const name = refName(s.$ref);
      if (seen.includes(name) || names.includes(name)) return;
      names.push(name);
      s = doc.components.schemas[name]!;
    }
    const path = [...seen, ...names];
    for (const keyword of BOUND_KEYWORDS) {
      const limit = s[keyword];
      if (typeof limit === "number") found.set(`${op} ${field} ${keyword} ${limit}`, { op, field, keyword, limit });
    }
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? []), s.if, s.then, s.else]) {
      walk(op, part, field, path);
    }
    for (const [name, child] of Object.entries(s.properties ?? {}))
      walk(op, child, field ? `${field}.${name}` : name, path);
    walk(op, s.items, `${field}[]`, path);
    if (typeof s.additionalProperties === "object") walk(op, s.additionalProperties, `${field}{}`, path);
  };
  for (const [p, operations] of Object.entries(doc.paths)) {
    for (const method of ["post", "put", "patch"]) {
      let body = operations[method]?.requestBody;
      if (body?.$ref) body = doc.components.requestBodies?.[refName(body.$ref)];
      const schema = body?.content?.["application/json"]?.schema;
      walk(`${method.toUpperCase()} ${p}`, schema, "", []);
    }
  }
  return [...found.values()];
}

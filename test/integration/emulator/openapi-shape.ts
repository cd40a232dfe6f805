import { readFileSync } from "node:fs";
import path from "node:path";

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  $ref?: string;
  nullable?: boolean;
};

/** The response schemas of the platform's OpenAPI description (a subset, so the repository carries it). */
const SCHEMAS_FILE = path.join(__dirname, "fixtures/openapi-management-schemas.json");
const doc = JSON.parse(readFileSync(SCHEMAS_FILE, "utf8")) as {
  components: { schemas: Record<string, Schema> };
};

function resolve(s: Schema): Schema {
  return s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!]! : s;
}

/**
 * Problems of `value` against OpenAPI component `name`: unknown properties, wrong JSON types,
 * values outside an enum. (A subset of JSON Schema, the part the management schemas use.)
 * `extraProperties` are tolerated anywhere (JSON Schema allows extra properties; the test lists
 * the ones it expects so nothing else slips in).
 */
export function openApiProblems(name: string, value: unknown, extraProperties: readonly string[] = []): string[] {
  const problems: string[] = [];
  const walk = (schema: Schema, v: unknown, at: string) => {
    const s = resolve(schema);
    if (v === null && s.nullable) return;
    if (s.enum && !s.enum.includes(v)) problems.push(`${at}: ${JSON.stringify(v)} is not in the enum`);
    switch (s.type) {
      case "object":
        if (v === null || typeof v !== "object" || Array.isArray(v)) return void problems.push(`${at}: not an object`);
        if (!s.properties) return;
        for (const [k, child] of Object.entries(v)) {
          const p = s.properties[k];
          if (!p && !extraProperties.includes(k)) problems.push(`${at}.${k}: not a property of the schema`);
          else if (!p) continue;
          else walk(p, child, `${at}.${k}`);
        }
        return;
      case "array":
        if (!Array.isArray(v)) return void problems.push(`${at}: not an array`);
        v.forEach((item, i) => {
          if (s.items) walk(s.items, item, `${at}.${i}`);
        });
        return;
      case "integer":
        if (!Number.isInteger(v)) problems.push(`${at}: not an integer`);
        return;
      case "number":
        if (typeof v !== "number") problems.push(`${at}: not a number`);
        return;
      case "string":
        if (typeof v !== "string") problems.push(`${at}: not a string`);
        return;
      case "boolean":
        if (typeof v !== "boolean") problems.push(`${at}: not a boolean`);
        return;
    }
  };
  walk({ $ref: `#/components/schemas/${name}` }, value, name);
  return problems;
}

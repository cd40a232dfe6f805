import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats";

/**
 * Conformance to the platform's management API v2 OpenAPI description: every v2
 * answer validates, with a real JSON Schema validator. The fixture is the platform's public
 * description ("Runpod REST API" 2.0.0), kept in the repository so the tests run anywhere.
 */
const DOC_FILE = path.join(__dirname, "fixtures/management-api-v2.openapi.json");

type Header = { $ref?: string; schema?: unknown };
type Response = {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, Header>;
};
type Operation = { responses?: Record<string, Response> };
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    responses?: Record<string, Response>;
    headers?: Record<string, Header>;
  };
};

const doc = JSON.parse(readFileSync(DOC_FILE, "utf8")) as Doc;
const DOC_ID = "https://runpod.example/management-api-v2.json";

// OpenAPI 3.1 schemas are JSON Schema 2020-12 plus `discriminator` and `x-` annotations. ajv's
// `discriminator` refuses the OpenAPI's `mapping` (EndpointScaling has one), so the keyword is
// left an annotation: the `oneOf` it annotates still decides, each branch fixing `type` by enum.
const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
addFormats(ajv);
// The OpenAPI's own examples of `QueueBasedRequestUrls` (`format: uri`) hold a `{job_id}`
// placeholder, which RFC 3986 does not allow in a URI: a URI is accepted with its `{name}`
// placeholders standing for one path segment each, and is checked as strictly as before otherwise.
const isUri = fullFormats.uri as (value: string) => boolean;
ajv.addFormat("uri", (value: string) => isUri(value.replace(/\{[a-z_]+\}/g, "x")));
ajv.addSchema({ $id: DOC_ID, components: doc.components }, DOC_ID);

const compiled = new Map<string, ValidateFunction>();
function validatorOf(ref: string): ValidateFunction {
  let v = compiled.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}${ref}` });
    compiled.set(ref, v);
  }
  return v;
}

/** Problems of `value` against component schema `name` (empty when it conforms). */
export function v2SchemaProblems(name: string, value: unknown): string[] {
  const validate = validatorOf(`#/components/schemas/${name}`);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`,
  );
}

/**
 * Problems of an answer against the response the OpenAPI documents for `method` `template`
 * (e.g. `GET`, `/v2/network-volumes/{id}`) and `status` (falling back to `default`). An answer
 * whose status the operation does not document is a problem too.
 */
export function v2ResponseProblems(method: string, template: string, status: number, body: unknown): string[] {
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${template} is not an operation of the v2 OpenAPI`];
  let response = operation.responses?.[String(status)] ?? operation.responses?.default;
  if (response?.$ref) response = doc.components.responses?.[response.$ref.split("/").pop()!];
  if (!response) return [`${method} ${template} documents no ${status} answer`];
  const content = response.content;
  if (!content) return body === undefined || body === "" ? [] : [`${status} documents no body, got one`];
  const schema = (content["application/json"] ?? content["application/problem+json"])?.schema as
    { $ref?: string } | undefined;
  if (!schema?.$ref) return [];
  const validate = validatorOf(schema.$ref);
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || "(root)"} ${e.message ?? ""} ${JSON.stringify(e.params)}`,
  );
}

/** The response the OpenAPI documents for an operation and status (`default` when the status has none). */
function documentedResponse(method: string, template: string, status: number): Response | string {
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) return `${method} ${template} is not an operation of the v2 OpenAPI`;
  let response = operation.responses?.[String(status)] ?? operation.responses?.default;
  if (response?.$ref) response = doc.components.responses?.[response.$ref.split("/").pop()!];
  return response ?? `${method} ${template} documents no ${status} answer`;
}

/**
 * Problems of an answer's headers against those the OpenAPI documents for `method` `template`
 * and `status`: each documented header in `required` must be present, and every documented header
 * present must match its schema (a header's text read as the schema's type: `Retry-After` is an
 * integer, `RateLimit` a string). Header names are matched without regard to case.
 */
export function v2HeaderProblems(
  method: string,
  template: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  required: readonly string[] = [],
): string[] {
  const response = documentedResponse(method, template, status);
  if (typeof response === "string") return [response];
  const problems: string[] = [];
  const documented = new Map(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]));
  for (const name of required) {
    if (!documented.has(name.toLowerCase())) problems.push(`${status} documents no header ${name}`);
    else if (headers[name.toLowerCase()] === undefined) problems.push(`header ${name} is missing`);
  }
  for (const [name, declared] of documented) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const header = declared.$ref ? doc.components.headers?.[declared.$ref.split("/").pop()!] : declared;
    const schema = header?.schema as { $ref?: string; type?: string } | undefined;
    if (!schema) continue;
    const text = Array.isArray(raw) ? raw.join(", ") : raw;
    const resolved = schema.$ref
      ? (doc.components.schemas[schema.$ref.split("/").pop()!] as { type?: string })
      : schema;
    const value = resolved.type === "integer" && /^-?\d+$/.test(text) ? Number(text) : text;
    const validate = schema.$ref ? validatorOf(schema.$ref) : ajv.compile(schema);
    if (!validate(value)) problems.push(`header ${name}: ${JSON.stringify(text)} ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

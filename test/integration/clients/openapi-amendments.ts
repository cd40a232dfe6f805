/**
 * Where the platform's OpenAPI documents and the platform itself are known to disagree, the
 * schemathesis run checks the emulator against the platform's behaviour: each amendment below
 * changes one documented detail of a copy of the document, says why, and cites the public source
 * of the platform's behaviour. Every other check runs on the document as published. An amendment
 * that no longer finds what it changes throws, so a corrected document retires it loudly.
 */

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, Json>; parameters?: Json[] };

/** An OpenAPI document, as far as the amendments read it. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> } & Json;
}

/** One change to a copy of a document, with its reason and its public source. */
export interface Amendment {
  what: string;
  why: string;
  source: string;
  apply(doc: OpenApiDoc): void;
}

const METHODS = new Set(["get", "put", "post", "delete", "patch", "options", "head", "trace"]);

function* operations(doc: OpenApiDoc): Generator<[name: string, op: Operation]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (METHODS.has(method)) yield [`${method.toUpperCase()} ${path}`, op];
    }
  }
}

/** Adds response `status` to every operation `which` selects that lacks it; throws if none lacked it. */
function addResponse(doc: OpenApiDoc, status: string, description: string, which: (name: string) => boolean) {
  let added = 0;
  for (const [name, op] of operations(doc)) {
    if (!which(name)) continue;
    op.responses ??= {};
    if (op.responses[status]) continue;
    op.responses[status] = { description };
    added++;
  }
  if (added === 0) throw new Error(`amendment stale: every selected operation already documents ${status}`);
}

function schemaAt(doc: OpenApiDoc, name: string): Json {
  const schema = doc.components.schemas[name];
  if (!schema) throw new Error(`amendment stale: no component schema ${name}`);
  return schema;
}

/** Management API v1 (`https://rest.runpod.io/v1`, OpenAPI "Runpod API" 0.1.0). */
export const V1_AMENDMENTS: readonly Amendment[] = [
  {
    what: "401 on every operation",
    why:
      "The document requires the bearer key on every operation (its global `security`) but lists 401 only on " +
      "DELETE and the pod actions; the platform answers a missing or wrong key with 401 on every operation.",
    source: "https://docs.runpod.io/api-reference/overview (all API requests require authentication)",
    apply: (doc) => addResponse(doc, "401", "Unauthorized: no valid API key.", () => true),
  },
  {
    what: "404 on every operation that names a resource by id",
    why:
      "The document lists 404 ('Pod not found.') only on the reads by id; the platform answers an unknown " +
      'id with its v1 error body `{"message": "Pod not found"}`, which its migration guide shows as the 404 of v2.',
    source: "https://docs.runpod.io/api-reference-v2/migrate-from-v1 (RFC 9457 error objects)",
    apply: (doc) => addResponse(doc, "404", "Not found: no such resource.", (name) => name.includes("}")),
  },
  {
    what: "200 on POST /pods/{podId}/restart",
    why: "The document lists only 400 and 401 for a restart; the platform answers a restart with 200 OK.",
    source:
      "https://github.com/runpod/runpod-python/issues/450 (the restart call 'returns a success response (200 OK)')",
    apply: (doc) =>
      addResponse(doc, "200", "Pod successfully restarted.", (name) => name === "POST /pods/{podId}/restart"),
  },
  {
    what: "400 on the three billing reads",
    why:
      "The v1 document lists only 200 for them; the platform refuses a malformed time or an unusable window with " +
      "400, as its v2 document says of the same reads (`/v2/billing/pods`, `/serverless`, `/network-volumes`, " +
      "which the migration guide maps v1's billing paths to).",
    source:
      "https://docs.runpod.io/api-reference-v2/migrate-from-v1 (endpoint mapping) and https://api.runpod.io/v2/openapi.json",
    apply: (doc) => addResponse(doc, "400", "Invalid query.", (name) => name.startsWith("GET /billing/")),
  },
];

/**
 * v1 operations the run leaves out: the platform's description of itself (its OpenAPI document
 * and its documentation page), which the emulator does not serve; it emulates the API, not its docs.
 */
export const V1_NOT_SERVED: readonly string[] = ["GET /openapi.json", "GET /docs"];

/** Management API v2 (`https://api.runpod.io/v2`, OpenAPI "Runpod REST API" 2.0.0). */
export const V2_AMENDMENTS: readonly Amendment[] = [
  {
    what: "QueueBasedRequestUrls: status, stream, cancel and retry are URI templates",
    why:
      "The document types them `format: uri`, but the platform answers them with a `{job_id}` placeholder (the " +
      "document's own examples: `https://api.runpod.ai/v2/4m7x2k9q/status/{job_id}`), which RFC 3986 does not " +
      "allow in a URI and RFC 6570 defines as a URI template; they are checked as `uri-template`.",
    source: "https://docs.runpod.io/api-reference-v2/serverless/create-a-serverless-endpoint (requestUrls)",
    apply: (doc) => {
      const properties = schemaAt(doc, "QueueBasedRequestUrls").properties as Record<string, Json>;
      for (const name of ["status", "stream", "cancel", "retry"]) {
        if (properties[name]?.format !== "uri") throw new Error(`amendment stale: ${name} is not format uri`);
        properties[name].format = "uri-template";
      }
    },
  },
  {
    what: "the log streams' events, as itemSchema",
    why:
      "The two log streams document their `text/event-stream` body as `{type: string}` (the whole body, under " +
      "OpenAPI 3.1) and describe each event in prose: an `id:` line and a JSON `data:` payload with `ts`, " +
      "`source` and `line`. schemathesis reads a stream's `schema` as each event's, or with `itemSchema` as the " +
      "array of events (OpenAPI 3.2's reading), so the prose is written as the event's schema (`itemSchema`, " +
      "in place of the string), which checks more than the document did.",
    source: "https://spec.openapis.org/oas/v3.2.0.html#sequential-media-types (itemSchema)",
    apply: (doc) => {
      for (const path of ["/v2/pods/{id}/logs", "/v2/serverless/{id}/workers/{workerId}/logs"]) {
        const media = (doc.paths[path]?.get?.responses?.["200"]?.content as Record<string, Json> | undefined)?.[
          "text/event-stream"
        ];
        if ((media?.schema as Json | undefined)?.type !== "string") {
          throw new Error(`amendment stale: ${path} documents no event stream of type string`);
        }
        delete media!.schema;
        media!.itemSchema = {
          type: "object",
          required: ["id", "data"],
          properties: {
            id: { type: "string", minLength: 1 },
            data: {
              type: "string",
              contentMediaType: "application/json",
              contentSchema: {
                type: "object",
                required: ["ts", "source", "line"],
                properties: {
                  ts: { type: "string", format: "date-time" },
                  source: { type: "string" },
                  line: { type: "string" },
                },
              },
            },
          },
        };
      }
    },
  },
];

/** A deep copy of `doc` with `amendments` applied. */
export function amended(doc: OpenApiDoc, amendments: readonly Amendment[]): OpenApiDoc {
  const copy = structuredClone(doc);
  for (const amendment of amendments) amendment.apply(copy);
  return copy;
}

import type { ApiVersion } from "../sdk/config";
import { type Endpoint, GPU_CATALOG } from "../sdk/schemas";
import { sameFieldValue } from "./diff-inputs";
import { SERVERLESS_ENDPOINT_FIELDS } from "./field-rules";
import { pick, sameValue } from "./property-values";

type Props = Record<string, unknown>;

/** Every input of an endpoint (the keys of its field table). */
export const ENDPOINT_INPUT_KEYS = Object.keys(SERVERLESS_ENDPOINT_FIELDS);

/** The snapshot's position of each GPU type (the order v2, and v1 reading a v2-written endpoint, list them in). */
const CATALOG_POSITION = new Map<string, number>(GPU_CATALOG.map((e, i) => [e.id, i]));

/** Whether `types` are in catalog order (types the snapshot does not know may come last, in any order). */
function inCatalogOrder(types: readonly string[]): boolean {
  const positions = types.map((t) => CATALOG_POSITION.get(t) ?? Number.MAX_SAFE_INTEGER);
  return positions.every((p, i) => i === 0 || positions[i - 1]! <= p);
}

/**
 * The platform's `gpuTypeIds` in the order the program declared them, when it is the same set
 * and the platform keeps no order: always on v2 (pools have none, so refresh shows no false diff);
 * on v1 only when the answer lists them in catalog order, which is how v1 reads an endpoint
 * written through v2. Otherwise (a reorder on v1) the platform's order, which refresh compares.
 */
export function gpuTypesInDeclaredOrder(answer: unknown, declared: unknown, version: ApiVersion): unknown {
  if (!Array.isArray(answer) || !Array.isArray(declared) || !sameValue(answer, declared, false)) return answer;
  if (version === "v2" || inCatalogOrder(answer as string[])) return declared;
  return answer;
}

/**
 * The declared value where the platform's means the same (a set in another order, `true` for
 * `"FLASHBOOT"`), so an answer in the platform's spelling is no change at refresh.
 */
function declaredSpelling(key: string, answer: unknown, declared: unknown): unknown {
  if (declared === undefined || answer === undefined) return answer;
  const rule = SERVERLESS_ENDPOINT_FIELDS[key as keyof typeof SERVERLESS_ENDPOINT_FIELDS];
  return rule.orderedOnlyOn === undefined && sameFieldValue(rule, answer, declared) ? declared : answer;
}

/**
 * `url` and `healthUrl`: a queue endpoint's job address `{queueUrl}/<id>` (the same on both API
 * versions, so a stack switching versions keeps its outputs) and its `/health`; a load-balancing
 * endpoint's base and health addresses from v2's `requestUrls` (on a read through v1, which has
 * none, the ones the state holds).
 */
function addresses(endpoint: Endpoint, declared: Props, queueUrl: string): { url: string; healthUrl: string } {
  const urls = endpoint.requestUrls;
  const balancer = (endpoint.type ?? declared.type) === "LOAD_BALANCER";
  if (balancer && urls?.base !== undefined) return { url: urls.base, healthUrl: urls.health ?? `${urls.base}/ping` };
  if (balancer && typeof declared.url === "string" && typeof declared.healthUrl === "string") {
    return { url: declared.url, healthUrl: declared.healthUrl };
  }
  const url = `${queueUrl}/${endpoint.id}`;
  return { url, healthUrl: `${url}/health` };
}

/**
 * The endpoint with its one network volume as `networkVolumeId` too: an endpoint given its volume
 * as a list (through v2, or v1's `networkVolumeIds`) is answered by v1 with the list alone, and a
 * program that declares `networkVolumeId` reads the same volume there.
 */
function withSingleVolume(endpoint: Endpoint): Endpoint {
  const ids = endpoint.networkVolumeIds;
  if (endpoint.networkVolumeId !== undefined || ids?.length !== 1) return endpoint;
  return { ...endpoint, networkVolumeId: ids[0] };
}

/**
 * The outputs of an endpoint: `url`, `healthUrl`, `name`, `templateId`, and the platform's
 * current value of every property the program sets (`declared`: the inputs, or the previous
 * outputs on refresh), which is what refresh compares, in the program's spelling where the
 * platform's means the same. `templateId` is the platform's when it answers one (v1's link), else
 * the declared one: v2 keeps no link, so the state keeps it. Defaults of properties the program
 * leaves unset (such as the platform's full data center list) and platform bookkeeping
 * (`createdAt`, `userId`, `version`, `instanceIds`, the workers' `env`, which may hold the
 * template's secrets) are not echoed into the state: each stored byte is rewritten into every
 * checkpoint of a `pulumi up` (docs/resources.md, "What is stored in state").
 */
export function endpointOutputs(endpoint: Endpoint, declared: Props, queueUrl: string, version: ApiVersion): Props {
  const keys = ENDPOINT_INPUT_KEYS.filter((k) => k === "name" || k === "templateId" || declared[k] !== undefined);
  const outs = pick(withSingleVolume(endpoint) as Props, keys);
  for (const key of keys) {
    if (key === "gpuTypeIds") outs[key] = gpuTypesInDeclaredOrder(outs[key], declared[key], version);
    else outs[key] = declaredSpelling(key, outs[key], declared[key]);
    if (outs[key] === undefined) delete outs[key];
  }
  // A v1 answer has no type (every v1 endpoint is a queue): the declared one stands.
  if (declared.type !== undefined && outs.type === undefined) outs.type = endpoint.type ?? declared.type;
  if (endpoint.templateId === undefined && typeof declared.templateId === "string") {
    outs.templateId = declared.templateId;
  }
  return { ...outs, ...addresses(endpoint, declared, queueUrl) };
}

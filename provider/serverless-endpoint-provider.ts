import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import {
  type Endpoint,
  type EndpointCreateInput,
  EndpointCreateInputSchema,
  type EndpointUpdateInput,
} from "../sdk/schemas";
import {
  adoptIdFailures,
  boundFailures,
  type Expect,
  type SchemaMatchesTable,
  schemaFailures,
  versionFailures,
} from "./check-inputs";
import { createOnce } from "./create-once";
import { servedAfterCreate, servedUpdate } from "./endpoint-rollout";
import { rolloutFailures } from "./rollout-settings";
import { changedFields, diffInputs, versionAtPreview } from "./diff-inputs";
import { gpuPoolFailures, scalingFailures } from "./endpoint-check";
import { ENDPOINT_INPUT_KEYS, endpointOutputs } from "./endpoint-outputs";
import { PartialCreateError } from "./errors";
import { SERVERLESS_ENDPOINT_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { pick } from "./property-values";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<
  SchemaMatchesTable<typeof EndpointCreateInputSchema, typeof SERVERLESS_ENDPOINT_FIELDS>
>;

function outputs(client: RunpodClient, endpoint: Endpoint, inputs: Props): dynamic.CreateResult {
  return {
    id: endpoint.id,
    outs: endpointOutputs(endpoint, inputs, client.transport.config.queueUrl, client.apiVersion),
  };
}

/**
 * The update input of the `changed` inputs. Pools and the types excluded from them are one
 * selection on v2 (a PATCH with pools and no exclusions clears them), so a change to either sends both.
 */
function updateInput(news: Props, changed: readonly string[]): EndpointUpdateInput {
  const keys = new Set(changed);
  if (keys.has("gpuPools") || keys.has("excludedGpuTypes")) {
    keys.add("gpuPools");
    keys.add("excludedGpuTypes");
  }
  return pick(news, [...keys]) as EndpointUpdateInput;
}

/**
 * Brings an existing endpoint to the inputs, recording it in state even if that fails. An answer
 * without a template id (v2 keeps no link) is taken to run the declared template, unless
 * `reapplyTemplate` (adoption: an endpoint made elsewhere gets the declared template's settings).
 */
async function converge(
  client: RunpodClient,
  found: Endpoint,
  inputs: Props,
  reapplyTemplate = false,
): Promise<dynamic.CreateResult> {
  const current = reapplyTemplate ? found : { ...found, templateId: found.templateId ?? inputs.templateId };
  const changed = changedFields(current as Props, inputs, SERVERLESS_ENDPOINT_FIELDS, client.apiVersion).filter(
    (k) => k !== "computeType" && k !== "type",
  );
  if (changed.length === 0) return outputs(client, found, inputs);
  try {
    return outputs(client, await client.endpoints.update(found.id, updateInput(inputs, changed)), inputs);
  } catch (err) {
    throw new PartialCreateError(found.id, outputs(client, found, inputs).outs, err);
  }
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.endpoints.get(id), adoptId, "serverless endpoint");
  const wanted = (inputs.computeType as string | undefined) ?? "GPU";
  if (found.computeType !== undefined && found.computeType !== wanted) {
    throw immutableMismatch(adoptId, "endpoint", "computeType", found.computeType, wanted);
  }
  const wantedType = (inputs.type as string | undefined) ?? "QUEUE";
  if (found.type !== undefined && found.type !== wantedType) {
    throw immutableMismatch(adoptId, "endpoint", "type", found.type, wantedType);
  }
  return converge(client, found, inputs, true);
}

/** The account's endpoints, listed or read by id (listings.ts). */
function endpoints(client: RunpodClient): ResourceSource<Endpoint> {
  return {
    owner: client,
    kind: "endpoints",
    list: () => client.endpoints.list(),
    get: (id) => client.endpoints.get(id),
  };
}

/**
 * Finds an endpoint this stack created but never heard back about: same auto-name, compute type
 * and kind (used for auto-named endpoints only, see create-once.ts).
 */
function findOwnEndpoint(client: RunpodClient, inputs: Props, fresh: boolean): Promise<Endpoint | undefined> {
  const computeType = (inputs.computeType as string | undefined) ?? "GPU";
  const type = (inputs.type as string | undefined) ?? "QUEUE";
  return findOwnResource(
    {
      ...endpoints(client),
      matches: (e) =>
        e.name === inputs.name && (e.computeType ?? "GPU") === computeType && (e.type ?? "QUEUE") === type,
      what: `${computeType} endpoints named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/** The live GPU catalog, for a GPU type this release's snapshot does not know (check, on v2). */
async function liveGpuCatalog() {
  const client = await providerClient();
  return client.v2.catalog.gpus();
}

/** The dynamic provider implementation of `ServerlessEndpoint`. */
export const serverlessEndpointProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: EndpointCreateInputSchema,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.endpoints.get(id);
  },

  async check(olds: Props | undefined, news: Props): Promise<dynamic.CheckResult> {
    const version = versionAtPreview();
    // At create the engine passes the previous inputs of nothing: an empty bag.
    const deployed = olds && Object.keys(olds).length > 0 ? olds : undefined;
    const failures = [
      ...schemaFailures(EndpointCreateInputSchema, news),
      ...adoptIdFailures(news),
      ...versionFailures("endpoint", news),
      ...scalingFailures(deployed, news, version),
      ...rolloutFailures(news),
    ];
    failures.push(...boundFailures("endpoint", deployed, news, SERVERLESS_ENDPOINT_FIELDS, failures));
    // A list the schema refuses is not looked up in a catalog (nothing is sent for a bad value).
    if (!failures.some((f) => f.property === "gpuTypeIds")) {
      failures.push(...(await gpuPoolFailures(deployed, news, version, liveGpuCatalog)));
    }
    return { inputs: news, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffInputs(olds, news, SERVERLESS_ENDPOINT_FIELDS);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnEndpoint(client, inputs, fresh) : undefined,
      create: () => client.endpoints.create(pick(inputs, ENDPOINT_INPUT_KEYS) as EndpointCreateInput),
    });
    const made = existed ? await converge(client, resource, inputs) : outputs(client, resource, inputs);
    return servedAfterCreate(client, inputs, made);
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readListed(endpoints(client), id),
      (endpoint) => {
        const outs = outputs(client, endpoint, props).outs;
        return { id, props: outs, inputs: pick(outs, ENDPOINT_INPUT_KEYS) };
      },
    );
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    const changed = changedFields(olds, news, SERVERLESS_ENDPOINT_FIELDS, client.apiVersion);
    const send = (inputs: Props) =>
      changed.length > 0 ? client.endpoints.update(id, updateInput(inputs, changed)) : client.endpoints.get(id);
    const endpoint = await servedUpdate(client, id, olds, news, changed, send);
    return { outs: outputs(client, endpoint, news).outs };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.endpoints.delete(id));
  },
} satisfies ResourceProviderObject);

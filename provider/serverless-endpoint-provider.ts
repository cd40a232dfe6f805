import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import {
  type Endpoint,
  type EndpointCreateInput,
  EndpointCreateInputV1Schema,
  type EndpointUpdateInput,
} from "../sdk/schemas";
import { adoptIdFailures, type Expect, type SchemaMatchesTable, schemaFailures } from "./check-inputs";
import { createOnce } from "./create-once";
import { changedFields, diffInputs } from "./diff-inputs";
import { PartialCreateError } from "./errors";
import { SERVERLESS_ENDPOINT_FIELDS } from "./field-rules";
import { findOwnResource } from "./own-resource";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { pick } from "./property-values";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error (issue 29).
// The resource takes v1's inputs until it gains v2's (`type`, `gpuPools`, ...: issue 28).
type _SchemaMatchesFields = Expect<
  SchemaMatchesTable<typeof EndpointCreateInputV1Schema, typeof SERVERLESS_ENDPOINT_FIELDS>
>;

const INPUT_KEYS = Object.keys(SERVERLESS_ENDPOINT_FIELDS);

/**
 * The outputs of an endpoint: `url`, `name`, `templateId`, and the platform's current value of
 * every property the program sets (`declared`: the inputs, or the previous outputs on refresh),
 * which is what refresh compares. Defaults of properties the program leaves unset (such as the
 * platform's full data center list) and platform bookkeeping (`createdAt`, `userId`, `version`,
 * `instanceIds`, the template's `env`, which may hold the template's secrets) are not echoed into
 * the state: each stored byte is rewritten into every checkpoint (issue 14).
 */
function endpointOutputs(endpoint: Endpoint, declared: Props, queueUrl: string): Props {
  const keys = INPUT_KEYS.filter((k) => k === "name" || k === "templateId" || declared[k] !== undefined);
  return { ...pick(endpoint as Props, keys), url: `${queueUrl}/${endpoint.id}` };
}

function outputs(client: RunpodClient, endpoint: Endpoint, inputs: Props): dynamic.CreateResult {
  return { id: endpoint.id, outs: endpointOutputs(endpoint, inputs, client.transport.config.queueUrl) };
}

/** Brings an existing endpoint to the inputs, recording it in state even if that fails. */
async function converge(client: RunpodClient, found: Endpoint, inputs: Props): Promise<dynamic.CreateResult> {
  const changed = changedFields(found as Props, inputs, SERVERLESS_ENDPOINT_FIELDS).filter((k) => k !== "computeType");
  if (changed.length === 0) return outputs(client, found, inputs);
  try {
    const updated = await client.endpoints.update(found.id, pick(inputs, changed) as EndpointUpdateInput);
    return outputs(client, updated, inputs);
  } catch (err) {
    throw new PartialCreateError(found.id, endpointOutputs(found, inputs, client.transport.config.queueUrl), err);
  }
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.endpoints.get(id), adoptId, "serverless endpoint");
  const wanted = (inputs.computeType as string | undefined) ?? "GPU";
  if (found.computeType !== undefined && found.computeType !== wanted) {
    throw immutableMismatch(adoptId, "endpoint", "computeType", found.computeType, wanted);
  }
  return converge(client, found, inputs);
}

/**
 * Finds an endpoint this stack created but never heard back about: same auto-name and compute
 * type (used for auto-named endpoints only, see create-once.ts).
 */
function findOwnEndpoint(client: RunpodClient, inputs: Props, fresh: boolean): Promise<Endpoint | undefined> {
  const computeType = (inputs.computeType as string | undefined) ?? "GPU";
  return findOwnResource(
    {
      owner: client,
      kind: "endpoints",
      list: () => client.endpoints.list(),
      get: (id) => client.endpoints.get(id),
      matches: (e) => e.name === inputs.name && (e.computeType ?? "GPU") === computeType,
      what: `${computeType} endpoints named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/** The dynamic provider implementation of `ServerlessEndpoint`. */
export const serverlessEndpointProvider = {
  configure: configureProvider,

  async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
    return { inputs: news, failures: [...schemaFailures(EndpointCreateInputV1Schema, news), ...adoptIdFailures(news)] };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffInputs(olds, news, SERVERLESS_ENDPOINT_FIELDS);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnEndpoint(client, inputs, fresh) : undefined,
      create: () => client.endpoints.create(pick(inputs, INPUT_KEYS) as EndpointCreateInput),
    });
    return existed ? converge(client, resource, inputs) : outputs(client, resource, inputs);
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => client.endpoints.get(id),
      (endpoint) => {
        const outs = endpointOutputs(endpoint, props, client.transport.config.queueUrl);
        return { id, props: outs, inputs: pick(outs, INPUT_KEYS) };
      },
    );
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    const changed = changedFields(olds, news, SERVERLESS_ENDPOINT_FIELDS);
    const endpoint =
      changed.length > 0
        ? await client.endpoints.update(id, pick(news, changed) as EndpointUpdateInput)
        : await client.endpoints.get(id);
    return { outs: endpointOutputs(endpoint, news, client.transport.config.queueUrl) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.endpoints.delete(id));
  },
};

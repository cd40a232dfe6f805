import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import { RunpodError } from "../sdk/errors";
import {
  type Endpoint,
  type EndpointCreateInput,
  EndpointCreateInputSchema,
  type EndpointUpdateInput,
} from "../sdk/schemas";
import { adoptIdFailures, schemaFailures } from "./check-inputs";
import { createOnce } from "./create-once";
import { changedFields, diffInputs } from "./diff-inputs";
import { isNotFound, PartialCreateError } from "./errors";
import { SERVERLESS_ENDPOINT_FIELDS } from "./field-rules";
import { singleMatch } from "./own-resource";
import { pick } from "./property-values";
import { providerClient } from "./provider-config";

type Props = Record<string, unknown>;

const INPUT_KEYS = Object.keys(SERVERLESS_ENDPOINT_FIELDS);
/** Fields the management API returns that are not inputs. */
const COMPUTED_KEYS = ["instanceIds", "env", "createdAt", "userId", "version"];

/** Every field the management API returns, plus `url` and the bookkeeping inputs that must survive. */
function endpointOutputs(endpoint: Endpoint, inputs: Props, queueUrl: string): Props {
  const fromApi = pick(endpoint as Props, [...INPUT_KEYS, ...COMPUTED_KEYS]);
  return {
    ...fromApi,
    url: `${queueUrl}/${endpoint.id}`,
    ...(inputs.adoptId !== undefined ? { adoptId: inputs.adoptId } : {}),
    ...(inputs.__autoNamed !== undefined ? { __autoNamed: inputs.__autoNamed } : {}),
  };
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
  const found = await client.endpoints.get(adoptId).catch((err) => {
    if (isNotFound(err))
      throw new RunpodError(
        "not_found",
        `adoptId = ${JSON.stringify(adoptId)}: no serverless endpoint with this id exists in this account`,
      );
    throw err;
  });
  const wanted = (inputs.computeType as string | undefined) ?? "GPU";
  if (found.computeType !== undefined && found.computeType !== wanted) {
    throw new RunpodError(
      "invalid_request",
      `adoptId = ${JSON.stringify(adoptId)}: the endpoint has computeType ${found.computeType}, but computeType is ${wanted}; computeType cannot change in place, so set it to ${found.computeType}`,
    );
  }
  return converge(client, found, inputs);
}

/**
 * Finds an endpoint this stack created but never heard back about: same auto-name and compute
 * type (used for auto-named endpoints only, see create-once.ts).
 */
async function findOwnEndpoint(client: RunpodClient, inputs: Props): Promise<Endpoint | undefined> {
  const computeType = (inputs.computeType as string | undefined) ?? "GPU";
  const matches = (await client.endpoints.list()).filter(
    (e) => e.name === inputs.name && (e.computeType ?? "GPU") === computeType,
  );
  return singleMatch(matches, `${computeType} endpoints named ${JSON.stringify(inputs.name)}`);
}

/** The dynamic provider implementation of `ServerlessEndpoint`. */
export const serverlessEndpointProvider = {
  async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
    return { inputs: news, failures: [...schemaFailures(EndpointCreateInputSchema, news), ...adoptIdFailures(news)] };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    return diffInputs(olds, news, SERVERLESS_ENDPOINT_FIELDS);
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? () => findOwnEndpoint(client, inputs) : undefined,
      create: () => client.endpoints.create(pick(inputs, INPUT_KEYS) as EndpointCreateInput),
    });
    return existed ? converge(client, resource, inputs) : outputs(client, resource, inputs);
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    try {
      const endpoint = await client.endpoints.get(id);
      const outs = endpointOutputs(endpoint, props, client.transport.config.queueUrl);
      return { id, props: outs, inputs: pick(outs, [...INPUT_KEYS, "adoptId", "__autoNamed"]) };
    } catch (err) {
      if (isNotFound(err)) return {};
      throw err;
    }
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
    try {
      await (await providerClient()).endpoints.delete(id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
};

import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import * as V2 from "../sdk/schemas/v2";
import {
  adoptIdFailures,
  type Expect,
  type SchemaMatchesTable,
  schemaFailures,
  versionOnlyFailures,
} from "./check-inputs";
import { createOnce } from "./create-once";
import { diffInputs, sameFieldValue } from "./diff-inputs";
import { warnOnResource } from "./engine-notice";
import { PartialCreateError } from "./errors";
import { SECRET_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

/** Inputs as the provider sees them after `check` (not strict: `__autoNamed` and `__urn` ride along). */
export const SecretInputsSchema = z.object({ ...V2.CreateSecretRequestSchema.shape, adoptId: z.string().optional() });

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof SecretInputsSchema, typeof SECRET_FIELDS>>;

/**
 * The outputs of a secret: what the platform says of it, the `reference` for env values, and the
 * `value` the provider last set (`value`: undefined when a rotation outside Pulumi made it
 * unknown, which the next diff reports as a change). The resource marks `value` secret, so the
 * state holds it only as ciphertext.
 */
function secretOutputs(secret: V2.Secret, value: unknown): Props {
  const outs: Props = {
    name: secret.name,
    reference: V2.secretReference(secret.name),
    valueLastUpdatedAt: secret.valueLastUpdatedAt ?? secret.createdAt,
  };
  if (value !== undefined) outs.value = value;
  if (typeof secret.description === "string") outs.description = secret.description;
  return outs;
}

/** What an update sends: the value (a rotation) and the description, each when it differs. */
function changes(current: Props, inputs: Props): V2.UpdateSecretRequest | undefined {
  const patch: V2.UpdateSecretRequest = {};
  if (!sameFieldValue(SECRET_FIELDS.value, inputs.value, current.value)) patch.value = inputs.value as string;
  // A description the program does not set is left as the platform holds it (the diff compares
  // only what the program sets, as for every resource).
  if (
    inputs.description !== undefined &&
    !sameFieldValue(SECRET_FIELDS.description, inputs.description, current.description)
  ) {
    patch.description = inputs.description as string;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * Brings an existing secret (adopted, or left by a create whose answer was lost) to the inputs.
 * The platform never returns a value, so the value is always set again; the secret is recorded in
 * state even when that fails.
 */
async function converge(client: RunpodClient, found: V2.Secret, inputs: Props): Promise<dynamic.CreateResult> {
  try {
    // No value to compare with: the value is always sent, the description when it differs.
    const updated = await client.v2.account.secrets.update(
      found.id,
      changes({ description: found.description }, inputs)!,
    );
    return { id: found.id, outs: secretOutputs(updated, inputs.value) };
  } catch (err) {
    throw new PartialCreateError(found.id, secretOutputs(found, undefined), err);
  }
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.v2.account.secrets.get(id), adoptId, "secret");
  if (found.name !== inputs.name) throw immutableMismatch(adoptId, "secret", "name", found.name, inputs.name);
  return converge(client, found, inputs);
}

/** Where the account's secrets are read: one listing for a refresh's reads, or one by id. */
function secrets(client: RunpodClient): ResourceSource<V2.Secret> {
  return {
    owner: client,
    kind: "secrets",
    list: () => client.v2.account.secrets.list(),
    get: (id) => client.v2.account.secrets.get(id),
  };
}

/** Finds a secret this stack created but never heard back about, by its auto-name (names are unique). */
function findOwnSecret(client: RunpodClient, inputs: Props, fresh: boolean): Promise<V2.Secret | undefined> {
  return findOwnResource(
    {
      ...secrets(client),
      matches: (s) => s.name === inputs.name,
      what: `secrets named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/** Check failures, with a name the provider made up explained as such (the user set none). */
function secretFailures(news: Props): dynamic.CheckFailure[] {
  const failures = schemaFailures(SecretInputsSchema, news);
  if (news.__autoNamed !== true) return failures;
  return failures.map((f) =>
    f.property === "name"
      ? {
          property: "name",
          reason: `the name made from the logical name, ${JSON.stringify(news.name)}, ${f.reason}; set name to one that does`,
        }
      : f,
  );
}

/** The notice of a preview that sets back a value rotated outside Pulumi (refresh saw it, see `read`). */
function rotationNotice(olds: Props): string | undefined {
  if (olds.value !== undefined || typeof olds.valueLastUpdatedAt !== "string") return undefined;
  return `the value was set outside Pulumi (at ${olds.valueLastUpdatedAt}, seen by refresh); this update sets it back to the program's value, and pods and workers get it when they next start`;
}

/** The dynamic provider implementation of `Secret` (management API v2 only). */
export const secretProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: SecretInputsSchema,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.v2.account.secrets.get(id);
  },

  async check(_olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [...secretFailures(news), ...adoptIdFailures(news), ...versionOnlyFailures("Secret")];
    return { inputs: news, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    const result = diffInputs(olds, news, SECRET_FIELDS);
    const notice = rotationNotice(olds);
    if (notice && typeof news.__urn === "string") await warnOnResource(news.__urn, notice);
    return result;
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const body: V2.CreateSecretRequest = { name: inputs.name as string, value: inputs.value as string };
    if (inputs.description !== undefined) body.description = inputs.description as string;
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnSecret(client, inputs, fresh) : undefined,
      create: () => client.v2.account.secrets.create(body),
    });
    if (existed) return converge(client, resource, inputs);
    return { id: resource.id, outs: secretOutputs(resource, inputs.value) };
  },

  /**
   * Refresh: the name, the description and when the value was last set. The value cannot be read;
   * when `valueLastUpdatedAt` moved since Pulumi set it, someone rotated it outside Pulumi, so the
   * value is left out of the outputs and the next preview shows `value` as a change.
   */
  async read(id: string, props: Props = {}): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readListed(secrets(client), id),
      (secret) => {
        const setHere = props.valueLastUpdatedAt === (secret.valueLastUpdatedAt ?? secret.createdAt);
        const outs = secretOutputs(secret, setHere ? props.value : undefined);
        // The inputs are what a program sets (and `reference`, which the class passes too).
        const { valueLastUpdatedAt: _setAt, ...inputs } = outs;
        return { id, props: outs, inputs };
      },
    );
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    const patch = changes(olds, news);
    const secret = patch ? await client.v2.account.secrets.update(id, patch) : await client.v2.account.secrets.get(id);
    return { outs: secretOutputs(secret, news.value) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.v2.account.secrets.delete(id));
  },
} satisfies ResourceProviderObject);

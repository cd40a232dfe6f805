import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import { type ContainerRegistryAuth, ContainerRegistryAuthCreateInputSchema } from "../sdk/schemas";
import { seriesName } from "./auto-name";
import { boundFailures, type Expect, type SchemaMatchesTable, schemaFailures } from "./check-inputs";
import { createOnce } from "./create-once";
import { changedFields, diffInputs } from "./diff-inputs";
import { CONTAINER_REGISTRY_AUTH_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import { deleteIfPresent, readOrGone } from "./provider-steps";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<
  SchemaMatchesTable<typeof ContainerRegistryAuthCreateInputSchema, typeof CONTAINER_REGISTRY_AUTH_FIELDS>
>;

/**
 * The outputs of a registry credential: its name from the platform, and the username and password
 * it was created with (the platform never returns them; diff needs them to see a rotation). The
 * resource marks `password` secret, so the state holds it only as ciphertext.
 */
function authOutputs(auth: ContainerRegistryAuth, credentials: Props): Props {
  return { name: auth.name, username: credentials.username, password: credentials.password };
}

/** The account's registry credentials, listed or read by id (listings.ts). */
function auths(client: RunpodClient): ResourceSource<ContainerRegistryAuth> {
  return {
    owner: client,
    kind: "containerRegistryAuths",
    list: () => client.containerRegistryAuth.list(),
    get: (id) => client.containerRegistryAuth.get(id),
  };
}

/**
 * Finds a credential this stack created but never heard back about, by its auto-name (names are
 * unique in an account; used for auto-named credentials only, see create-once.ts).
 */
function findOwnAuth(client: RunpodClient, inputs: Props, fresh: boolean): Promise<ContainerRegistryAuth | undefined> {
  return findOwnResource(
    {
      ...auths(client),
      matches: (a) => a.name === inputs.name,
      what: `container registry auths named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/**
 * The dynamic provider implementation of `ContainerRegistryAuth`. The platform has no update for
 * credentials, so every change replaces (no `update`); there is no adoption either, since the
 * platform never returns the credentials to compare.
 */
export const containerRegistryAuthProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: ContainerRegistryAuthCreateInputSchema,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.containerRegistryAuth.get(id);
  },

  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = schemaFailures(ContainerRegistryAuthCreateInputSchema, news);
    failures.push(...boundFailures("containerRegistryAuth", olds, news, CONTAINER_REGISTRY_AUTH_FIELDS, failures));
    // Names are unique: a rotation creates the new credential (under the next name of the
    // auto-name's series) before the old one is deleted.
    const replaces = (o: Props, n: Props) => changedFields(o, n, CONTAINER_REGISTRY_AUTH_FIELDS).length > 0;
    return { inputs: seriesName(olds, news, replaces), failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    const result = diffInputs(olds, news, CONTAINER_REGISTRY_AUTH_FIELDS);
    // A name the user chose cannot be held by the old and the new credential at once.
    return { ...result, deleteBeforeReplace: news.__autoNamed !== true && result.changes === true };
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    const { resource } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnAuth(client, inputs, fresh) : undefined,
      create: () =>
        client.containerRegistryAuth.create({
          name: inputs.name as string,
          username: inputs.username as string,
          password: inputs.password as string,
        }),
    });
    return { id: resource.id, outs: authOutputs(resource, inputs) };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readListed(auths(client), id),
      (auth) => {
        const outs = authOutputs(auth, props);
        return { id, props: outs, inputs: outs };
      },
    );
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.containerRegistryAuth.delete(id));
  },
} satisfies ResourceProviderObject);

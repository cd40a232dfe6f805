import type { ResourceProviderObject } from "./provider-object";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { RunpodClient } from "../sdk/client";
import {
  argsFromWords,
  type Template,
  type TemplateCreateInput,
  TemplateCreateInputSchema,
  type TemplateUpdateInput,
} from "../sdk/schemas";
import { seriesName } from "./auto-name";
import {
  adoptIdFailures,
  boundFailures,
  type Expect,
  type SchemaMatchesTable,
  schemaFailures,
  versionFailures,
} from "./check-inputs";
import { createOnce } from "./create-once";
import { changedFields, diffInputs } from "./diff-inputs";
import { PartialCreateError } from "./errors";
import { TEMPLATE_FIELDS } from "./field-rules";
import { type ResourceSource, readListed, withChangeTracking } from "./listings";
import { findOwnResource } from "./own-resource";
import { pick } from "./property-values";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { configureProvider, providerClient } from "./provider-config";
import { splitInjectedEnv, withInjectedEnv } from "./template-env";
import { type ContainerSettings, containerOfTemplate } from "./template-rollout";
import { servedTemplateUpdate } from "./template-rollout-step";
import { rolloutFailures } from "./rollout-settings";

type Props = Record<string, unknown>;
type Env = Record<string, string>;

const INPUT_KEYS = Object.keys(TEMPLATE_FIELDS);
/** Fields the update input cannot carry (TEMPLATE_FIELDS marks them `replaces`). */
const FIXED_KEYS = Object.entries(TEMPLATE_FIELDS)
  .filter(([, rule]) => rule.replaces)
  .map(([key]) => key);

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error.
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof TemplateCreateInputSchema, typeof TEMPLATE_FIELDS>>;

/**
 * The outputs of a template: `name`, `imageName`, and the platform's value of every other
 * property the program sets (`declared`: the inputs, or the previous outputs on refresh), which
 * is what refresh compares. `env` is among them when set, without what the platform injected
 * (template-env.ts), which is the separate output `injectedEnv` when there is any. The resource
 * marks both secret.
 */
function templateOutputs(template: Template, declared: Props): Props {
  const outs = pick(
    template as Props,
    INPUT_KEYS.filter((k) => k === "name" || k === "imageName" || (k !== "env" && declared[k] !== undefined)),
  );
  const { env, injected } = splitInjectedEnv(template.env, declared.env as Env | undefined);
  if (declared.env !== undefined) outs.env = env;
  if (Object.keys(injected).length > 0) outs.injectedEnv = injected;
  return outs;
}

/** The update input of the `changed` inputs; a new env keeps what the platform injected (`current`: the template as it is). */
function updateInput(news: Props, changed: readonly string[], current: Template, oldEnv: unknown): TemplateUpdateInput {
  const input = pick(news, changed);
  if (changed.includes("env")) {
    const { injected } = splitInjectedEnv(current.env, oldEnv as Env | undefined);
    input.env = withInjectedEnv(news.env as Env, injected);
  }
  return input as TemplateUpdateInput;
}

/**
 * The container settings the template had before this update: the platform's (`current`), with
 * the values the state still holds (`olds`) over them. They differ when an earlier update reached
 * the template but not all of its endpoints: the state keeps the old values, so the endpoints
 * still holding them are found again.
 */
function previousSettings(current: Template, olds: Props): ContainerSettings {
  const { injected } = splitInjectedEnv(current.env, olds.env as Env | undefined);
  const merged: Template = {
    ...current,
    ...(pick(olds, ["imageName", "ports", "containerDiskInGb", "containerRegistryAuthId"]) as Partial<Template>),
  };
  if (olds.env !== undefined) merged.env = withInjectedEnv(olds.env as Env, injected);
  if (olds.args !== undefined) merged.args = olds.args as string;
  else if (olds.dockerStartCmd !== undefined) merged.args = argsFromWords(olds.dockerStartCmd as string[]);
  return containerOfTemplate(merged);
}

/** Whether `news` replaces `olds` (a change to a field the update input cannot carry). */
function replaces(olds: Props, news: Props): boolean {
  return changedFields(olds, news, TEMPLATE_FIELDS).some((k) => FIXED_KEYS.includes(k));
}

/** Brings an existing template to the inputs, recording it in state even if that fails. */
async function converge(client: RunpodClient, found: Template, inputs: Props): Promise<dynamic.CreateResult> {
  const declared = templateOutputs(found, inputs);
  const changed = changedFields(declared, inputs, TEMPLATE_FIELDS, client.apiVersion).filter(
    (k) => !FIXED_KEYS.includes(k),
  );
  if (changed.length === 0) return { id: found.id, outs: declared };
  try {
    const updated = await client.templates.update(found.id, updateInput(inputs, changed, found, declared.env));
    return { id: found.id, outs: templateOutputs(updated, inputs) };
  } catch (err) {
    throw new PartialCreateError(found.id, declared, err);
  }
}

async function adopt(client: RunpodClient, inputs: Props, adoptId: string): Promise<dynamic.CreateResult> {
  const found = await fetchForAdoption((id) => client.templates.get(id), adoptId, "template");
  for (const field of FIXED_KEYS) {
    const wanted = inputs[field];
    const actual = (found as Props)[field];
    if (wanted !== undefined && actual !== undefined && wanted !== actual) {
      throw immutableMismatch(adoptId, "template", field, actual, wanted);
    }
  }
  return converge(client, found, inputs);
}

/**
 * The account's templates, listed or read by id (listings.ts). v1 lists templates bound to an
 * endpoint only when asked (`includeEndpointBoundTemplates`), and the templates of a stack's
 * endpoints may be such; v2 lists every template the account owns.
 */
function templates(client: RunpodClient): ResourceSource<Template> {
  return {
    owner: client,
    kind: "templates",
    list: () =>
      client.apiVersion === "v1"
        ? client.v1.templates.list({ includeEndpointBoundTemplates: true })
        : client.templates.list(),
    get: (id) => client.templates.get(id),
  };
}

/**
 * Finds a template this stack created but never heard back about, by its auto-name (template
 * names are unique in an account; used for auto-named templates only, see create-once.ts).
 */
function findOwnTemplate(client: RunpodClient, inputs: Props, fresh: boolean): Promise<Template | undefined> {
  return findOwnResource(
    {
      ...templates(client),
      matches: (t) => t.name === inputs.name,
      what: `templates named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/** The dynamic provider implementation of `Template`. */
export const templateProvider = withChangeTracking({
  configure: configureProvider,
  inputSchema: TemplateCreateInputSchema,

  fetch(client: RunpodClient, id: string): Promise<object> {
    return client.templates.get(id);
  },

  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [
      ...schemaFailures(TemplateCreateInputSchema, news),
      ...adoptIdFailures(news),
      ...versionFailures("template", news),
      ...rolloutFailures(news, news.isServerless !== false),
    ];
    failures.push(...boundFailures("template", olds, news, TEMPLATE_FIELDS, failures));
    // Template names are unique: a replacement (made before the old one is deleted) takes the next
    // name of the auto-name's series.
    return { inputs: seriesName(olds, news, replaces), failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<dynamic.DiffResult> {
    const result = diffInputs(olds, news, TEMPLATE_FIELDS);
    // A name the user chose cannot be held by the old and the new template at once.
    const userNamed = news.__autoNamed !== true;
    return { ...result, deleteBeforeReplace: userNamed && (result.replaces?.length ?? 0) > 0 };
  },

  async create(inputs: Props): Promise<dynamic.CreateResult> {
    const client = await providerClient();
    if (typeof inputs.adoptId === "string") return adopt(client, inputs, inputs.adoptId);
    const { resource, existed } = await createOnce({
      find: inputs.__autoNamed === true ? (fresh) => findOwnTemplate(client, inputs, fresh) : undefined,
      create: () => client.templates.create(pick(inputs, INPUT_KEYS) as TemplateCreateInput),
    });
    return existed ? converge(client, resource, inputs) : { id: resource.id, outs: templateOutputs(resource, inputs) };
  },

  async read(id: string, props: Props): Promise<dynamic.ReadResult> {
    const client = await providerClient();
    return readOrGone(
      () => readListed(templates(client), id),
      (template) => {
        const outs = templateOutputs(template, props);
        return { id, props: outs, inputs: pick(outs, INPUT_KEYS) };
      },
    );
  },

  /**
   * Only in-place changes reach update. v1 rolls the endpoints linked to the template; v2 keeps
   * no link, so a change to what the containers run is re-applied to the endpoints that hold the
   * template's previous settings (template-rollout.ts).
   */
  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    const changed = changedFields(olds, news, TEMPLATE_FIELDS, client.apiVersion);
    const current = await client.templates.get(id);
    if (changed.length === 0) return { outs: templateOutputs(current, news) };
    const updated = await servedTemplateUpdate(client, olds, news, {
      id,
      changed,
      previous: previousSettings(current, olds),
      // The rollback sends the previous values of what changed (those the state holds).
      send: (inputs) =>
        client.templates.update(
          id,
          updateInput(
            inputs,
            changed.filter((k) => inputs[k] !== undefined),
            current,
            olds.env,
          ),
        ),
    });
    return { outs: templateOutputs(updated, news) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.templates.delete(id));
  },
} satisfies ResourceProviderObject);

import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { RunpodClient } from "../sdk/client";
import {
  type Template,
  type TemplateCreateInput,
  TemplateCreateInputV1Schema,
  type TemplateUpdateInput,
} from "../sdk/schemas";
import { seriesName } from "./auto-name";
import { adoptIdFailures, type Expect, type SchemaMatchesTable, schemaFailures } from "./check-inputs";
import { createOnce } from "./create-once";
import { changedFields, diffInputs } from "./diff-inputs";
import { PartialCreateError } from "./errors";
import { TEMPLATE_FIELDS } from "./field-rules";
import { findOwnResource } from "./own-resource";
import { pick } from "./property-values";
import { deleteIfPresent, fetchForAdoption, immutableMismatch, readOrGone } from "./provider-steps";
import { configureProvider, providerClient } from "./provider-config";

type Props = Record<string, unknown>;

const INPUT_KEYS = Object.keys(TEMPLATE_FIELDS);
/** Fields the update input cannot carry (TEMPLATE_FIELDS marks them `replaces`). */
const FIXED_KEYS = Object.entries(TEMPLATE_FIELDS)
  .filter(([, rule]) => rule.replaces)
  .map(([key]) => key);

/** Inputs as the provider sees them after `check` (v1's, until the resource gains v2's `startSsh`, ...: issue 28). */
const TemplateInputsSchema = TemplateCreateInputV1Schema.extend({ adoptId: z.string().optional() });

// `check` validates exactly the fields the table has rules for: a field in one and not the other is a tsc error (issue 29).
type _SchemaMatchesFields = Expect<SchemaMatchesTable<typeof TemplateInputsSchema, typeof TEMPLATE_FIELDS>>;

/**
 * The outputs of a template: `name`, `imageName`, and the platform's value of every other
 * property the program sets (`declared`: the inputs, or the previous outputs on refresh), which
 * is what refresh compares. `env` is among them when set; the resource marks it secret.
 */
function templateOutputs(template: Template, declared: Props): Props {
  return pick(
    template as Props,
    INPUT_KEYS.filter((k) => k === "name" || k === "imageName" || declared[k] !== undefined),
  );
}

/** Whether `news` replaces `olds` (a change to a field the update input cannot carry). */
function replaces(olds: Props, news: Props): boolean {
  return changedFields(olds, news, TEMPLATE_FIELDS).some((k) => FIXED_KEYS.includes(k));
}

/** Brings an existing template to the inputs, recording it in state even if that fails. */
async function converge(client: RunpodClient, found: Template, inputs: Props): Promise<dynamic.CreateResult> {
  const changed = changedFields(found as Props, inputs, TEMPLATE_FIELDS).filter((k) => !FIXED_KEYS.includes(k));
  if (changed.length === 0) return { id: found.id, outs: templateOutputs(found, inputs) };
  try {
    const updated = await client.v1.templates.update(found.id, pick(inputs, changed) as TemplateUpdateInput, {
      method: "POST",
    });
    return { id: found.id, outs: templateOutputs(updated, inputs) };
  } catch (err) {
    throw new PartialCreateError(found.id, templateOutputs(found, inputs), err);
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
 * Finds a template this stack created but never heard back about, by its auto-name (template
 * names are unique in an account; used for auto-named templates only, see create-once.ts).
 */
function findOwnTemplate(client: RunpodClient, inputs: Props, fresh: boolean): Promise<Template | undefined> {
  return findOwnResource(
    {
      owner: client,
      kind: "templates",
      list: () => client.templates.list(),
      get: (id) => client.templates.get(id),
      matches: (t) => t.name === inputs.name,
      what: `templates named ${JSON.stringify(inputs.name)}`,
    },
    fresh,
  );
}

/** The dynamic provider implementation of `Template`. */
export const templateProvider = {
  configure: configureProvider,

  async check(olds: Props, news: Props): Promise<dynamic.CheckResult> {
    const failures = [...schemaFailures(TemplateInputsSchema, news), ...adoptIdFailures(news)];
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
      () => client.templates.get(id),
      (template) => {
        const outs = templateOutputs(template, props);
        return { id, props: outs, inputs: pick(outs, INPUT_KEYS) };
      },
    );
  },

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult> {
    const client = await providerClient();
    // Only in-place changes reach update; through `POST /templates/{id}/update`, which rolls the
    // endpoints that use the template on the platform.
    const changed = changedFields(olds, news, TEMPLATE_FIELDS);
    const template =
      changed.length > 0
        ? await client.v1.templates.update(id, pick(news, changed) as TemplateUpdateInput, { method: "POST" })
        : await client.templates.get(id);
    return { outs: templateOutputs(template, news) };
  },

  async delete(id: string): Promise<void> {
    const client = await providerClient();
    await deleteIfPresent(() => client.templates.delete(id));
  },
};

import type * as dynamic from "@pulumi/pulumi/dynamic";
import { isNotFound } from "../provider/errors";
import { FIELD_RULES } from "../provider/field-rules";
import { pick } from "../provider/property-values";
import { providerClient } from "../provider/provider-config";
import { PLUGIN_RESOURCES, type PluginResourceType } from "./plugin-resources";
import { resourceShape } from "./plugin-schema";

type Props = Record<string, unknown>;

/**
 * What an import declares for a field of the table whose value is to be read from the platform.
 * The providers' `read` reports a field the program declares, from the platform's record where it
 * can (what refresh compares), else the declared value: a field still holding this marker after
 * the read is one the platform does not report, and is left out.
 */
const FROM_PLATFORM: Readonly<Record<string, never>> = Object.freeze({});

/** `props` without the fields the read could not fill. */
function withoutUnread(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => v !== FROM_PLATFORM && v !== undefined));
}

/**
 * `read` of `pulumi import <type> <name> <id>` (a Read with no properties): the resource as the
 * platform holds it, and the inputs that reproduce it, derived from the field table: every field
 * the platform reports, through the provider's own `read` (its spellings and orders, as refresh
 * stores them). Left out of the inputs, and so of the code the engine generates: fields that may
 * hold secrets (those the schema marks secret: env values, a registry password), which the
 * outputs keep as secrets, and fields the configured API version cannot carry (`check` refuses
 * them, e.g. v1's `readme` of a template read through v2). Returns no id when there is no such
 * resource (the engine then says so).
 */
export async function importRead(type: PluginResourceType, id: string): Promise<dynamic.ReadResult> {
  const entry = PLUGIN_RESOURCES[type];
  const client = await providerClient();
  let record: object;
  try {
    record = await entry.fetch(client, id);
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
  const fields = Object.keys(FIELD_RULES[type]);
  const declared: Props = Object.fromEntries(fields.map((k) => [k, FROM_PLATFORM]));
  for (const [k, v] of Object.entries((await entry.importDeclared?.(record, client)) ?? {})) {
    if (v !== undefined) declared[k] = v;
  }
  const read = await entry.provider.read(id, declared);
  if (!read.id) return {};
  const outputs = withoutUnread(read.props ?? {});
  const secret = new Set(resourceShape(type).secretOutputs);
  let inputs = pick(
    outputs,
    fields.filter((k) => !secret.has(k)),
  );
  // Leaving out a refused field can make another one refused (GPU types taken out of pools once
  // the pools are left out), so until check refuses none of those left.
  for (;;) {
    const { failures = [] } = await entry.provider.check({}, inputs);
    const refused = failures.map((f) => f.property).filter((k) => k in inputs);
    if (refused.length === 0) break;
    inputs = Object.fromEntries(Object.entries(inputs).filter(([k]) => !refused.includes(k)));
  }
  return { id: read.id, props: outputs, inputs };
}

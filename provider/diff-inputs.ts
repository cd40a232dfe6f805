import type { DiffResult } from "@pulumi/pulumi/dynamic";
import type { ApiVersion } from "../sdk/config";
import type { FieldRule } from "./field-rules";
import { configuredApiVersion } from "./provider-config";
import { isUnknown, sameValue, userProps } from "./property-values";

/** Whether a field's array order is meaningful on `version` (undefined: the rule's own default). */
function orderedOn(rule: FieldRule, version: ApiVersion | undefined): boolean {
  if (rule.orderedOnlyOn !== undefined && version !== undefined) return rule.orderedOnlyOn === version;
  return rule.ordered ?? true;
}

/** Whether `a` and `b` are the same value of a field with `rule`, on `version`. */
export function sameFieldValue(rule: FieldRule, a: unknown, b: unknown, version?: ApiVersion): boolean {
  const meaning = rule.meaning ?? ((v: unknown) => v);
  return sameValue(meaning(a), meaning(b), orderedOn(rule, version));
}

/**
 * The properties the user set (`news`) whose value differs from the deployed state (`olds`), by
 * the rules of field-rules.ts on management API `version` (a field whose order matters on one
 * version only is compared as a set on the other). A value still unknown during preview counts as
 * changed.
 */
export function changedFields(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  fields: Record<string, FieldRule>,
  version?: ApiVersion,
): string[] {
  return Object.entries(userProps(news))
    .filter(([key, value]) => {
      const rule = fields[key];
      return rule !== undefined && (isUnknown(value) || !sameFieldValue(rule, value, olds[key], version));
    })
    .map(([key]) => key);
}

/**
 * The configured management API version, read from the configuration without a request, or
 * undefined when the URL names none (`check` reports that, naming the setting).
 */
export function versionAtPreview(): ApiVersion | undefined {
  try {
    return configuredApiVersion();
  } catch {
    return undefined;
  }
}

/**
 * `diff` of a dynamic provider: compares only what the user set, on the configured API version,
 * reports replacements precisely, and makes no API call, so an unchanged preview sends nothing to
 * the platform.
 */
export function diffInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  fields: Record<string, FieldRule>,
): DiffResult {
  const changed = changedFields(olds, news, fields, versionAtPreview());
  const replaces = changed.filter((key) => fields[key]?.replaces);
  // No replacement here needs the old resource gone first: names need not be unique on the
  // platform, and a new volume or endpoint can exist beside the old one until the engine deletes it.
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

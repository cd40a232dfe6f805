import type { DiffResult } from "@pulumi/pulumi/dynamic";
import type { FieldRule } from "./field-rules";
import { isUnknown, sameValue, userProps } from "./property-values";

/**
 * The properties the user set (`news`) whose value differs from the deployed state (`olds`), by
 * the rules of field-rules.ts. A value still unknown during preview counts as changed.
 */
export function changedFields(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  fields: Record<string, FieldRule>,
): string[] {
  return Object.entries(userProps(news))
    .filter(([key, value]) => {
      const rule = fields[key];
      return rule !== undefined && (isUnknown(value) || !sameValue(value, olds[key], rule.ordered ?? true));
    })
    .map(([key]) => key);
}

/**
 * `diff` of a dynamic provider: compares only what the user set, reports replacements precisely,
 * and makes no API call, so an unchanged preview sends nothing to the platform.
 */
export function diffInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  fields: Record<string, FieldRule>,
): DiffResult {
  const changed = changedFields(olds, news, fields);
  const replaces = changed.filter((key) => fields[key]?.replaces);
  // No replacement here needs the old resource gone first: names need not be unique on the
  // platform, and a new volume or endpoint can exist beside the old one until the engine deletes it.
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}

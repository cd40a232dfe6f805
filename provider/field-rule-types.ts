import type { ApiVersion } from "../sdk/config";

/*
 * What a field rule is. The rules themselves are declared once, as JSDoc tags on each input of a
 * resource's `Args` (`@replaces`, `@resets`, `@unordered`, `@orderedOn`, `@meaning`), and written
 * into field-rules.ts by `npm run gen:fields` (scripts/field-gen/), which also writes the tables of
 * docs/resources.md from them: docs/design.md, "Adding a field".
 */

/**
 * How a change to one input property applies to a deployed resource: in place, through a reset,
 * or by replacement, and how its values compare. `diff` and `update` follow the tables of these
 * (field-rules.ts).
 */
export interface FieldRule {
  /** A change replaces the resource instead of updating it (`@replaces`). */
  replaces?: boolean;
  /**
   * A change updates the same resource, but through an update that restarts what runs and wipes
   * its local disk (a pod's reset update on v1, its `PATCH` on v2); the preview says so
   * (`@resets`). Never together with `replaces`.
   */
  resets?: boolean;
  /** Arrays only: whether order is meaningful (a reorder is an update). Default true; `@unordered` says false. */
  ordered?: boolean;
  /**
   * Arrays only: order is meaningful on this management API version alone; on the other, a
   * reorder is no change (`@orderedOn v1`: v2 rents from GPU pools and keeps no order among types).
   */
  orderedOnlyOn?: ApiVersion;
  /**
   * The value's meaning, when two spellings mean the same (flash boot's `true` and
   * `"FLASHBOOT"`): values are compared after it, so a respelling alone is no change
   * (`@meaning <name>`, one of `FIELD_MEANINGS` in field-rule-types.ts).
   */
  meaning?: (value: unknown) => unknown;
}

/**
 * Inputs that are no platform field, so no table lists them: `adoptId` (every resource) takes an
 * existing resource under management at create and is ignored afterwards; `waitForRollout`,
 * `rollbackOnFailure` and `rolloutTimeoutSeconds` (endpoints and templates) say how a step waits
 * for the endpoints it rolls (rollout-settings.ts). Never sent, never a diff on their own.
 */
export type BookkeepingInput = "adoptId" | "waitForRollout" | "rollbackOnFailure" | "rolloutTimeoutSeconds";
/** The {@link BookkeepingInput} names, for the generators that read `Args`. */
export const BOOKKEEPING_INPUTS: readonly BookkeepingInput[] = [
  "adoptId",
  "waitForRollout",
  "rollbackOnFailure",
  "rolloutTimeoutSeconds",
];

/**
 * The field table of a resource whose inputs are `Args`: exactly one rule per input.
 * An input added to `Args` without a rule, or a rule whose key is not an input (a typo), is a
 * `tsc` error where the table is declared.
 */
export type FieldTable<Args> = { readonly [K in Exclude<keyof Args, BookkeepingInput>]-?: FieldRule };

/**
 * The meanings an input's `@meaning` tag may name: what a value stands for, when two spellings
 * mean the same. Values are compared after them.
 */
export const FIELD_MEANINGS = {
  /** Flash boot: v1's `true`/`false` are v2's `FLASHBOOT`/`OFF`. */
  flashboot: (value: unknown): unknown => (value === true ? "FLASHBOOT" : value === false ? "OFF" : value),
  /** An endpoint's type: unset is a queue, so declaring `type: "QUEUE"` on a deployed endpoint is no change. */
  queueWhenUnset: (value: unknown): unknown => value ?? "QUEUE",
  /** Free text where none, `null` and `""` all mean none. */
  emptyWhenUnset: (value: unknown): unknown => value ?? "",
} as const;

/** The name of a meaning an `@meaning` tag may give. */
export type FieldMeaningName = keyof typeof FIELD_MEANINGS;

/**
 * The inputs of a table (with its rules' literal types) whose rule is `Rule`:
 * `FieldsWhere<typeof POD_FIELD_RULES, { resets: true }>` are a pod's fields that reset,
 * `FieldsWhere<..., { resets?: undefined; replaces?: undefined }>` those that change in place.
 */
export type FieldsWhere<Rules, Rule> = { [K in keyof Rules]: Rules[K] extends Rule ? K : never }[keyof Rules];

/** What a rule says of a change, in words: `replace`, `reset` or `update in place`. */
export function changeOf(rule: Pick<FieldRule, "replaces" | "resets">): "replace" | "reset" | "update in place" {
  return rule.replaces ? "replace" : rule.resets ? "reset" : "update in place";
}

/** What a rule says of a list's order, in words, or undefined for a value whose order means nothing to it. */
export function orderOf(rule: Pick<FieldRule, "ordered" | "orderedOnlyOn">): string | undefined {
  if (rule.orderedOnlyOn !== undefined) return `order matters on management API ${rule.orderedOnlyOn} only`;
  return rule.ordered === false ? "compared as a set" : undefined;
}

/**
 * What a rule says, as sentences for a property's description in the plugin's schema (and so the
 * SDKs' docs): the change and the order, e.g. `A change replaces the NetworkVolume.`
 */
export function ruleSentences(rule: FieldRule, kind: string): string[] {
  const sentences: string[] = [];
  const change = changeOf(rule);
  if (change === "replace") sentences.push(`A change replaces the ${kind}.`);
  if (change === "reset") {
    sentences.push(
      `A change resets the ${kind}: its container restarts on the new settings and its container disk is wiped.`,
    );
  }
  if (rule.orderedOnlyOn !== undefined) sentences.push(`Order matters on management API ${rule.orderedOnlyOn} only.`);
  else if (rule.ordered === false) sentences.push("Compared as a set: a reorder is no change.");
  return sentences;
}

/**
 * What a field only one management API version carries says, as a sentence for the plugin's
 * schema: `Management API v2 only (v1 takes "QUEUE").`
 */
export function versionSentence(only: ApiVersion, neutral: readonly unknown[] = []): string {
  const other = only === "v1" ? "v2" : "v1";
  const takes = neutral.map((v) => JSON.stringify(v)).join(", ");
  return `Management API ${only} only${takes ? ` (${other} takes ${takes})` : ""}.`;
}

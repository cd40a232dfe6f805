import { Secret } from "@pulumi/policy/policy";
import type { ResourceKind } from "./resource-types";
import { isUnknownValue } from "./unknown-values";

/**
 * How violation messages are written: `<Kind> "<name>": <field> = <value>: <rule>`, the same
 * `field = value: rule` shape as the client's errors (`describeProblems` in sdk/schemas).
 *
 * Secrets: a message only ever shows the value of the field its rule checks (GPU types, worker
 * counts, timeouts, sizes: none of them credentials), never a whole props object, never
 * `__provider`. Values the engine still marks as secret are shown as `[secret]`. A validation
 * sees secrets unwrapped (@pulumi/policy deserializes its props without secret markers), so rules
 * never render fields that may hold one: a template's `env`, a registry password.
 */

/** How a value unknown until `pulumi up` is rendered. */
const UNKNOWN_TEXT = "<unknown until pulumi up>";

/** Longest rendering of one value; lists of GPU types need more room than the client's 80. */
const MAX_VALUE_LENGTH = 240;

/** Contributors listed by name in a stack-wide message before the rest are counted. */
const MAX_LISTED = 10;

/** Renders a value compactly as JSON, hiding secrets and bounding the length. */
export function formatValue(value: unknown): string {
  if (value instanceof Secret) return "[secret]";
  if (value === undefined) return "undefined";
  if (isUnknownValue(value)) return UNKNOWN_TEXT;
  let text: string;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (isUnknownValue(v) ? UNKNOWN_TEXT : v)) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 3)}...` : text;
}

/**
 * Renders a setting that may be unset, showing the platform default the platform would apply
 * (and the management API version it applies on, `version`, when the versions differ).
 */
export function formatSetting(value: unknown, platformDefault?: number | string | boolean, version?: string): string {
  if (value === undefined && platformDefault !== undefined) {
    const on = version === undefined ? "" : ` on management API ${version}`;
    return `unset (platform default ${formatValue(platformDefault)}${on})`;
  }
  return formatValue(value);
}

/** `ServerlessEndpoint "api"`: names a resource by kind and logical name. */
export function resourceLabel(kind: ResourceKind, name: string): string {
  return `${kind} "${name}"`;
}

/** `Stack "dev"`, or `Stack` when the engine did not give the stack's name. */
export function stackLabel(stackName: string | undefined): string {
  return stackName === undefined ? "Stack" : `Stack "${stackName}"`;
}

/** One violation message: `<subject>: <field> = <value>: <rule>`. */
export function violation(subject: string, field: string, renderedValue: string, rule: string): string {
  return `${subject}: ${field} = ${renderedValue}: ${rule}`;
}

/** The violations a rule finds about one subject, in the order found. */
export interface ViolationList {
  /** The messages so far (what a rule returns). */
  readonly messages: string[];
  /** Records one violation of `field` (shown as `renderedValue`) against `rule`; returns {@link messages}. */
  add(field: string, renderedValue: string, rule: string): string[];
}

/**
 * The one way a rule reports: `add(field, value, rule)` per violation, each message in the pack's
 * shape ({@link violation}), so no rule repeats the subject or the push.
 */
export function violationList(subject: string): ViolationList {
  const messages: string[] = [];
  return {
    messages,
    add(field, renderedValue, rule) {
      messages.push(violation(subject, field, renderedValue, rule));
      return messages;
    },
  };
}

/** `"a" 8, "b" 6` for at most ten contributors, then `and N more`. */
export function listContributors(items: readonly string[]): string {
  if (items.length <= MAX_LISTED) return items.join(", ");
  return `${items.slice(0, MAX_LISTED).join(", ")} and ${items.length - MAX_LISTED} more`;
}

/** `1 GPU endpoint`, `2 GPU endpoints`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** True for a whole number (a finite integer). */
export function isWholeNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

/**
 * A count as the platform will apply it: `value` when it is a whole number of at least `min`,
 * else `fallback` (the platform default; the policy that owns the field reports a bad value).
 */
export function countOrDefault(value: unknown, min: number, fallback: number): number {
  return isWholeNumber(value) && value >= min ? value : fallback;
}

/**
 * Which stack a policy runs for, and per-stack settings.
 *
 * @pulumi/policy 1.21 gives policies the stack's tags (`args.stackTags`, from the engine's
 * `ConfigureStack` call) but not its name. The engine starts every policy pack with the
 * environment variables `PULUMI_STACK`, `PULUMI_PROJECT` and `PULUMI_ORGANIZATION` (plus the
 * `PULUMI_NODEJS_*` variants for Node.js packs; pulumi/pulumi `constructEnv` in
 * `analyzer_plugin.go`), but not every language host passes them on, so the name is taken first
 * from the URN of the resource being checked (`urn:pulumi:<stack>::<project>::...`), which every
 * engine provides, and only then from the environment. `pulumi.getStack()` is not used: outside a
 * program it answers the placeholder `"stack"`, which a pattern like `*` would wrongly match.
 */

import { type ApiVersionContext, stackApiVersion } from "./stack-api-version";

/** What a policy knows about the stack it checks. */
export interface StackContext extends ApiVersionContext {
  /** The stack's name (`dev`, or `org/project/dev` on some backends), when the engine told us. */
  readonly stackName: string | undefined;
  /** The stack's tags (empty on backends without tags). */
  readonly stackTags: ReadonlyMap<string, string>;
}

/** Per-stack replacements of a policy's settings, as written in the policy's configuration. */
export interface StackOverrides<T> {
  /** Keyed by a stack-name pattern (`*` any characters, `?` one character), e.g. `dev*`. */
  byStack?: Record<string, Partial<T>> | undefined;
  /** Keyed by `tag=value-pattern` (tag value matched like a stack name) or `tag` (tag is present). */
  byStackTag?: Record<string, Partial<T>> | undefined;
}

/** The settings that apply to one stack, and where each one came from. */
export interface StackSettings<T> {
  /** Effective settings: the base configuration with every matching override applied. */
  readonly values: Partial<T>;
  /** For each overridden key, a label of the override that set it, e.g. `byStack "dev*" for stack "dev-1"`. */
  readonly sources: Partial<Record<keyof T, string>>;
}

/** The context of a run that knows neither the stack's name nor its tags (unit tests, `pulumi.getStack()`-less runs). */
export const NO_STACK: StackContext = { stackName: undefined, stackTags: new Map() };

/** The stack name the engine gave the policy pack's process, if any. */
export function stackNameFromEnvironment(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = env.PULUMI_STACK || env.PULUMI_NODEJS_STACK;
  return name ? name : undefined;
}

/** The stack name inside a resource URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function stackNameFromUrn(urn: string | undefined): string | undefined {
  const m = urn === undefined ? null : /^urn:pulumi:([^:]+)::/.exec(urn);
  return m?.[1];
}

/** The stack context of the current policy-pack process, for a check of the resource `urn`. */
export function currentStackContext(
  stackTags: ReadonlyMap<string, string>,
  urn?: string,
  env: NodeJS.ProcessEnv = process.env,
): StackContext {
  const apiVersion = stackApiVersion(env);
  return {
    stackName: stackNameFromUrn(urn) ?? stackNameFromEnvironment(env),
    stackTags,
    ...(apiVersion === undefined ? {} : { apiVersion }),
  };
}

/** Whole-string, case-sensitive match of `text` against a pattern with `*` and `?` wildcards. */
export function matchesPattern(pattern: string, text: string): boolean {
  const source = pattern
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "s").test(text);
}

/** True when a `byStack` pattern matches the stack's name, fully qualified or its last segment. */
export function stackPatternMatches(pattern: string, stackName: string | undefined): boolean {
  if (stackName === undefined) return false;
  const shortName = stackName.split("/").pop() ?? stackName;
  return matchesPattern(pattern, stackName) || matchesPattern(pattern, shortName);
}

/** True when a `byStackTag` key (`tag` or `tag=value-pattern`) matches the stack's tags. */
export function stackTagMatches(key: string, tags: ReadonlyMap<string, string>): boolean {
  const eq = key.indexOf("=");
  if (eq < 0) return tags.has(key);
  const value = tags.get(key.slice(0, eq));
  return value !== undefined && matchesPattern(key.slice(eq + 1), value);
}

/**
 * Applies every matching override to `base`, in the order written: first the `byStack` entries,
 * then the `byStackTag` entries, so a later match replaces a value set by an earlier one.
 */
export function resolveStackSettings<T extends object>(
  base: Partial<T>,
  overrides: StackOverrides<T>,
  context: StackContext,
): StackSettings<T> {
  const values: Partial<T> = { ...base };
  const sources: Partial<Record<keyof T, string>> = {};
  const apply = (override: Partial<T>, label: string) => {
    for (const key of Object.keys(override) as (keyof T)[]) {
      if (override[key] === undefined) continue;
      values[key] = override[key];
      sources[key] = label;
    }
  };
  for (const [pattern, override] of Object.entries(overrides.byStack ?? {})) {
    if (stackPatternMatches(pattern, context.stackName)) {
      apply(override, `byStack "${pattern}" for stack "${context.stackName}"`);
    }
  }
  for (const [key, override] of Object.entries(overrides.byStackTag ?? {})) {
    if (stackTagMatches(key, context.stackTags)) apply(override, `byStackTag "${key}"`);
  }
  return { values, sources };
}

/** Names the setting behind a limit in a message: `workersMaxCap` or `workersMaxCap from byStack "dev*" (...)`. */
export function settingLabel<T>(settings: StackSettings<T>, key: keyof T & string): string {
  const source = settings.sources[key];
  return source ? `${key} from ${source}` : key;
}

/**
 * The settings of a policy's configuration (base values plus `byStack`/`byStackTag`) that apply
 * to the stack in `context`: every policy's configuration has this one shape.
 */
export function settingsForStack<T extends object>(
  config: Partial<T> & StackOverrides<T>,
  context: StackContext,
): StackSettings<T> {
  const { byStack, byStackTag, ...base } = config;
  return resolveStackSettings<T>(base as Partial<T>, { byStack, byStackTag }, context);
}

import {
  type EnforcementLevel,
  type PolicyResource,
  type ResourceValidationPolicy,
  remediateResourceOfType,
  type StackValidationPolicy,
  validateResourceOfType,
} from "@pulumi/policy/policy";
import type { z } from "zod";
import { parsePolicyConfig, toPolicyConfigSchema } from "./policy-config";
import {
  anyTypeStub,
  type NamedProps,
  type ResourceClassStub,
  resourcesOfType,
  stubsOfEachType,
} from "./resource-types";
import { currentStackContext, type StackContext } from "./stack-context";

/**
 * The one way a policy of this pack is declared. A policy file holds its settings (a zod object),
 * its rule (a pure function that returns violation messages, which tests call directly) and one
 * `resourcePolicy(...)` or `stackPolicy(...)` call; the wiring every policy shares lives here:
 * the JSON Schema the CLI validates `--policy-pack-config` against, parsing `args.getConfig()`
 * with the same zod object, the stack context for `byStack`/`byStackTag`, and "not applicable".
 */

/**
 * What every policy declares. The policies keep their name's literal type (`N`), so that the
 * pack's one list of policies also gives the type of their names (policy/index.ts).
 */
interface PolicyDefinition<S extends z.ZodObject, N extends string = string> {
  /** The policy's name: the key of its settings in `--policy-pack-config`. */
  readonly name: N;
  readonly description: string;
  readonly enforcementLevel: EnforcementLevel;
  readonly remediationSteps: string;
  /** The settings, as a zod object (see `policy-config.ts`). */
  readonly config: S;
}

/** What the analyzer reads of every policy: name, description, level, settings schema, remediation steps. */
function policyHeader<S extends z.ZodObject, N extends string>(def: PolicyDefinition<S, N>) {
  return {
    name: def.name,
    description: def.description,
    enforcementLevel: def.enforcementLevel,
    configSchema: toPolicyConfigSchema(def.config),
    remediationSteps: def.remediationSteps,
  };
}

/** A policy that judges one resource at a time. */
export interface ResourcePolicyDefinition<
  P extends object,
  S extends z.ZodObject,
  N extends string = string,
> extends PolicyDefinition<S, N> {
  /** The resources it judges (matched by type token). */
  readonly resource: ResourceClassStub<P>;
  /** Why the policy does not apply to this resource, or undefined when it does. */
  readonly notApplicable?: (props: P) => string | undefined;
  /** The rule: one message per violation (`<Kind> "<name>": <field> = <value>: <rule>`). */
  readonly check: (name: string, props: P, config: z.infer<S>, context: StackContext) => string[];
  /** Props with the problem fixed (the `remediate` level), or undefined when nothing needs fixing. */
  readonly remediate?: (props: P) => P | undefined;
  /** Rules for other kinds of resource judged against the same settings (e.g. pods beside endpoints). */
  readonly more?: readonly ResourceRule<z.infer<S>>[];
}

/** A resource policy of the pack. */
export function resourcePolicy<P extends object, S extends z.ZodObject, N extends string>(
  def: ResourcePolicyDefinition<P, S, N>,
): ResourceValidationPolicy & { readonly name: N } {
  const { remediate } = def;
  // @pulumi/policy types props as `Unwrap<P>`; for the plain prop interfaces of resource-types.ts that is P.
  const main = stubsOfEachType(def.resource).map((stub) =>
    validateResourceOfType(stub, (unwrapped, args, reportViolation) => {
      const props = unwrapped as P;
      const why = def.notApplicable?.(props);
      if (why !== undefined) args.notApplicable(why);
      reportViolations(def, args, reportViolation, (config, context) => def.check(args.name, props, config, context));
    }),
  );
  return {
    ...policyHeader(def),
    validateResource: [...main, ...(def.more ?? []).flatMap((rule) => validateRule(def, rule))],
    ...(remediate
      ? {
          remediateResource: remediateResourceOfType(
            anyTypeStub(def.resource),
            (props) => remediate(props as P) as object,
          ),
        }
      : {}),
  };
}

/** Parses the policy's settings and the stack context, runs `check` and reports each message. */
function reportViolations<S extends z.ZodObject>(
  def: PolicyDefinition<S>,
  args: { getConfig(): unknown; stackTags: ReadonlyMap<string, string>; urn: string },
  reportViolation: (message: string) => void,
  check: (config: z.infer<S>, context: StackContext) => string[],
): void {
  const config = parsePolicyConfig(def.name, def.config, args.getConfig());
  const context = currentStackContext(args.stackTags, args.urn);
  for (const message of check(config, context)) reportViolation(message);
}

/** One kind of resource a {@link resourcesPolicy} judges, with its rule. */
export interface ResourceRule<C> {
  /** The resources it judges (matched by type token). */
  readonly resource: ResourceClassStub<object>;
  /** The rule: one message per violation. */
  readonly check: (name: string, props: object, config: C, context: StackContext) => string[];
}

/** Pairs a resource kind with its typed rule, for {@link resourcesPolicy}. */
export function ruleFor<P extends object, C>(
  resource: ResourceClassStub<P>,
  check: (name: string, props: P, config: C, context: StackContext) => string[],
): ResourceRule<C> {
  return { resource: resource as ResourceClassStub<object>, check: check as ResourceRule<C>["check"] };
}

/** The validations of one {@link ResourceRule} under a policy's settings (one per type token of its kind). */
function validateRule<S extends z.ZodObject>(def: PolicyDefinition<S>, rule: ResourceRule<z.infer<S>>) {
  return stubsOfEachType(rule.resource).map((stub) =>
    validateResourceOfType(stub, (props, args, reportViolation) =>
      reportViolations(def, args, reportViolation, (config, context) =>
        rule.check(args.name, props as object, config, context),
      ),
    ),
  );
}

/**
 * A resource policy that judges several kinds of resource against one set of settings (e.g. data
 * centers, which both endpoints and volumes name, so a team lists a new one once).
 */
export function resourcesPolicy<S extends z.ZodObject, N extends string>(
  def: PolicyDefinition<S, N> & { readonly rules: readonly ResourceRule<z.infer<S>>[] },
): ResourceValidationPolicy & { readonly name: N } {
  return {
    ...policyHeader(def),
    validateResource: def.rules.flatMap((rule) => validateRule(def, rule)),
  };
}

/** The stack's resources as a stack policy reads them. */
export interface StackResources {
  /** The resources of one kind, in the engine's order, with typed props (outputs, in a stack policy). */
  of<P>(kind: ResourceClassStub<P>): NamedProps<P>[];
}

/** A view over `resources` for a stack rule. */
export function stackResources(resources: readonly PolicyResource[]): StackResources {
  return { of: (kind) => resourcesOfType(resources, kind) };
}

/** A policy that judges the stack as a whole. */
export interface StackPolicyDefinition<S extends z.ZodObject, N extends string = string> extends PolicyDefinition<
  S,
  N
> {
  /** Why the policy does not apply to this stack with these settings (e.g. no cap set), or undefined. */
  readonly notApplicable?: (config: z.infer<S>, context: StackContext, stack: StackResources) => string | undefined;
  /** The rule: one message per violation. */
  readonly check: (stack: StackResources, config: z.infer<S>, context: StackContext) => string[];
}

/** A stack policy of the pack. */
export function stackPolicy<S extends z.ZodObject, N extends string>(
  def: StackPolicyDefinition<S, N>,
): StackValidationPolicy & { readonly name: N } {
  return {
    ...policyHeader(def),
    validateStack: (args, reportViolation) => {
      const config = parsePolicyConfig(def.name, def.config, args.getConfig());
      const context = currentStackContext(args.stackTags, args.resources[0]?.urn);
      const stack = stackResources(args.resources);
      const why = def.notApplicable?.(config, context, stack);
      if (why !== undefined) args.notApplicable(why);
      for (const message of def.check(stack, config, context)) reportViolation(message);
    },
  };
}

import type {
  EnforcementLevel,
  Policies,
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  StackValidationArgs,
} from "@pulumi/policy/policy";
import { RESOURCE_TYPES, type ResourceKind } from "../../../policy/resource-types";

/**
 * An in-process stand-in for @pulumi/policy's analyzer server (server.js in @pulumi/policy 1.21),
 * so the real policy objects (not only their rules) run as the engine would run them:
 * - the enforcement level is the config's, else the policy's, else the pack default `advisory`;
 * - remediations of `remediate`-level policies run first, per resource, and replace its props;
 * - validations then run on the remediated props; a `remediate` level reports as `mandatory`;
 * - a validation attached to a type (`__pulumiType`) is skipped for other types;
 * - `notApplicable` throws and is recorded; `getConfig` omits `enforcementLevel`;
 * - stack policies see every resource (props = the final inputs, as for a preview's creates).
 * The stack name reaches the policies the way the engine passes it: `PULUMI_STACK`.
 */

/** A resource of a scenario or test. */
export interface HarnessResource {
  readonly type: ResourceKind;
  readonly name: string;
  readonly props: Record<string, unknown>;
}

/** One reported violation. */
export interface ReportedViolation {
  readonly policy: string;
  readonly message: string;
}

/** Everything the pack reported. */
export interface HarnessResult {
  readonly mandatory: ReportedViolation[];
  readonly advisory: ReportedViolation[];
  /** Props after remediation, by resource name (only resources a remediation changed). */
  readonly remediated: Record<string, Record<string, unknown>>;
  /** `policy: reason` (plus `@resource` for resource policies) of every not-applicable answer. */
  readonly notApplicable: string[];
}

/** Inputs of one run. */
export interface HarnessRun {
  readonly resources: readonly HarnessResource[];
  /** The `--policy-pack-config` file's content. */
  readonly config?: Record<string, unknown> | undefined;
  readonly stack?: string | undefined;
  readonly stackTags?: Record<string, string> | undefined;
}

class NotApplicable extends Error {}

function notApplicable(reason?: string): never {
  throw new NotApplicable(reason ?? "");
}

function levelOf(policy: Policies[number], config: Record<string, unknown>): EnforcementLevel {
  const entry = config[policy.name];
  if (typeof entry === "string") return entry as EnforcementLevel;
  const configured = (entry as { enforcementLevel?: EnforcementLevel } | undefined)?.enforcementLevel;
  return configured ?? policy.enforcementLevel ?? "advisory";
}

function configOf(policy: Policies[number], config: Record<string, unknown>): object {
  const entry = config[policy.name];
  if (typeof entry !== "object" || entry === null) return {};
  const { enforcementLevel: _level, ...rest } = entry as Record<string, unknown>;
  return rest;
}

function typeMatches(fn: unknown, type: string): boolean {
  const pulumiType = (fn as { __pulumiType?: unknown }).__pulumiType;
  return typeof pulumiType !== "string" || pulumiType === type;
}

/** Runs `policies` over `run` the way the analyzer server does, and collects what they report. */
export async function runPolicies(policies: Policies, run: HarnessRun): Promise<HarnessResult> {
  const saved = { stack: process.env.PULUMI_STACK, nodeStack: process.env.PULUMI_NODEJS_STACK };
  delete process.env.PULUMI_NODEJS_STACK;
  if (run.stack === undefined) delete process.env.PULUMI_STACK;
  else process.env.PULUMI_STACK = run.stack;
  try {
    return await analyze(policies, run);
  } finally {
    if (saved.stack === undefined) delete process.env.PULUMI_STACK;
    else process.env.PULUMI_STACK = saved.stack;
    if (saved.nodeStack !== undefined) process.env.PULUMI_NODEJS_STACK = saved.nodeStack;
  }
}

async function analyze(policies: Policies, run: HarnessRun): Promise<HarnessResult> {
  const config = run.config ?? {};
  const stackTags: ReadonlyMap<string, string> = new Map(Object.entries(run.stackTags ?? {}));
  const result: HarnessResult = { mandatory: [], advisory: [], remediated: {}, notApplicable: [] };
  const reporter =
    (policy: string, level: EnforcementLevel): ReportViolation =>
    (message) => {
      if (level === "mandatory" || level === "remediate") result.mandatory.push({ policy, message });
      else if (level === "advisory") result.advisory.push({ policy, message });
    };
  const final: { type: string; name: string; props: Record<string, unknown> }[] = [];

  for (const resource of run.resources) {
    const type = RESOURCE_TYPES[resource.type];
    let props: Record<string, unknown> = structuredClone(resource.props);
    const argsFor = (policyConfig: object): ResourceValidationArgs => ({
      type,
      props,
      urn: `urn:pulumi:${run.stack ?? "stack"}::scenario::${type}::${resource.name}`,
      name: resource.name,
      opts: {
        protect: false,
        ignoreChanges: [],
        aliases: [],
        additionalSecretOutputs: [],
        customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      },
      stackTags,
      isType: (cls) => typeMatches(cls, type),
      asType: (cls) => (typeMatches(cls, type) ? (props as never) : undefined),
      getConfig: <T extends object>() => policyConfig as T,
      notApplicable,
    });
    for (const policy of policies) {
      if (levelOf(policy, config) !== "remediate" || !("remediateResource" in policy) || !policy.remediateResource) {
        continue;
      }
      if (!typeMatches(policy.remediateResource, type)) continue;
      try {
        const fixed = await policy.remediateResource(argsFor(configOf(policy, config)));
        if (fixed) {
          props = fixed as Record<string, unknown>;
          result.remediated[resource.name] = props;
        }
      } catch (e) {
        if (!(e instanceof NotApplicable)) throw e;
        result.notApplicable.push(`${policy.name}@${resource.name}: ${e.message}`);
      }
    }
    for (const policy of policies) {
      const level = levelOf(policy, config);
      if (level === "disabled" || !("validateResource" in policy) || !policy.validateResource) continue;
      const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource];
      for (const validation of validations) {
        if (!typeMatches(validation, type)) continue;
        try {
          await validation(argsFor(configOf(policy, config)), reporter(policy.name, level));
        } catch (e) {
          if (!(e instanceof NotApplicable)) throw e;
          result.notApplicable.push(`${policy.name}@${resource.name}: ${e.message}`);
        }
      }
    }
    final.push({ type, name: resource.name, props });
  }

  const stackResources = final.map(
    (r) =>
      ({
        type: r.type,
        name: r.name,
        urn: `urn:pulumi:${run.stack ?? "stack"}::scenario::${r.type}::${r.name}`,
        props: r.props,
        opts: {},
        dependencies: [],
        propertyDependencies: {},
        isType: (cls: unknown) => typeMatches(cls, r.type),
        asType: () => undefined,
      }) as unknown as PolicyResource,
  );
  for (const policy of policies) {
    const level = levelOf(policy, config);
    if (level === "disabled" || !("validateStack" in policy)) continue;
    const args: StackValidationArgs = {
      resources: stackResources,
      stackTags,
      getConfig: <T extends object>() => configOf(policy, config) as T,
      notApplicable,
    };
    try {
      await policy.validateStack(args, reporter(policy.name, level));
    } catch (e) {
      if (!(e instanceof NotApplicable)) throw e;
      result.notApplicable.push(`${policy.name}: ${e.message}`);
    }
  }
  return result;
}

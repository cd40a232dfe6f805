import type {
  EnforcementLevel,
  Policies,
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  StackValidationArgs,
} from "@pulumi/policy/policy";
import * as policyDeserialize from "@pulumi/policy/deserialize";
import * as policyProxy from "@pulumi/policy/proxy";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { PLUGIN_RESOURCE_TYPES, RESOURCE_TYPES, type ResourceKind } from "../../../policy/resource-types";
import type { ScenarioResource } from "../../../policy/scenarios/types";
import { UNKNOWN } from "../../../policy/unknown-values";
import { trackSecretInputs } from "../../../policy/secret-inputs";
import policyPackage from "../../../policy/package.json";

/**
 * An in-process stand-in for @pulumi/policy's analyzer server (server.js in @pulumi/policy 1.21),
 * so the real policy objects (not only their rules) run as the engine would run them:
 * - the enforcement level is the config's, else the policy's, else the pack default `advisory`;
 * - remediations of `remediate`-level policies run first, per resource, and replace its props;
 * - validations then run on the remediated props; a `remediate` level reports as `mandatory`;
 * - a validation attached to a type (`__pulumiType`) is skipped for other types;
 * - `notApplicable` throws and is recorded; `getConfig` omits `enforcementLevel`;
 * - stack policies see every resource (props = the final inputs, as for a preview's creates),
 *   with `propertyDependencies` resolved to those resources;
 * - validations read props through @pulumi/policy's own unknown-checking proxy, so reading a
 *   value unknown during preview (the `UNKNOWN` sentinel) throws `UnknownValueError`, which is
 *   reported as the analyzer does: advisory, "can't run policy ... during preview: ...".
 * - props reach the policies through @pulumi/policy's own deserializer, from the struct the engine
 *   sends (secret props wrapped in the secret signature), with the pack's `trackSecretInputs` on;
 * The stack name reaches the policies the way the engine passes it: `PULUMI_STACK`.
 */

/** @pulumi/policy's proxy module; its declarations omit what its index re-exports (see docs/policy-pack.md). */
const { unknownCheckingProxy, UnknownValueError } = policyProxy as unknown as {
  unknownCheckingProxy<T extends object>(props: T): T;
  UnknownValueError: new (...args: never[]) => Error;
};

/** A resource of a scenario or test. */
export interface HarnessResource {
  readonly type: ResourceKind;
  readonly name: string;
  readonly props: Record<string, unknown>;
  /** The engine's `propertyDependencies`: property name -> logical names of the resources it depends on. */
  readonly dependsOn?: Readonly<Record<string, readonly string[]>>;
  /** Props the program marked secret, by dotted path (`env.TOKEN`). */
  readonly secretProps?: readonly string[];
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
  /** Whose type tokens the resources carry: the dynamic resources' (default) or the provider plugin's. */
  readonly servedBy?: "dynamic" | "plugin";
}

class NotApplicable extends Error {}

trackSecretInputs();
const { deserializeProperties } = policyDeserialize as unknown as {
  deserializeProperties(struct: { toJavaScript(): unknown }, proxySecrets: boolean): Record<string, unknown>;
};

/** A resource's props as a validation gets them: sent by the engine (secrets signed), deserialized by @pulumi/policy. */
function engineProps(resource: HarnessResource): Record<string, unknown> {
  const raw = structuredClone(resource.props);
  for (const path of resource.secretProps ?? []) {
    const keys = path.split(".");
    const last = keys.pop()!;
    const parent = keys.reduce<Record<string, unknown>>((o, k) => o[k] as Record<string, unknown>, raw);
    parent[last] = { [specialSigKey]: specialSecretSig, value: parent[last] };
  }
  return deserializeProperties({ toJavaScript: () => raw }, false);
}

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
  // What the analyzer does with a throw: unknown value -> advisory note, not applicable -> recorded.
  const caught = (e: unknown, policy: string, where: string) => {
    if (e instanceof UnknownValueError) {
      const from = `policy '${policy}' from policy pack 'runpod@v${policyPackage.version}'`;
      result.advisory.push({ policy, message: `can't run ${from} during preview: ${e.message}` });
    } else if (e instanceof NotApplicable) result.notApplicable.push(`${where}: ${e.message}`);
    else throw e;
  };
  const final: HarnessResource[] = [];

  for (const resource of run.resources) {
    const type = (run.servedBy === "plugin" ? PLUGIN_RESOURCE_TYPES : RESOURCE_TYPES)[resource.type];
    let props: Record<string, unknown> = engineProps(resource);
    const argsFor = (policyConfig: object): ResourceValidationArgs => ({
      type,
      props: unknownCheckingProxy(props),
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
          caught(e, policy.name, `${policy.name}@${resource.name}`);
        }
      }
    }
    final.push({ ...resource, props });
  }

  const stackResources = final.map((r) => {
    const type = (run.servedBy === "plugin" ? PLUGIN_RESOURCE_TYPES : RESOURCE_TYPES)[r.type];
    return {
      type,
      name: r.name,
      urn: `urn:pulumi:${run.stack ?? "stack"}::scenario::${type}::${r.name}`,
      props: unknownCheckingProxy(r.props),
      opts: {},
      dependencies: [],
      propertyDependencies: {},
      isType: (cls: unknown) => typeMatches(cls, type),
      asType: () => undefined,
    } as unknown as PolicyResource;
  });
  final.forEach((r, i) => {
    for (const [property, names] of Object.entries(r.dependsOn ?? {})) {
      stackResources[i]!.propertyDependencies[property] = names.map((name) => {
        const found = stackResources.find((s) => s.name === name);
        if (!found) throw new Error(`${r.name}.${property} depends on ${name}, which is not a resource of the run`);
        return found;
      });
    }
  });
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
      caught(e, policy.name, policy.name);
    }
  }
  return result;
}

/**
 * A scenario's resources as a first preview presents them: each `refs` input holds the unknown
 * sentinel (the referenced resource is not created yet) and depends on the referenced resource.
 */
export function previewResources(resources: readonly ScenarioResource[]): HarnessResource[] {
  return resources.map((r) => {
    const props: Record<string, unknown> = { ...r.props };
    const dependsOn: Record<string, readonly string[]> = {};
    for (const [property, ref] of Object.entries(r.refs ?? {})) {
      const names = typeof ref === "string" ? [ref] : [...ref];
      props[property] = typeof ref === "string" ? UNKNOWN : names.map(() => UNKNOWN);
      dependsOn[property] = names;
    }
    return { type: r.type, name: r.name, props, dependsOn, secretProps: r.secretProps };
  });
}

import type { RunpodPolicyName } from "../index";
import type { ResourceArgsByType } from "../../provider/field-rules";
import type { PolicyProps, ResourceKind, ServerlessEndpointProps } from "../resource-types";

/**
 * A policy scenario: a tiny Pulumi program (its resources), the stack it runs as, the policy-pack
 * configuration, and exactly what the pack must report. An end-to-end test turns each scenario
 * into a program of the package's resources, runs
 * `pulumi preview --policy-pack policy --policy-pack-config <config file>` on stack `stack`, and
 * compares the violations; `test/unit/policy/scenarios.test.ts` runs the same scenarios through
 * an in-process stand-in of the analyzer.
 *
 * Every resource's props pass the shared request schemas (`EndpointCreateInputSchema`,
 * `NetworkVolumeCreateInputSchema`, the OpenAPI `Template`) and endpoints use the emulator's
 * built-in `echo` template unless they run a `Template` of the scenario, so the provider's
 * `check` accepts them and only the policies speak.
 */

/** Props of each kind of resource, as a scenario writes them: as a policy sees them (resource-types.ts). */
export type PropsOfKind = { readonly [K in ResourceKind]: PolicyProps<ResourceArgsByType[K]> };

/** One resource of a scenario's program. */
export type ScenarioResource = {
  readonly [K in ResourceKind]: {
    /** Resource class of the package (`require("runpod-iac")[type]`). */
    readonly type: K;
    /** Logical name in the program. */
    readonly name: string;
    /** Constructor args (besides `refs`). */
    readonly props: PropsOfKind[K];
    /**
     * Inputs that take the `id` of an earlier resource of the scenario: property name -> its
     * logical name, or a list of names for a list property (`networkVolumeIds`). During the
     * scenario's preview these ids are unknown, and the engine links the property to the resource
     * (`propertyDependencies`), as with `networkVolumeId: volume.id` in a program.
     */
    readonly refs?: Readonly<Record<string, string | readonly string[]>>;
    /**
     * Props the program marks secret (`pulumi.secret(...)`), by dotted path (`env.GITHUB_TOKEN`):
     * the engine sends them to the pack as secrets, which the pack's rules may tell apart.
     */
    readonly secretProps?: readonly string[];
  };
}[ResourceKind];

/** One violation the pack must report. */
export interface ExpectedViolation {
  /** The policy that reports it. */
  readonly policy: RunpodPolicyName;
  /**
   * The exact text the policy reports. The Pulumi CLI shows it below the policy's description
   * (the analyzer sends `description + "\n" + message`).
   */
  readonly message: string;
}

/** Contents of a `--policy-pack-config` file: per policy, a level or settings with `enforcementLevel`. */
export type PolicyPackConfigFile = Partial<
  Record<RunpodPolicyName | "all", string | ({ enforcementLevel?: string } & Record<string, unknown>)>
>;

/** A scenario. */
export interface PolicyScenario {
  /** Kebab-case name; usable as a directory or project name. */
  readonly name: string;
  /** What the scenario shows. */
  readonly description: string;
  /** Stack name to run as (matched by `byStack` patterns). */
  readonly stack: string;
  /** The program's resources, in declaration order. */
  readonly resources: readonly ScenarioResource[];
  /** The `--policy-pack-config` file; omitted: run without one (policy defaults). */
  readonly config?: PolicyPackConfigFile;
  /** What the pack must report, in any order, and nothing else. */
  readonly expect: {
    /** Violations at level `mandatory` (the preview fails when there is one). */
    readonly mandatory: readonly ExpectedViolation[];
    /** Violations at level `advisory` (reported; the preview succeeds). */
    readonly advisory: readonly ExpectedViolation[];
    /** For `remediate`-level policies: by resource name, the props a remediation must have set. */
    readonly remediated?: Readonly<Record<string, Partial<ServerlessEndpointProps>>>;
  };
}

import type { RunpodPolicyName } from "../index";
import type { NetworkVolumeProps, ServerlessEndpointProps } from "../resource-types";

/**
 * A policy scenario: a tiny Pulumi program (its resources), the stack it runs as, the policy-pack
 * configuration, and exactly what the pack must report. An end-to-end test turns each scenario
 * into a program of `NetworkVolume`/`ServerlessEndpoint` resources, runs
 * `pulumi preview --policy-pack policy --policy-pack-config <config file>` on stack `stack`, and
 * compares the violations; `test/unit/policy/scenarios.test.ts` runs the same scenarios through
 * an in-process stand-in of the analyzer.
 *
 * Every resource's props pass the shared request schemas (`EndpointCreateInputSchema`,
 * `NetworkVolumeCreateInputSchema`) and use the emulator's built-in `echo` template, so the
 * provider's `check` accepts them and only the policies speak.
 */

/** One resource of a scenario's program. */
export type ScenarioResource =
  | {
      /** Resource class from `provider/`. */
      readonly type: "ServerlessEndpoint";
      /** Logical name in the program. */
      readonly name: string;
      /** Constructor args. */
      readonly props: ServerlessEndpointProps;
    }
  | {
      /** Resource class from `provider/`. */
      readonly type: "NetworkVolume";
      /** Logical name in the program. */
      readonly name: string;
      /** Constructor args. */
      readonly props: NetworkVolumeProps;
    };

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

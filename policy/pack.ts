import { PolicyPack } from "@pulumi/policy/policy";
import { POLICY_PACK_NAME, runpodPolicies } from "./index";
import { trackSecretInputs } from "./secret-inputs";

/**
 * Entry point of the policy pack that Pulumi runs: `pulumi preview --policy-pack <dir>` starts
 * `@pulumi/pulumi/cmd/run-policy-pack` in `<dir>` (this package's `policy/`), which requires the
 * directory; `policy/package.json` points `main` at the compiled form of this file. Constructing
 * the `PolicyPack` starts the analyzer's gRPC server and reads the pack's version from
 * `<dir>/package.json`, so nothing else may import this module.
 *
 * `@pulumi/policy/policy` rather than `@pulumi/policy`: the package's `index.d.ts` re-exports
 * names that its `proxy.d.ts` does not declare, which fails type-checking with `skipLibCheck: false`.
 */
// Before the analyzer deserializes anything: rules then know which inputs the program marked secret.
trackSecretInputs();
// No `description` here: it would override the one in PulumiPolicy.yaml, which the Pulumi CLI
// reads, and the pack's description is written there alone.
new PolicyPack(POLICY_PACK_NAME, { policies: runpodPolicies });

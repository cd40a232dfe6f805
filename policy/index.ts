import type { Policies } from "@pulumi/policy/policy";
import { contradictoryInputsPolicy } from "./contradictory-inputs";
import { gpuPriorityListPolicy } from "./gpu-priority-list";
import { imagePinningPolicy } from "./image-pinning";
import { serverlessTemplatePolicy } from "./serverless-template";
import { stackCostCeilingPolicy } from "./stack-cost-ceiling";
import { knownPlatformValuesPolicy } from "./known-platform-values";
import { podLimitsPolicy } from "./pod-limits";
import { plaintextCredentialsPolicy } from "./plaintext-credentials";
import { liveCatalogPolicy } from "./live-catalog";
import { stackVolumeSizeCapPolicy } from "./stack-volume-size-cap";
import { stackWorkerBudgetPolicy } from "./stack-worker-budget";
import { volumeLocalityPolicy } from "./volume-locality";
import { volumeSizeCapPolicy } from "./volume-size-cap";
import { workerBoundsPolicy } from "./worker-bounds";

/**
 * The policy pack as a library (`runpod-iac/policy`): the policies, their pure rules and their
 * configuration schemas. Importing this module has no side effect; the pack that Pulumi runs
 * (`--policy-pack policy`) is `pack.ts`, which constructs the `PolicyPack` (and with it a gRPC server).
 */

export * from "./contradictory-inputs";
export * from "./credential-shapes";
export * from "./gpu-priority-list";
export * from "./image-pinning";
export * from "./known-platform-values";
export * from "./plaintext-credentials";
export * from "./pod-limits";
export * from "./live-catalog";
export * from "./resource-types";
export * from "./serverless-template";
export * from "./stack-context";
export * from "./stack-cost-ceiling";
export * from "./stack-cost-endpoints";
export * from "./stack-cost-pods";
export * from "./stack-volume-size-cap";
export * from "./stack-worker-budget";
export * from "./unknown-values";
export * from "./volume-locality";
export * from "./volume-size-cap";
export * from "./worker-bounds";

/** Name of the policy pack, as the Pulumi CLI shows it (`runpod@v<version>`). */
export const POLICY_PACK_NAME = "runpod";

/** Every policy of the pack, in the order the CLI lists them. */
export const runpodPolicies = [
  gpuPriorityListPolicy,
  workerBoundsPolicy,
  stackWorkerBudgetPolicy,
  volumeSizeCapPolicy,
  stackVolumeSizeCapPolicy,
  imagePinningPolicy,
  volumeLocalityPolicy,
  contradictoryInputsPolicy,
  serverlessTemplatePolicy,
  stackCostCeilingPolicy,
  knownPlatformValuesPolicy,
  podLimitsPolicy,
  liveCatalogPolicy,
  plaintextCredentialsPolicy,
] satisfies Policies;

/** The name of one of the pack's policies (a key of `--policy-pack-config`). */
export type RunpodPolicyName = (typeof runpodPolicies)[number]["name"];

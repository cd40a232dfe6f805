import type { Policies } from "@pulumi/policy/policy";
import { type CONTRADICTORY_INPUTS_POLICY, contradictoryInputsPolicy } from "./contradictory-inputs";
import { type GPU_PRIORITY_LIST_POLICY, gpuPriorityListPolicy } from "./gpu-priority-list";
import { type IMAGE_PINNING_POLICY, imagePinningPolicy } from "./image-pinning";
import { type SERVERLESS_TEMPLATE_POLICY, serverlessTemplatePolicy } from "./serverless-template";
import { type STACK_COST_CEILING_POLICY, stackCostCeilingPolicy } from "./stack-cost-ceiling";
import { type KNOWN_PLATFORM_VALUES_POLICY, knownPlatformValuesPolicy } from "./known-platform-values";
import { type POD_LIMITS_POLICY, podLimitsPolicy } from "./pod-limits";
import { type PLAINTEXT_CREDENTIALS_POLICY, plaintextCredentialsPolicy } from "./plaintext-credentials";
import { type LIVE_CATALOG_POLICY, liveCatalogPolicy } from "./live-catalog";
import { type STACK_VOLUME_SIZE_CAP_POLICY, stackVolumeSizeCapPolicy } from "./stack-volume-size-cap";
import { type STACK_WORKER_BUDGET_POLICY, stackWorkerBudgetPolicy } from "./stack-worker-budget";
import { type VOLUME_LOCALITY_POLICY, volumeLocalityPolicy } from "./volume-locality";
import { type VOLUME_SIZE_CAP_POLICY, volumeSizeCapPolicy } from "./volume-size-cap";
import { type WORKER_BOUNDS_POLICY, workerBoundsPolicy } from "./worker-bounds";

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
export const runpodPolicies: Policies = [
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
];

/** The name of one of the pack's policies (a key of `--policy-pack-config`). */
export type RunpodPolicyName =
  | typeof GPU_PRIORITY_LIST_POLICY
  | typeof WORKER_BOUNDS_POLICY
  | typeof STACK_WORKER_BUDGET_POLICY
  | typeof VOLUME_SIZE_CAP_POLICY
  | typeof STACK_VOLUME_SIZE_CAP_POLICY
  | typeof IMAGE_PINNING_POLICY
  | typeof VOLUME_LOCALITY_POLICY
  | typeof CONTRADICTORY_INPUTS_POLICY
  | typeof SERVERLESS_TEMPLATE_POLICY
  | typeof STACK_COST_CEILING_POLICY
  | typeof KNOWN_PLATFORM_VALUES_POLICY
  | typeof POD_LIMITS_POLICY
  | typeof LIVE_CATALOG_POLICY
  | typeof PLAINTEXT_CREDENTIALS_POLICY;

import type { Policies } from "@pulumi/policy/policy";
import { type GPU_PRIORITY_LIST_POLICY, gpuPriorityListPolicy } from "./gpu-priority-list";
import { type STACK_VOLUME_SIZE_CAP_POLICY, stackVolumeSizeCapPolicy } from "./stack-volume-size-cap";
import { type STACK_WORKER_BUDGET_POLICY, stackWorkerBudgetPolicy } from "./stack-worker-budget";
import { type VOLUME_SIZE_CAP_POLICY, volumeSizeCapPolicy } from "./volume-size-cap";
import { type WORKER_BOUNDS_POLICY, workerBoundsPolicy } from "./worker-bounds";

/**
 * The policy pack as a library (`pulumi-runpod/policy`): the policies, their pure rules and their
 * configuration schemas. Importing this module has no side effect; the pack that Pulumi runs
 * (`--policy-pack policy`) is `pack.ts`, which constructs the `PolicyPack` (and with it a gRPC server).
 */

export * from "./gpu-priority-list";
export * from "./resource-types";
export * from "./stack-context";
export * from "./stack-volume-size-cap";
export * from "./stack-worker-budget";
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
];

/** The name of one of the pack's policies (a key of `--policy-pack-config`). */
export type RunpodPolicyName =
  | typeof GPU_PRIORITY_LIST_POLICY
  | typeof WORKER_BOUNDS_POLICY
  | typeof STACK_WORKER_BUDGET_POLICY
  | typeof VOLUME_SIZE_CAP_POLICY
  | typeof STACK_VOLUME_SIZE_CAP_POLICY;
